package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.impl.CanonicalJson;
import io.vertx.core.json.JsonObject;

/**
 * A submitted turn as a journal stores it: {@code encoded}, its spec with the catalogue version it
 * was validated against, and {@code hash}, what identifies it (rule 1), which leaves that version out.
 */
record TurnSpec(String encoded, String hash) {

  static TurnSpec of(Turn turn, String catalogue) {
    JsonObject spec = turn.toJson();
    String hash = CanonicalJson.sha256Hex(CanonicalJson.encode(spec));
    return new TurnSpec(catalogue == null ? spec.encode() : spec.put(Turn.CATALOGUE, catalogue).encode(), hash);
  }
}
