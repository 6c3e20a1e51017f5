package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.http.JournalReader;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /api/reconciliation}: the calls that need a person to reconcile them (ended
 * {@code outcome_unknown}, not reconciled yet), newest session first, of the principal's tenants
 * only. The journal keeps no index of them, so the {@value #SESSIONS_SCANNED} most recently active
 * sessions are read; every reader shares one read made at most every {@value #FRESH_MILLIS} ms.
 */
public final class UnknownOutcomes {

  static final int SESSIONS_SCANNED = 1_000;
  static final long FRESH_MILLIS = 5_000;

  private final JournalQueries journal;
  private Future<List<JsonObject>> latest;
  private long readAt;

  public UnknownOutcomes(JournalQueries journal) {
    this.journal = journal;
  }

  public void mount(Router router) {
    router.get("/api/reconciliation").handler(AuthHandler.require(Role.Permission.READ)).handler(this::list);
    // mounted before the reconcile route: once a call is reconciled, the next list reads afresh
    router.post("/api/sessions/:sessionId/calls/:callId/reconcile").handler(ctx -> {
      ctx.addBodyEndHandler(v -> invalidate());
      ctx.next();
    });
  }

  private synchronized void invalidate() {
    latest = null;
  }

  private void list(RoutingContext ctx) {
    of(AuthHandler.principal(ctx)).onComplete(ar -> {
      if (ar.failed()) {
        Replies.fail(ctx, ar.cause());
      } else {
        Replies.json(ctx, 200, new JsonObject().put("calls", new JsonArray(new ArrayList<>(ar.result())))
            .put("sessionsScanned", SESSIONS_SCANNED));
      }
    });
  }

  /** The principal's calls awaiting reconciliation. */
  public Future<List<JsonObject>> of(Principal principal) {
    return all().map(calls -> calls.stream()
        .filter(c -> principal.tenants().sees(c.getString("caller"))).toList());
  }

  private synchronized Future<List<JsonObject>> all() {
    long now = System.currentTimeMillis();
    if (latest == null || (latest.isComplete() && now - readAt > FRESH_MILLIS)) {
      readAt = now;
      latest = read();
    }
    return latest;
  }

  private Future<List<JsonObject>> read() {
    return journal.recentSessions(0, SESSIONS_SCANNED).compose(ids -> {
      List<Future<List<JsonObject>>> reads = new ArrayList<>(ids.size());
      for (String id : ids) {
        reads.add(journal.sessionInfo(id).compose(info -> !SessionAccess.exists(info) ? Future.succeededFuture(List.of())
            : JournalReader.all(journal, id).map(events -> unknown(id, info, events))));
      }
      return Future.all(reads).map(cf -> {
        List<JsonObject> calls = new ArrayList<>();
        for (int i = 0; i < cf.size(); i++) {
          List<JsonObject> some = cf.resultAt(i);
          calls.addAll(some);
        }
        return calls;
      });
    });
  }

  private static List<JsonObject> unknown(String sessionId, JsonObject info, List<JsonObject> events) {
    List<JsonObject> calls = new ArrayList<>();
    JsonObject timeline = Timeline.build(sessionId, info, events);
    for (Object t : timeline.getJsonArray("turns")) {
      JsonObject turn = (JsonObject) t;
      for (Object c : turn.getJsonArray("calls")) {
        JsonObject call = (JsonObject) c;
        if ("outcome_unknown".equals(call.getString("status"))) {
          JsonObject row = new JsonObject().put("sessionId", sessionId).put("agent", info.getString("agent"))
              .put("caller", info.getString("caller")).put("turnId", turn.getString("turnId"))
              .put("callId", call.getString("callId")).put("tool", call.getString("tool"))
              .put("arguments", call.getJsonObject("arguments"));
          if (call.getValue("completedAt") != null) {
            row.put("completedAt", call.getValue("completedAt"));
          }
          if (call.getString("error") != null) {
            row.put("error", call.getString("error"));
          }
          calls.add(row);
        }
      }
    }
    return calls;
  }
}
