package dev.ratchet.runtime;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One model response: the ordered tool calls it asked for, identified within its session by a turn id.
 *
 * @param traceparent the W3C trace context the turn was submitted in, journaled with it so that a
 *     resumed turn continues its trace (docs/OBSERVABILITY.md); null when none. Not part of the
 *     turn's identity: {@link #toJson()} leaves it out, and two turns differing only in it are the same turn.
 */
public record Turn(String turnId, List<ToolCall> calls, String traceparent) {

  private static final Pattern TRACEPARENT_FORM = Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");

  public Turn {
    Objects.requireNonNull(turnId, "turnId");
    if (turnId.isBlank()) {
      throw new IllegalArgumentException("turn id must not be blank");
    }
    calls = List.copyOf(calls);
    traceparent = validTraceparent(traceparent);
  }

  public Turn(String turnId, List<ToolCall> calls) {
    this(turnId, calls, null);
  }

  /** This turn in the trace {@code traceparent} names; a malformed one is ignored, as W3C Trace Context asks. */
  public Turn withTraceparent(String traceparent) {
    return new Turn(turnId, calls, traceparent);
  }

  /**
   * The field of a journaled turn's spec that holds its {@link #traceparent()}; not part of the turn's identity.
   */
  public static final String TRACEPARENT = "traceparent";

  /**
   * {@code value} when it is a W3C {@code traceparent} of a version this runtime reads, with a trace
   * and a parent id that are not all zeros; else null.
   */
  public static String validTraceparent(String value) {
    if (value == null) {
      return null;
    }
    String v = value.trim();
    if (v.length() != 55 || !TRACEPARENT_FORM.matcher(v).matches() || v.startsWith("ff")
        || v.substring(3, 35).chars().allMatch(c -> c == '0') || v.substring(36, 52).chars().allMatch(c -> c == '0')) {
      return null;
    }
    return v;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Turn t && turnId.equals(t.turnId) && calls.equals(t.calls);
  }

  @Override
  public int hashCode() {
    return Objects.hash(turnId, calls);
  }

  /**
   * The field of a journaled turn's spec (and its {@code turn.submitted} event) that names the
   * version of the agent's catalogue the turn was validated against; not part of the turn's identity.
   */
  public static final String CATALOGUE = "catalogue";

  /** The catalogue version a journaled turn's spec records, or null. */
  public static String catalogueOf(JsonObject spec) {
    return stringOf(spec, CATALOGUE);
  }

  /**
   * The field of a journaled turn's spec that names the event-bus address its results go to, so
   * that whichever node completes the turn answers it (docs/EVENT-BUS.md); not part of the turn's identity.
   */
  public static final String REPLY_ADDRESS = "replyAddress";

  /** The reply address a journaled turn's spec records, or null. */
  public static String replyAddressOf(JsonObject spec) {
    return stringOf(spec, REPLY_ADDRESS);
  }

  private static String stringOf(JsonObject spec, String field) {
    Object v = spec == null ? null : spec.getValue(field);
    return v instanceof String ? (String) v : null;
  }

  public static Turn of(String turnId, ToolCall... calls) {
    return new Turn(turnId, List.of(calls));
  }

  public CallId callId(String sessionId, int index) {
    return CallId.of(sessionId, turnId, index);
  }

  public JsonObject toJson() {
    JsonArray array = new JsonArray();
    calls.forEach(c -> array.add(c.toJson()));
    return new JsonObject().put("turnId", turnId).put("calls", array);
  }

  /** Parses a turn, refusing malformed input with a message that names the field. */
  public static Turn fromJson(JsonObject json) {
    if (json == null) {
      throw new IllegalArgumentException("a turn is required");
    }
    Object turnId = json.getValue("turnId");
    if (!(turnId instanceof String) || ((String) turnId).isBlank()) {
      throw new IllegalArgumentException("'turnId' must be a non-empty string");
    }
    if (((String) turnId).length() > 200) {
      throw new IllegalArgumentException("'turnId' is longer than 200 characters");
    }
    Object calls = json.getValue("calls");
    if (!(calls instanceof JsonArray)) {
      throw new IllegalArgumentException("'calls' must be an array of {name, arguments}");
    }
    List<ToolCall> list = new ArrayList<>();
    int i = 0;
    for (Object o : (JsonArray) calls) {
      if (!(o instanceof JsonObject)) {
        throw new IllegalArgumentException("'calls[" + i + "]' must be an object");
      }
      try {
        list.add(ToolCall.fromJson((JsonObject) o));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("'calls[" + i + "]': " + e.getMessage());
      }
      i++;
    }
    Object traceparent = json.getValue(TRACEPARENT);
    return new Turn((String) turnId, list, traceparent instanceof String ? (String) traceparent : null);
  }

  /** {@link #toJson()} with the turn's {@link #traceparent()}, for a turn handed to another member. */
  public JsonObject toJsonWithTrace() {
    JsonObject json = toJson();
    if (traceparent != null) {
      json.put(TRACEPARENT, traceparent);
    }
    return json;
  }
}
