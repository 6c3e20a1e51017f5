package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.journal.JournalQueries;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * The tenant rule every session-scoped route applies: a principal reaches a session only when it
 * sees the session's caller ({@link Tenants}). A session it may not see answers exactly like one
 * that does not exist (404 {@code UNKNOWN_SESSION}, same message), so session ids, which clients
 * choose and may guess, cannot be probed. One read of the session's metadata per request.
 */
public final class SessionAccess {

  private final JournalQueries journal;

  public SessionAccess(JournalQueries journal) {
    this.journal = journal;
  }

  /** The one answer for a session that is missing or not the principal's. */
  public static RatchetException unknown(String sessionId) {
    return dev.ratchet.verticles.impl.EdgeRules.unknownSession(sessionId);
  }

  /**
   * The session's metadata ({@link JournalQueries#sessionInfo}) when it exists and the principal sees
   * it; else fails with {@link #unknown(String)}.
   */
  public Future<JsonObject> visible(Principal principal, String sessionId) {
    return journal.sessionInfo(sessionId).compose(info -> exists(info) && principal.tenants().sees(caller(info))
        ? Future.succeededFuture(info) : Future.failedFuture(unknown(sessionId)));
  }

  /**
   * For a request that may create the session (a turn, a message): succeeds when the session does
   * not exist yet or the principal sees it; a session of another caller fails with {@link #unknown}.
   */
  public Future<Void> mayUse(Principal principal, String sessionId) {
    return journal.sessionInfo(sessionId).compose(info -> !exists(info) || principal.tenants().sees(caller(info))
        ? Future.succeededFuture() : Future.failedFuture(unknown(sessionId)));
  }

  /**
   * What a refused submission or message becomes at the HTTP edge: the engine's
   * {@code CALLER_MISMATCH} (the session was created meanwhile, by another caller) is answered like
   * a missing session unless the principal sees the session, which then stays a 403.
   */
  public Future<Throwable> edgeError(Principal principal, String sessionId, Throwable err) {
    if (!RatchetException.is(err, ErrorCode.CALLER_MISMATCH)) {
      return Future.succeededFuture(err);
    }
    return visible(principal, sessionId).map(info -> err).otherwise(unknownErr -> unknown(sessionId));
  }

  /** A session exists once a turn or message created it, which records its agent. */
  static boolean exists(JsonObject info) {
    return info.getString("agent") != null;
  }

  static String caller(JsonObject info) {
    return info.getString("caller");
  }
}
