package dev.ratchet.runtime.retention;

import dev.ratchet.runtime.journal.SessionHistory;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records of the archive and of {@code ratchet export}, one JSON object each:
 * <ul>
 *   <li>{@code {"kind":"turn","session","agent","caller","turn","status","spec","specHash","submittedAt",
 *   "completedAt","results","events","archivedAt"}}: one turn with its results and step events;</li>
 *   <li>{@code {"kind":"session","session","meta","events","conversation","archivedAt"}}: what the
 *   session held besides its turns (its meta, its other events, the agent loop's conversation).</li>
 * </ul>
 * A session's history is its records in order; a later record of a turn replaces an earlier one.
 */
public final class ArchiveRecords {

  private ArchiveRecords() {
  }

  public static JsonObject turn(SessionHistory history, SessionHistory.TurnEntry turn, long at) {
    return turn(history, turn, history.eventsOf(turn.turnId()), at);
  }

  /** The turn's record with its {@code events} (from {@link SessionHistory#eventsByTurn} when there are many turns). */
  public static JsonObject turn(SessionHistory history, SessionHistory.TurnEntry turn, List<JsonObject> events, long at) {
    JsonObject json = new JsonObject().put("kind", "turn").put("session", history.sessionId())
        .put("agent", history.meta().getString("agent")).put("caller", history.meta().getString("caller"));
    json.mergeIn(turn.toJson());
    return json.put("events", new JsonArray(new ArrayList<>(events))).put("archivedAt", at);
  }

  /** The session record: its meta and the events and conversation that belong to no turn listed in {@code turnIds}. */
  public static JsonObject session(SessionHistory history, java.util.Set<String> turnIds, long at) {
    JsonArray events = new JsonArray();
    for (JsonObject e : history.events()) {
      if (e.getString("turn") == null || !turnIds.contains(e.getString("turn"))) {
        events.add(e);
      }
    }
    JsonObject meta = history.meta().copy();
    meta.remove("owner");
    return new JsonObject().put("kind", "session").put("session", history.sessionId()).put("meta", meta)
        .put("events", events).put("conversation", new JsonArray(new ArrayList<>(history.conversation())))
        .put("archivedAt", at);
  }

  /** Every record of a session's full history: the archive's, then what the journal holds now. */
  public static List<JsonObject> export(List<JsonObject> archived, SessionHistory journal, long at) {
    List<JsonObject> out = new ArrayList<>(archived);
    if (journal != null) {
      java.util.Set<String> ids = new java.util.HashSet<>();
      Map<String, List<JsonObject>> events = journal.eventsByTurn();
      for (SessionHistory.TurnEntry t : journal.turns()) {
        out.add(turn(journal, t, events.getOrDefault(t.turnId(), List.of()), at).put("inJournal", true));
        ids.add(t.turnId());
      }
      out.add(session(journal, ids, at).put("inJournal", true));
    }
    return out;
  }

  /** The session these records describe: the last meta, each turn's last record; null when there is none. */
  public static SessionHistory history(String sessionId, List<JsonObject> records) {
    JsonObject meta = null;
    Map<String, SessionHistory.TurnEntry> turns = new LinkedHashMap<>();
    List<JsonObject> events = new ArrayList<>();
    List<JsonObject> conversation = new ArrayList<>();
    for (JsonObject r : records) {
      if (!sessionId.equals(r.getString("session"))) {
        continue;
      }
      if ("session".equals(r.getString("kind"))) {
        meta = r.getJsonObject("meta", new JsonObject()).copy();
        conversation = new ArrayList<>();
        for (Object c : r.getJsonArray("conversation", new JsonArray())) {
          conversation.add((JsonObject) c);
        }
      } else if ("turn".equals(r.getString("kind"))) {
        turns.put(r.getString("turn"), SessionHistory.TurnEntry.fromJson(r));
        if (meta == null) {
          meta = new JsonObject().put("agent", r.getString("agent"));
          if (r.getString("caller") != null) {
            meta.put("caller", r.getString("caller"));
          }
        }
        for (Object e : r.getJsonArray("events", new JsonArray())) {
          events.add((JsonObject) e);
        }
      }
    }
    return meta == null ? null
        : new SessionHistory(sessionId, meta, new ArrayList<>(turns.values()), events, conversation, Map.of());
  }
}
