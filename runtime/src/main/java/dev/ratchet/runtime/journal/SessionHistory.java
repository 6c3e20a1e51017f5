package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.TurnResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A session as the journal holds it, for retention, export and import: its meta ({@code agent},
 * {@code caller}, {@code epoch}, {@code updatedAt}, {@code archivedAt}, ...), its turns in submission
 * order, its step events, its conversation and its tombstones by turn id.
 */
public record SessionHistory(String sessionId, JsonObject meta, List<TurnEntry> turns, List<JsonObject> events,
                             List<JsonObject> conversation, Map<String, JsonObject> tombstones) {

  /**
   * One turn. {@code results} is null while it runs; {@code removable} says whether J9 lets it go:
   * completed, every call with a final outcome, no {@code outcome_unknown} left unreconciled and no
   * approval pending.
   */
  public record TurnEntry(String turnId, String status, JsonObject spec, String specHash, long submittedAt,
                          long completedAt, TurnResult results, boolean removable) {

    public JsonObject toJson() {
      JsonObject json = new JsonObject().put("turn", turnId).put("status", status).put("spec", spec)
          .put("specHash", specHash).put("submittedAt", submittedAt);
      if (completedAt > 0) {
        json.put("completedAt", completedAt);
      }
      if (results != null) {
        json.put("results", results.toJson());
      }
      return json;
    }

    public static TurnEntry fromJson(JsonObject json) {
      JsonObject results = json.getJsonObject("results");
      return new TurnEntry(json.getString("turn"), json.getString("status", "completed"), json.getJsonObject("spec"),
          json.getString("specHash"), json.getLong("submittedAt", 0L), json.getLong("completedAt", 0L),
          results == null ? null : TurnResult.fromJson(results), false);
    }
  }

  /**
   * Every turn's events, by their {@code turn} field, in one pass over the events: what a caller
   * that visits many turns reads, rather than {@link #eventsOf} for each (a scan each).
   */
  public Map<String, List<JsonObject>> eventsByTurn() {
    Map<String, List<JsonObject>> byTurn = new java.util.HashMap<>();
    for (JsonObject e : events) {
      String turn = e.getString("turn");
      if (turn != null) {
        byTurn.computeIfAbsent(turn, t -> new ArrayList<>()).add(e);
      }
    }
    return byTurn;
  }

  /** The events of one turn, by their {@code turn} field: one scan over the session's events. */
  public List<JsonObject> eventsOf(String turnId) {
    List<JsonObject> list = new ArrayList<>();
    for (JsonObject e : events) {
      if (turnId.equals(e.getString("turn"))) {
        list.add(e);
      }
    }
    return list;
  }

  public boolean archived() {
    long archivedAt = meta.getLong("archivedAt", 0L);
    return archivedAt > 0 && archivedAt >= meta.getLong("updatedAt", 0L);
  }

  public JsonObject toJson() {
    JsonArray turnList = new JsonArray();
    turns.forEach(t -> turnList.add(t.toJson()));
    return new JsonObject().put("session", sessionId).put("meta", meta).put("turns", turnList)
        .put("events", new JsonArray(new ArrayList<>(events))).put("conversation", new JsonArray(new ArrayList<>(conversation)))
        .put("tombstones", new JsonObject(new LinkedHashMap<>(tombstones)));
  }
}
