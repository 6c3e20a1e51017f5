package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The compact record retention keeps of a removed turn: the digest of its calls (the spec hash a
 * resubmission is compared with), when it expires, and each call's final record without what the
 * resubmitted turn itself gives back (its index, call id and tool) and without its result, which
 * is in the archive. A resubmission of the same turn is answered from it (rule 1).
 */
public final class Tombstones {

  /** Fields of a call record that a tombstone leaves out: the same spec gives them back. */
  private static final List<String> DERIVED = List.of("index", "callId", "tool", "result");

  private Tombstones() {
  }

  /** The tombstone of a completed turn, kept until {@code expiresAt}. */
  public static JsonObject of(String specHash, TurnResult results, long expiresAt) {
    JsonArray calls = new JsonArray();
    for (CallResult c : results.calls()) {
      JsonObject record = c.toJson();
      DERIVED.forEach(record::remove);
      if (Boolean.FALSE.equals(record.getValue("skipped"))) {
        record.remove("skipped");
      }
      calls.add(record);
    }
    return new JsonObject().put("specHash", specHash).put("expiresAt", expiresAt).put("calls", calls);
  }

  /**
   * The results a tombstone answers for {@code turn}, the turn resubmitted with the same spec hash:
   * each call's outcome, error, attempts and approval as journaled; results are in the archive.
   */
  public static TurnResult results(JsonObject tombstone, String sessionId, Turn turn) {
    JsonArray calls = tombstone.getJsonArray("calls", new JsonArray());
    List<CallResult> records = new ArrayList<>(calls.size());
    for (int i = 0; i < calls.size(); i++) {
      JsonObject record = calls.getJsonObject(i).copy().put("index", i)
          .put("callId", turn.callId(sessionId, i).value());
      if (i < turn.calls().size()) {
        record.put("tool", turn.calls().get(i).name());
      }
      records.add(CallResult.fromJson(record));
    }
    return new TurnResult(sessionId, turn.turnId(), records);
  }
}
