package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.impl.CanonicalJson;
import dev.ratchet.runtime.impl.JsonText;
import dev.ratchet.runtime.impl.ScratchText;
import dev.ratchet.runtime.impl.Sha256;

/**
 * A turn's spec as the journal stores it, and the hash that tells a resubmission of the same calls
 * from a reused turn id: the text of {@link Turn#toJson()} (with the catalogue) and the SHA-256 of
 * its canonical form, written straight from the turn rather than through a {@code JsonObject}.
 */
final class TurnText {

  private TurnText() {
  }

  private static final ScratchText SCRATCH = new ScratchText(512);

  /**
   * The UTF-8 of {@code turn.toJson()} encoded, with {@link Turn#CATALOGUE} and
   * {@link Turn#REPLY_ADDRESS} and {@link Turn#TRACEPARENT} last when they are not null: the spec as a Redis request carries it.
   */
  static byte[] specBytes(Turn turn, String catalogue, String replyAddress) {
    return RequestBytes.utf8(write(SCRATCH.get(), turn, catalogue, replyAddress));
  }

  private static StringBuilder write(StringBuilder sb, Turn turn, String catalogue, String replyAddress) {
    sb.append('{');
    JsonText.string(JsonText.name(sb, "turnId"), turn.turnId());
    JsonText.name(sb, "calls").append('[');
    for (int i = 0; i < turn.calls().size(); i++) {
      ToolCall c = turn.calls().get(i);
      if (i > 0) {
        sb.append(',');
      }
      sb.append('{');
      JsonText.string(JsonText.name(sb, "name"), c.name());
      JsonText.value(JsonText.name(sb, "arguments"), c.arguments());
      if (c.modelCallId() != null) {
        JsonText.string(JsonText.name(sb, "modelCallId"), c.modelCallId());
      }
      if (c.rawArguments() != null) {
        JsonText.string(JsonText.name(sb, "rawArguments"), c.rawArguments());
      }
      sb.append('}');
    }
    sb.append(']');
    if (catalogue != null) {
      JsonText.string(JsonText.name(sb, Turn.CATALOGUE), catalogue);
    }
    if (replyAddress != null) {
      JsonText.string(JsonText.name(sb, Turn.REPLY_ADDRESS), replyAddress);
    }
    if (turn.traceparent() != null) {
      JsonText.string(JsonText.name(sb, Turn.TRACEPARENT), turn.traceparent());
    }
    return sb.append('}');
  }

  /** The SHA-256 of {@code CanonicalJson.encode(turn.toJson())}: the keys of every object sorted. */
  static String hash(Turn turn) {
    StringBuilder sb = SCRATCH.get().append("{\"calls\":[");
    for (int i = 0; i < turn.calls().size(); i++) {
      ToolCall c = turn.calls().get(i);
      if (i > 0) {
        sb.append(',');
      }
      CanonicalJson.append(sb.append("{\"arguments\":"), c.arguments());
      if (c.modelCallId() != null) {
        JsonText.string(sb.append(",\"modelCallId\":"), c.modelCallId());
      }
      JsonText.string(sb.append(",\"name\":"), c.name());
      if (c.rawArguments() != null) {
        JsonText.string(sb.append(",\"rawArguments\":"), c.rawArguments());
      }
      sb.append('}');
    }
    JsonText.string(sb.append("],\"turnId\":"), turn.turnId());
    return Sha256.hex(sb.append('}'));
  }
}
