package dev.ratchet.runtime.journal;

/**
 * An error reply of Redis to one request on the journal's own connection ({@link RespConnection}):
 * its message is what Redis answered ({@code NOSCRIPT ...}, {@code FENCED ...}), which the journal
 * reads as it reads the Redis client's error replies.
 */
final class RespError extends RuntimeException {

  RespError(String message) {
    // the reply says what failed; a stack trace would only say where the connection read it
    super(message, null, false, false);
  }
}
