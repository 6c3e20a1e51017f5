package dev.ratchet.verticles.http;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.JournalQueries;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a session's whole event stream page by page, up to a cap so one huge session cannot stall a request. */
public final class JournalReader {

  /** Events per read of the journal. */
  public static final int PAGE = 500;
  static final int MAX_EVENTS = 20_000;

  private JournalReader() {
  }

  /** The session's events, oldest first, up to the cap. */
  public static Future<List<JsonObject>> all(JournalQueries journal, String sessionId) {
    return after(journal, sessionId, null, new ArrayList<>());
  }

  private static Future<List<JsonObject>> after(JournalQueries journal, String sessionId, String afterId,
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
   * The events, with every {@code turn.completed} event carrying its turn's results whole. The
   * journal's stream keeps only each call's outcome for a completed turn, because the turn itself
   * keeps the results: they are read from there, one read per such turn, so a reader shows the
   * results as it always did. Events that carry the results already (as the engine emits them) are left as they are,
   * as is an event whose turn the journal does not hold.
   */
  public static Future<List<JsonObject>> withResults(JournalQueries journal, String sessionId, List<JsonObject> events) {
    return withResults(journal, sessionId, events, null);
  }

  /** As {@link #withResults(JournalQueries, String, List)} for the turns named in {@code turns} only (all when null). */
  public static Future<List<JsonObject>> withResults(JournalQueries journal, String sessionId, List<JsonObject> events,
                                                     Set<String> turns) {
    Map<String, List<JsonObject>> stripped = new LinkedHashMap<>();
    for (JsonObject e : events) {
      if (EventType.TURN_COMPLETED.wireName().equals(e.getString("type")) && e.getString("turn") != null
          && (turns == null || turns.contains(e.getString("turn")))
          && withoutResults(e.getJsonObject("data"))) {
        stripped.computeIfAbsent(e.getString("turn"), t -> new ArrayList<>()).add(e);
      }
    }
    if (stripped.isEmpty()) {
      return Future.succeededFuture(events);
    }
    List<Future<TurnResult>> reads = new ArrayList<>(stripped.size());
    stripped.keySet().forEach(turnId -> reads.add(journal.turnResult(sessionId, turnId)));
    return Future.all(reads).map(cf -> {
      int i = 0;
      for (List<JsonObject> turnEvents : stripped.values()) {
        TurnResult result = cf.resultAt(i++);
        if (result != null) {
          turnEvents.forEach(e -> e.put("data", result.toJson()));
        }
      }
      return events;
    });
  }

  /** Whether a turn.completed event left its results out, carrying each call's outcome only. */
  private static boolean withoutResults(JsonObject data) {
    return data != null && !data.containsKey("results") && data.containsKey("outcomes");
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
      if (EventType.TURN_SUBMITTED.wireName().equals(type)) {
        if (turnId.equals(e.getString("turn"))) {
          return since;
        }
        since = new ArrayList<>();
      } else if (EventType.CALL_RECONCILED.wireName().equals(type)) {
        JsonObject data = e.getJsonObject("data", new JsonObject());
        since.add(new JsonObject().put("callId", e.getString("call")).put("turnId", e.getString("turn"))
            .put("outcome", data.getString("outcome")).put("note", data.getString("note"))
            .put("reconciledBy", data.getString("by")).put("at", e.getLong("at")));
      }
    }
    return since;
  }
}
