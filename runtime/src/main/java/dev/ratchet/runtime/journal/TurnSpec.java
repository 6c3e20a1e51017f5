package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.impl.CanonicalJson;
import io.vertx.core.json.JsonObject;

/**
 * A submitted turn as a journal stores it: {@code encoded}, its spec with the catalogue version it
 * was validated against, its reply address and its trace context, and {@code hash}, what identifies it (rule 1),
 * which leaves both out.
 */
record TurnSpec(String encoded, String hash) {

  static TurnSpec of(Turn turn, String catalogue, String replyAddress) {
    JsonObject spec = turn.toJson();
    String hash = CanonicalJson.sha256Hex(CanonicalJson.encode(spec));
    if (catalogue != null) {
      spec.put(Turn.CATALOGUE, catalogue);
    }
    if (replyAddress != null) {
      spec.put(Turn.REPLY_ADDRESS, replyAddress);
    }
    if (turn.traceparent() != null) {
      spec.put(Turn.TRACEPARENT, turn.traceparent());
    }
    return new TurnSpec(spec.encode(), hash);
  }
}
