package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.journal.RedisJournal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/** Reads a session's whole event stream page by page, up to a cap so one huge session cannot stall a request. */
public final class JournalReader {

  static final int PAGE = 500;
  static final int MAX_EVENTS = 20_000;

  private JournalReader() {
  }

  public static Future<List<JsonObject>> all(RedisJournal journal, String sessionId) {
    return after(journal, sessionId, null, new ArrayList<>());
  }

  private static Future<List<JsonObject>> after(RedisJournal journal, String sessionId, String afterId,
                                                List<JsonObject> acc) {
    return journal.events(sessionId, afterId, PAGE).compose(page -> {
      acc.addAll(page);
      if (page.size() < PAGE || acc.size() >= MAX_EVENTS) {
        return Future.succeededFuture(acc);
      }
      return after(journal, sessionId, page.get(page.size() - 1).getString("id"), acc);
    });
  }

  /**
   * The calls reconciled after the previous turn was submitted and before this one was: what the
   * model should learn on this turn. Deterministic from the journal, so a resubmitted turn gets the
   * same list.
   */
  public static List<JsonObject> reconciledBefore(List<JsonObject> events, String turnId) {
    List<JsonObject> since = new ArrayList<>();
    for (JsonObject e : events) {
      String type = e.getString("type");
      if ("turn.submitted".equals(type)) {
        if (turnId.equals(e.getString("turn"))) {
          return since;
        }
        since = new ArrayList<>();
      } else if ("call.reconciled".equals(type)) {
        JsonObject data = e.getJsonObject("data", new JsonObject());
        since.add(new JsonObject().put("callId", e.getString("call")).put("turnId", e.getString("turn"))
            .put("outcome", data.getString("outcome")).put("note", data.getString("note"))
            .put("reconciledBy", data.getString("by")).put("at", e.getLong("at")));
      }
    }
    return since;
  }
}
