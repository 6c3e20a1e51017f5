package dev.ratchet.runtime.session;

import dev.ratchet.runtime.journal.JournalQueries;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/** A session's conversation as the API shows it, rebuilt from the journal's conversation entries. */
public final class Conversations {

  private Conversations() {
  }

  /**
   * {@code {"sessionId", "messages": [...]}}: user messages, model responses with their calls'
   * results, final answers.
   */
  public static Future<JsonObject> of(JournalQueries journal, String sessionId) {
    return journal.conversation(sessionId).compose(entries -> {
      List<Future<JsonObject>> messages = new ArrayList<>();
      for (JsonObject e : entries) {
        messages.add(message(journal, sessionId, e));
      }
      return Future.all(messages).map(cf -> {
        JsonArray list = new JsonArray();
        for (int i = 0; i < cf.size(); i++) {
          list.add(cf.resultAt(i));
        }
        return new JsonObject().put("sessionId", sessionId).put("messages", list);
      });
    });
  }

  /** One conversation entry as the API shows it; a model response carries its tool calls' results. */
  private static Future<JsonObject> message(JournalQueries journal, String sessionId, JsonObject e) {
    switch (e.getString("type", "")) {
      case "user":
        return Future.succeededFuture(new JsonObject().put("role", "user").put("messageId", e.getString("messageId"))
            .put("text", e.getString("text")).put("at", e.getLong("at")));
      case "model": {
        JsonObject response = e.getJsonObject("response", new JsonObject());
        JsonObject m = new JsonObject().put("role", "assistant").put("kind", "model_response")
            .put("step", e.getLong("step")).put("at", e.getLong("at"));
        if (response.getString("text") != null) {
          m.put("text", response.getString("text"));
        }
        String turnId = e.getString("turnId");
        if (turnId == null) {
          return Future.succeededFuture(m);
        }
        m.put("turnId", turnId).put("toolCalls", response.getJsonArray("toolCalls"));
        return journal.turnResult(sessionId, turnId).map(r -> r == null ? m.put("turnStatus", "running")
            : m.put("turnStatus", "completed").put("results", r.toJson().getJsonArray("results")));
      }
      default: {
        JsonObject m = new JsonObject().put("role", "assistant").put("kind", "final")
            .put("status", e.getString("status")).put("step", e.getLong("step", 0L)).put("at", e.getLong("at"));
        if (e.getString("text") != null) {
          m.put("text", e.getString("text"));
        }
        if (e.getString("error") != null) {
          m.put("error", e.getString("error"));
        }
        return Future.succeededFuture(m);
      }
    }
  }
}
