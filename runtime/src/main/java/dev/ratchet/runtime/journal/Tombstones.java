package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.TurnResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The compact record retention keeps of a removed turn: the digest of its calls (the spec hash a
 * resubmission is compared with), its calls' final outcomes without their results, and when it
 * expires. A resubmission of the same turn is answered from it (rule 1).
 */
public final class Tombstones {

  private Tombstones() {
  }

  /** The tombstone of a completed turn, kept until {@code expiresAt}. */
  public static JsonObject of(String specHash, TurnResult results, long expiresAt) {
    JsonArray calls = new JsonArray();
    for (Object o : results.toJson().getJsonArray("results", new JsonArray())) {
      JsonObject record = ((JsonObject) o).copy();
      if (record.remove("result") != null) {
        record.put("resultArchived", true);
      }
      calls.add(record);
    }
    return new JsonObject().put("specHash", specHash).put("expiresAt", expiresAt)
        .put("results", new JsonObject().put("sessionId", results.sessionId()).put("turnId", results.turnId())
            .put("results", calls));
  }

  /** The results a tombstone answers: each call's outcome, error and attempts; results are in the archive. */
  public static TurnResult results(JsonObject tombstone) {
    return TurnResult.fromJson(tombstone.getJsonObject("results"));
  }
}
