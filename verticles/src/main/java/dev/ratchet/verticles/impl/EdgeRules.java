package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.journal.JournalQueries;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * The request rules the HTTP API and the event bus both apply, so that the two edges accept and
 * refuse the same requests with the same codes and messages.
 */
public final class EdgeRules {

  /** The longest rejection or approval reason kept with a decision. */
  public static final int MAX_REASON_LENGTH = 2000;

  private EdgeRules() {
  }

  /** A turn without calls would be journaled and answered with nothing done: it is refused instead. */
  public static void checkTurn(Turn turn) {
    if (turn.calls().isEmpty()) {
      throw new RatchetException(ErrorCode.INVALID_REQUEST, "'turn.calls' is empty; a turn needs at least one call");
    }
  }

  /** The decision's reason: optional for an approval, required for a rejection, since the model is told it. */
  public static String reason(Object reason, boolean approved) {
    if (reason != null && (!(reason instanceof String) || ((String) reason).length() > MAX_REASON_LENGTH)) {
      throw new RatchetException(ErrorCode.INVALID_REQUEST,
          "'reason' must be a string of at most " + MAX_REASON_LENGTH + " characters");
    }
    if (!approved && (reason == null || ((String) reason).isBlank())) {
      throw new RatchetException(ErrorCode.INVALID_REQUEST, "a rejection needs a 'reason'; the model is told it");
    }
    return (String) reason;
  }

  /** The session's metadata when it exists, else fails with 404 {@code UNKNOWN_SESSION}. */
  public static Future<JsonObject> existing(JournalQueries journal, String sessionId) {
    return journal.sessionInfo(sessionId).compose(info -> info.getString("agent") != null
        ? Future.succeededFuture(info) : Future.failedFuture(unknownSession(sessionId)));
  }

  /** The one answer for a session that is missing (or, on HTTP, not the caller's). */
  public static RatchetException unknownSession(String sessionId) {
    return new RatchetException(ErrorCode.UNKNOWN_SESSION, "no session '" + sessionId + "'");
  }
}
