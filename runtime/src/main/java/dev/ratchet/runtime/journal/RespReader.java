package dev.ratchet.runtime.journal;

import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

import java.nio.charset.StandardCharsets;

/**
 * Decodes the RESP2 replies of Redis as they arrive in pieces of any size: a reply split across
 * reads waits for its rest; several replies in one read are each handed on, in order. Simple
 * strings, errors, integers, bulk strings and arrays (nested up to {@value #MAX_DEPTH} deep), as
 * a connection that never asks for RESP3 receives them.
 *
 * <p>Why it first measures a reply without decoding it: a large reply (a session's history)
 * arrives in many reads, and is decoded once, when it is whole.
 */
final class RespReader {

  /** Deepest nesting of arrays read; the journal's replies nest two deep. */
  static final int MAX_DEPTH = 32;

  /** Where the decoded replies go, in the order Redis sent them. */
  interface Replies {
    void reply(Response reply);

    /** A top-level error reply: Redis refused the request. */
    void error(String message);
  }

  /** Bytes of an incomplete reply kept from earlier reads; null when none. */
  private Buffer rest;
  /** Position in the buffer being decoded. */
  private int at;

  /**
   * Decodes what {@code chunk} completes.
   *
   * @throws IllegalStateException when the bytes are not RESP2: the connection can no longer tell
   *     which reply answers which request
   */
  void read(Buffer chunk, Replies replies) {
    Buffer buf;
    if (rest == null) {
      buf = chunk;
    } else {
      buf = rest.appendBuffer(chunk);
    }
    int start = 0;
    int length = buf.length();
    while (start < length) {
      int end = measure(buf, start, 0);
      if (end < 0) {
        break;
      }
      at = start;
      if (buf.getByte(start) == '-') {
        replies.error(line(buf));
      } else {
        replies.reply(value(buf, 0));
      }
      start = end;
    }
    // what is left is the start of a reply: kept in a buffer of this reader's own, which the next reads extend
    rest = start == length ? null : buf == rest && start == 0 ? rest : Buffer.buffer().appendBuffer(buf, start, length - start);
  }

  /** Whether bytes of an incomplete reply are waiting for the rest. */
  boolean partial() {
    return rest != null;
  }

  /** Where the reply at {@code from} ends, or -1 when it has not all arrived. */
  private static int measure(Buffer buf, int from, int depth) {
    int length = buf.length();
    if (from >= length) {
      return -1;
    }
    byte type = buf.getByte(from);
    int eol = lineEnd(buf, from + 1);
    if (eol < 0) {
      return -1;
    }
    switch (type) {
      case '+', '-', ':':
        return eol + 2;
      case '$': {
        long n = number(buf, from + 1, eol);
        if (n < 0) {
          return eol + 2;
        }
        long end = eol + 2 + n + 2;
        if (end > length) {
          return -1;
        }
        return (int) end;
      }
      case '*': {
        if (depth >= MAX_DEPTH) {
          throw new IllegalStateException("Redis sent arrays nested deeper than " + MAX_DEPTH);
        }
        long n = number(buf, from + 1, eol);
        int next = eol + 2;
        for (long i = 0; i < n; i++) {
          next = measure(buf, next, depth + 1);
          if (next < 0) {
            return -1;
          }
        }
        return next;
      }
      default:
        throw new IllegalStateException("Redis sent a reply of a type this connection does not read (byte 0x"
            + Integer.toHexString(type & 0xff) + ")");
    }
  }

  /** Decodes the whole reply at {@link #at}, moving past it. */
  private Response value(Buffer buf, int depth) {
    byte type = buf.getByte(at);
    switch (type) {
      case '+':
        return new RespReply.Text(ResponseType.SIMPLE, lineBytes(buf));
      case '-':
        return new RespReply.Text(ResponseType.ERROR, lineBytes(buf));
      case ':': {
        int eol = lineEnd(buf, at + 1);
        long n = number(buf, at + 1, eol);
        at = eol + 2;
        return new RespReply.Number(n);
      }
      case '$': {
        int eol = lineEnd(buf, at + 1);
        int n = (int) number(buf, at + 1, eol);
        at = eol + 2;
        if (n < 0) {
          return null;
        }
        byte[] bytes = buf.getBytes(at, at + n);
        at += n + 2;
        return new RespReply.Text(ResponseType.BULK, bytes);
      }
      default: {
        int eol = lineEnd(buf, at + 1);
        int n = (int) number(buf, at + 1, eol);
        at = eol + 2;
        if (n < 0) {
          return null;
        }
        Response[] items = new Response[n];
        for (int i = 0; i < n; i++) {
          items[i] = value(buf, depth + 1);
        }
        return new RespReply.Multi(items);
      }
    }
  }

  /** The text of the line after the type byte at {@link #at}, moving past it. */
  private String line(Buffer buf) {
    int eol = lineEnd(buf, at + 1);
    String text = buf.getString(at + 1, eol, StandardCharsets.UTF_8.name());
    at = eol + 2;
    return text;
  }

  /** The bytes of the line after the type byte at {@link #at}, moving past it. */
  private byte[] lineBytes(Buffer buf) {
    int eol = lineEnd(buf, at + 1);
    byte[] bytes = buf.getBytes(at + 1, eol);
    at = eol + 2;
    return bytes;
  }

  /** The index of the {@code \r} of the first CRLF from {@code from}, or -1 when it has not arrived. */
  private static int lineEnd(Buffer buf, int from) {
    for (int i = from, last = buf.length() - 1; i < last; i++) {
      if (buf.getByte(i) == '\r' && buf.getByte(i + 1) == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static long number(Buffer buf, int from, int to) {
    if (from == to) {
      throw new IllegalStateException("Redis sent a reply with an empty length or integer");
    }
    boolean negative = buf.getByte(from) == '-';
    long n = 0;
    for (int i = negative ? from + 1 : from; i < to; i++) {
      byte b = buf.getByte(i);
      if (b < '0' || b > '9') {
        throw new IllegalStateException("Redis sent a reply with a malformed length or integer");
      }
      n = n * 10 + (b - '0');
    }
    return negative ? -n : n;
  }
}
