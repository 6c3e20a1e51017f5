package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.impl.JsonText;
import dev.ratchet.runtime.impl.ScratchText;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A call's record, and a turn's results, as the journal stores them: the same fields as
 * {@link CallResult#toJson()} (the result last), written straight as text, because building a
 * {@code JsonObject} and running the codec for every record was most of what a call allocated. A
 * group commit sends each call's record and its event whole: the script only stores them, because
 * every string Lua makes is hashed byte by byte, which cost Redis more than the bytes cost the network.
 */
final class RecordText {

  private static final ScratchText SCRATCH = new ScratchText(512);

  private RecordText() {
  }

  /** The record with its result; {@code resultText} is the result already encoded, or null to encode it here. */
  static String full(CallResult r, String resultText) {
    String text = resultText(r, resultText);
    StringBuilder sb = prefix(r, text == null ? 0 : text.length() + 10);
    if (text != null) {
      JsonText.name(sb, "result").append(text);
    }
    return sb.append('}').toString();
  }

  /**
   * {@link #full} as the UTF-8 bytes a Redis request carries: written once into this thread's
   * builder and copied once into the bytes, with no string between them.
   */
  static byte[] fullBytes(CallResult r, String resultText) {
    String text = resultText(r, resultText);
    StringBuilder sb = SCRATCH.get();
    fields(sb, r);
    if (text != null) {
      JsonText.name(sb, "result").append(text);
    }
    return RequestBytes.utf8(sb.append('}'));
  }

  /** A step event's data as the UTF-8 bytes a Redis request carries, encoded as the codec does. */
  static byte[] jsonBytes(JsonObject data) {
    return RequestBytes.utf8(JsonText.value(SCRATCH.get(), data));
  }

  /** {@link #completedEvent} as UTF-8 bytes, like {@link #fullBytes}. */
  static byte[] completedEventBytes(CallResult r, String resultText) {
    StringBuilder sb = SCRATCH.get().append('{');
    JsonText.string(JsonText.name(sb, "outcome"), r.outcome().wireName());
    if (r.result() != null) {
      String text = resultText(r, resultText);
      JsonText.name(sb, "resultBytes").append(JsonText.utf8Length(text));
    }
    return RequestBytes.utf8(sb.append('}'));
  }

  /**
   * A {@code call.completed} event's data as the stream holds it: the outcome, and the result's size
   * in bytes when the call has one. The call's hash holds the record, which readers add
   * ({@link StepEntries#completedData}).
   */
  static String completedEvent(CallResult r, String resultText) {
    String text = resultText(r, resultText);
    StringBuilder sb = new StringBuilder(48).append('{');
    JsonText.string(JsonText.name(sb, "outcome"), r.outcome().wireName());
    if (text != null) {
      JsonText.name(sb, "resultBytes").append(JsonText.utf8Length(text));
    }
    return sb.append('}').toString();
  }

  /** The result encoded: {@code known} when given, else encoded here; null when the call has none. */
  static String resultText(CallResult r, String known) {
    return r.result() == null ? null : known != null ? known : JsonText.encode(r.result());
  }

  /** A turn's results up to their first record: {@code {"sessionId":..,"turnId":..,"results":[}. */
  static StringBuilder turnHead(String sessionId, String turnId, int capacity) {
    StringBuilder sb = new StringBuilder(64 + capacity).append('{');
    JsonText.name(sb, "sessionId");
    nullableString(sb, sessionId);
    JsonText.name(sb, "turnId");
    nullableString(sb, turnId);
    return JsonText.name(sb, "results").append('[');
  }

  /** A turn's results from its records' texts, as {@link dev.ratchet.runtime.TurnResult#toJson()} has them. */
  static String turnResult(String sessionId, String turnId, List<String> recordTexts) {
    int size = 0;
    for (String t : recordTexts) {
      size += t.length() + 1;
    }
    StringBuilder sb = turnHead(sessionId, turnId, size);
    for (int i = 0; i < recordTexts.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(recordTexts.get(i));
    }
    return sb.append("]}").toString();
  }

  /**
   * What the stream's {@code turn.completed} entry carries: the turn and each call's outcome in the
   * model's order. The turn's hash and the calls' hashes hold the records; a third copy in the
   * stream would only grow Redis's AOF, and so how often Redis rewrites it.
   */
  static String turnSummary(TurnResult result) {
    StringBuilder sb = new StringBuilder(64 + 20 * result.calls().size()).append('{');
    JsonText.name(sb, "sessionId");
    nullableString(sb, result.sessionId());
    JsonText.name(sb, "turnId");
    nullableString(sb, result.turnId());
    JsonText.name(sb, "outcomes").append('[');
    for (int i = 0; i < result.calls().size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      JsonText.string(sb, result.calls().get(i).outcome().wireName());
    }
    return sb.append("]}").toString();
  }

  private static StringBuilder prefix(CallResult r, int extra) {
    StringBuilder sb = new StringBuilder(256 + extra);
    fields(sb, r);
    return sb;
  }

  private static void fields(StringBuilder sb, CallResult r) {
    sb.append('{');
    JsonText.name(sb, "index").append(r.index());
    JsonText.name(sb, "callId");
    JsonText.string(sb, r.callId().value());
    JsonText.name(sb, "tool");
    nullableString(sb, r.tool());
    JsonText.name(sb, "outcome");
    JsonText.string(sb, r.outcome().wireName());
    JsonText.name(sb, "attempts").append(r.attempts());
    JsonText.name(sb, "skipped").append(r.skipped());
    JsonText.name(sb, "durationMs").append(r.durationMillis());
    if (r.approvalWaitMillis() > 0) {
      JsonText.name(sb, "approvalWaitMs").append(r.approvalWaitMillis());
    }
    if (r.effectClass() != null) {
      JsonText.name(sb, "effectClass");
      JsonText.string(sb, r.effectClass().wireName());
    }
    if (r.modelCallId() != null) {
      JsonText.name(sb, "modelCallId");
      JsonText.string(sb, r.modelCallId());
    }
    if (r.error() != null) {
      JsonText.name(sb, "error");
      JsonText.string(sb, r.error());
    }
    if (r.truncated()) {
      JsonText.name(sb, "truncated").append(true);
    }
    if (r.approval() != null) {
      JsonText.value(JsonText.name(sb, "approval"), r.approval().toJson());
    }
    if (r.reconciledBy() != null) {
      JsonText.name(sb, "reconciledBy");
      JsonText.string(sb, r.reconciledBy());
    }
  }

  private static void nullableString(StringBuilder sb, String s) {
    if (s == null) {
      sb.append("null");
    } else {
      JsonText.string(sb, s);
    }
  }
}
