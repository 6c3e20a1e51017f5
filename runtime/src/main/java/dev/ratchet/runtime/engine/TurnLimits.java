package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * What a turn must keep before anything of it is journaled: a valid turn id, at most
 * {@link EngineOptions#maxCallsPerTurn()} calls, each call's arguments at most
 * {@link EngineOptions#maxArgumentsBytes()} bytes of JSON, and model call ids and tool names that
 * are ids and not text. A turn over any of them is refused whole, so one hostile request can
 * neither fan out to a provider nor fill the journal; every entry point (Java, event bus, HTTP,
 * the agent loop) goes through the engine, which checks here.
 */
public final class TurnLimits {

  private TurnLimits() {
  }

  /** Null when the turn keeps every limit, else the error that refuses it. */
  public static RatchetException problem(Turn turn, EngineOptions options) {
    RatchetException id = Ids.problem("turnId", turn.turnId());
    if (id != null) {
      return id;
    }
    int calls = turn.calls().size();
    if (calls > options.maxCallsPerTurn()) {
      return new RatchetException(ErrorCode.TOO_MANY_CALLS, "the turn has " + calls + " calls; at most "
          + options.maxCallsPerTurn() + " are allowed in one turn (engine.maxCallsPerTurn)");
    }
    for (int i = 0; i < calls; i++) {
      ToolCall call = turn.calls().get(i);
      if (call.modelCallId() != null) {
        RatchetException bad = Ids.problem("calls[" + i + "].modelCallId", call.modelCallId());
        if (bad != null) {
          return bad;
        }
      }
      if (!plausibleName(call.name())) {
        // no tool has such a name (tool names are ids), and echoing it in "unknown tool" would carry it on
        return new RatchetException(ErrorCode.INVALID_ID, "'calls[" + i + "].name' is longer than " + Ids.MAX_LENGTH
            + " characters or holds control characters; no tool has such a name");
      }
      if (!call.arguments().isEmpty() || call.rawArguments() != null) {
        long bytes = call.rawArguments() != null
            ? call.rawArguments().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
            : jsonBytes(call.arguments(), options.maxArgumentsBytes());
        if (bytes > options.maxArgumentsBytes()) {
          return new RatchetException(ErrorCode.ARGUMENTS_TOO_LARGE, "call #" + i + " ('" + call.name() + "'): its arguments are "
              + bytes + " bytes of JSON; at most " + options.maxArgumentsBytes()
              + " are allowed per call (engine.maxArgumentsBytes)");
        }
      }
    }
    return null;
  }

  /**
   * The UTF-8 bytes of the value's JSON, or 0 when a bound from a walk of the value (six bytes a
   * character at worst, an escape) already keeps it under the limit: the arguments of an ordinary
   * call are never encoded here.
   */
  private static long jsonBytes(Object value, int limit) {
    if (upperBound(value) <= limit) {
      return 0;
    }
    String json = Json.encode(value);
    return (long) json.length() * 3 <= limit ? json.length() : json.getBytes(StandardCharsets.UTF_8).length;
  }

  /** At least as many bytes as the value's JSON takes; {@code Long.MAX_VALUE} for a value it cannot bound. */
  private static long upperBound(Object value) {
    if (value == null || value instanceof Boolean) {
      return 5;
    }
    if (value instanceof String) {
      return 6L * ((String) value).length() + 2;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Double || value instanceof Float
        || value instanceof Short || value instanceof Byte) {
      return 32;
    }
    if (value instanceof JsonObject) {
      value = ((JsonObject) value).getMap();
    } else if (value instanceof JsonArray) {
      value = ((JsonArray) value).getList();
    }
    long total = 2;
    if (value instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        total += 6L * String.valueOf(e.getKey()).length() + 4 + upperBound(e.getValue());
        if (total < 0 || total == Long.MAX_VALUE) {
          return Long.MAX_VALUE;
        }
      }
      return total;
    }
    if (value instanceof List) {
      for (Object o : (List<?>) value) {
        total += upperBound(o) + 1;
        if (total < 0 || total == Long.MAX_VALUE) {
          return Long.MAX_VALUE;
        }
      }
      return total;
    }
    // big numbers, instants, binary: rare, and measured by encoding them
    return Long.MAX_VALUE;
  }

  private static boolean plausibleName(String name) {
    if (name.length() > Ids.MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c >= 0x7f && c <= 0x9f) {
        return false;
      }
    }
    return true;
  }
}
