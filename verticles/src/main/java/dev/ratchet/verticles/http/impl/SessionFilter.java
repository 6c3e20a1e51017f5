package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.http.JournalReader;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code GET /api/sessions} keeps: by {@code agent}, {@code caller}, a part of the session id
 * ({@code q}), last activity ({@code from}, {@code to}, epoch milliseconds), and by what its calls
 * did: a {@code tool} it called, an {@code outcome} one of its calls had ({@code succeeded},
 * {@code failed}, {@code outcome_unknown}, {@code skipped}, {@code rejected}), its {@code status}
 * ({@code waiting_for_approval}, {@code running}, {@code idle}). The last three read each candidate
 * session's events, so a request with them scans fewer sessions.
 */
final class SessionFilter {

  static final Set<String> OUTCOMES = Set.of("succeeded", "failed", "outcome_unknown", "skipped", "rejected");
  static final Set<String> STATUSES = Set.of("waiting_for_approval", "running", "idle");
  static final SessionFilter NONE = new SessionFilter(new LinkedHashMap<>());

  private final Map<String, String> params;

  private SessionFilter(Map<String, String> params) {
    this.params = params;
  }

  static SessionFilter of(RoutingContext ctx) {
    Map<String, String> p = new LinkedHashMap<>();
    for (String name : new String[] {"agent", "caller", "q", "tool", "outcome", "status", "from", "to"}) {
      String v = ctx.request().getParam(name);
      if (v != null && !v.isBlank()) {
        if (v.length() > 200) {
          throw Replies.invalid("'" + name + "' is longer than 200 characters");
        }
        p.put(name, v.trim());
      }
    }
    if (p.containsKey("outcome") && !OUTCOMES.contains(p.get("outcome"))) {
      throw Replies.invalid("'outcome' must be one of " + new TreeSet<>(OUTCOMES));
    }
    if (p.containsKey("status") && !STATUSES.contains(p.get("status"))) {
      throw Replies.invalid("'status' must be one of " + new TreeSet<>(STATUSES));
    }
    for (String time : new String[] {"from", "to"}) {
      if (p.containsKey(time)) {
        try {
          Long.parseLong(p.get(time));
        } catch (NumberFormatException e) {
          throw Replies.invalid("'" + time + "' must be a time in epoch milliseconds");
        }
      }
    }
    return new SessionFilter(p);
  }

  boolean any() {
    return !params.isEmpty();
  }

  /** Whether the filter needs what the session's calls did, not only its metadata. */
  boolean readsEvents() {
    return params.containsKey("tool") || params.containsKey("outcome") || params.containsKey("status");
  }

  /** The filter as query parameters, {@code &name=value...}, for the link to the next page. */
  String query() {
    StringBuilder b = new StringBuilder();
    params.forEach((k, v) -> b.append('&').append(k).append('=')
        .append(URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20")));
    return b.toString();
  }

  boolean matchesInfo(String sessionId, JsonObject info) {
    return same("agent", info.getString("agent")) && same("caller", info.getString("caller"))
        && (!params.containsKey("q") || sessionId.contains(params.get("q")))
        && (!params.containsKey("from") || info.getLong("updatedAt", 0L) >= Long.parseLong(params.get("from")))
        && (!params.containsKey("to") || info.getLong("updatedAt", 0L) <= Long.parseLong(params.get("to")));
  }

  private boolean same(String name, String value) {
    return !params.containsKey(name) || params.get(name).equals(value);
  }

  /**
   * Whether the session's calls match; puts the session's {@code summary} ({@link #summary}) into
   * {@code row} when it read them.
   */
  Future<Boolean> matchesCalls(JournalQueries journal, String sessionId, JsonObject row) {
    if (!readsEvents()) {
      return Future.succeededFuture(true);
    }
    return JournalReader.all(journal, sessionId).map(events -> {
      JsonObject summary = summary(Timeline.build(sessionId, row, events));
      row.put("summary", summary);
      return (!params.containsKey("tool") || summary.getJsonArray("tools").contains(params.get("tool")))
          && (!params.containsKey("outcome") || summary.getJsonArray("outcomes").contains(params.get("outcome")))
          && (!params.containsKey("status") || params.get("status").equals(summary.getString("status")));
    });
  }

  /** What a session's calls did: {@code calls} (how many), {@code status}, {@code tools}, {@code outcomes}. */
  static JsonObject summary(JsonObject timeline) {
    int calls = 0;
    Set<String> tools = new TreeSet<>();
    Set<String> outcomes = new TreeSet<>();
    String status = "idle";
    for (Object t : timeline.getJsonArray("turns", new JsonArray())) {
      JsonObject turn = (JsonObject) t;
      if (!"completed".equals(turn.getString("status")) && !"waiting_for_approval".equals(status)) {
        status = "running";
      }
      for (Object c : turn.getJsonArray("calls", new JsonArray())) {
        JsonObject call = (JsonObject) c;
        calls++;
        tools.add(call.getString("tool"));
        String s = call.getString("status");
        if ("waiting_for_approval".equals(s)) {
          status = "waiting_for_approval";
        }
        if (call.getBoolean("skipped", false)) {
          outcomes.add("skipped");
        } else if ("succeeded".equals(s) || "failed".equals(s) || "outcome_unknown".equals(s)) {
          outcomes.add(s);
        }
        JsonObject approval = call.getJsonObject("approval");
        if (approval != null && "rejected".equals(approval.getString("status"))) {
          outcomes.add("rejected");
        }
      }
    }
    return new JsonObject().put("calls", calls).put("status", status).put("tools", new JsonArray(new java.util.ArrayList<>(tools)))
        .put("outcomes", new JsonArray(new java.util.ArrayList<>(outcomes)));
  }
}
