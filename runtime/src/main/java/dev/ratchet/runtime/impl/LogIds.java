package dev.ratchet.runtime.impl;

import org.slf4j.Logger;
import org.slf4j.MDC;

import java.util.function.BiConsumer;

/**
 * The ids a log line about a session, a turn or a call carries (docs/OBSERVABILITY.md, "Log lines"):
 * as fields at the start of its message ({@code session=s-1 turn=t1 call=call_… trace=4bf9…}),
 * which every logging binding prints, and in the MDC under {@link #SESSION}, {@link #TURN},
 * {@link #CALL} and {@link #TRACE} for bindings that print MDC keys. The MDC holds them for the one
 * line only and is restored right after it, on whatever thread logs: an event loop runs many
 * sessions, and one session's ids must never appear on another's lines. Null ids are left out.
 */
public record LogIds(String sessionId, String turnId, String callId, String traceId) {

  public static final String SESSION = "ratchet.session.id";
  public static final String TURN = "ratchet.turn.id";
  public static final String CALL = "ratchet.call.id";
  /** The MDC key of OpenTelemetry's own log correlation. */
  public static final String TRACE = "trace_id";

  public static LogIds session(String sessionId) {
    return new LogIds(sessionId, null, null, null);
  }

  public static LogIds turn(String sessionId, String turnId) {
    return new LogIds(sessionId, turnId, null, null);
  }

  public void info(Logger log, String format, Object... args) {
    log(log.isInfoEnabled(), log::info, format, args);
  }

  public void warn(Logger log, String format, Object... args) {
    log(log.isWarnEnabled(), log::warn, format, args);
  }

  public void error(Logger log, String format, Object... args) {
    log(log.isErrorEnabled(), log::error, format, args);
  }

  public void debug(Logger log, String format, Object... args) {
    log(log.isDebugEnabled(), log::debug, format, args);
  }

  /** The fields, as they begin the message. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(96).append("session=").append(sessionId);
    if (turnId != null) {
      b.append(" turn=").append(turnId);
    }
    if (callId != null) {
      b.append(" call=").append(callId);
    }
    if (traceId != null) {
      b.append(" trace=").append(traceId);
    }
    return b.toString();
  }

  private void log(boolean enabled, BiConsumer<String, Object[]> level, String format, Object[] args) {
    if (!enabled) {
      return;
    }
    // a line logged while another is being logged (a binding that logs) gets its own ids back after
    String[] previous = {MDC.get(SESSION), MDC.get(TURN), MDC.get(CALL), MDC.get(TRACE)};
    set(SESSION, sessionId);
    set(TURN, turnId);
    set(CALL, callId);
    set(TRACE, traceId);
    try {
      // the ids go in as an argument: an id never counts as a placeholder of the format
      Object[] all = new Object[args.length + 1];
      all[0] = this;
      System.arraycopy(args, 0, all, 1, args.length);
      level.accept("{}: " + format, all);
    } finally {
      set(SESSION, previous[0]);
      set(TURN, previous[1]);
      set(CALL, previous[2]);
      set(TRACE, previous[3]);
    }
  }

  private static void set(String key, String value) {
    if (value == null) {
      MDC.remove(key);
    } else {
      MDC.put(key, value);
    }
  }
}
