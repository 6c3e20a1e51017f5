package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import io.vertx.core.json.Json;

import java.nio.charset.StandardCharsets;

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
      return new RatchetException("TOO_MANY_CALLS", "the turn has " + calls + " calls; at most "
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
        return new RatchetException("INVALID_ID", "'calls[" + i + "].name' is longer than " + Ids.MAX_LENGTH
            + " characters or holds control characters; no tool has such a name");
      }
      if (!call.arguments().isEmpty()) {
        long bytes = jsonBytes(call.arguments(), options.maxArgumentsBytes());
        if (bytes > options.maxArgumentsBytes()) {
          return new RatchetException("ARGUMENTS_TOO_LARGE", "call #" + i + " ('" + call.name() + "'): its arguments are "
              + bytes + " bytes of JSON; at most " + options.maxArgumentsBytes()
              + " are allowed per call (engine.maxArgumentsBytes)");
        }
      }
    }
    return null;
  }

  /** Throws the error of {@link #problem} when the turn breaks a limit. */
  public static void check(Turn turn, EngineOptions options) {
    RatchetException problem = problem(turn, options);
    if (problem != null) {
      throw problem;
    }
  }

  /** The UTF-8 bytes of the value's JSON; counted only when its characters alone do not settle the limit. */
  private static long jsonBytes(Object value, int limit) {
    String json = Json.encode(value);
    return (long) json.length() * 3 <= limit ? json.length() : json.getBytes(StandardCharsets.UTF_8).length;
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
