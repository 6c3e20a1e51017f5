package dev.ratchet.runtime.journal;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A command whose arguments are strings, numbers or bytes already encoded, written as RESP into
 * one array of its exact size ({@link #encode}), or given to the client as a {@link Request}.
 *
 * <p>Why: the client encodes a request into a buffer that grows from empty by doubling, so a
 * journal step's bytes are allocated about three times over and its strings once more as bytes;
 * written here, each byte is allocated once.
 */
final class RespRequest {

  private static final byte[] CRLF = {'\r', '\n'};

  private final Command command;
  private final byte[] name;
  private final Object[] args;
  private final boolean encodable;

  /**
   * @param args each a {@code String}, a {@code Long} (its decimal digits) or a {@code byte[]};
   *     any other type the client's own request encodes
   */
  RespRequest(Command command, String name, Object[] args) {
    this.command = command;
    // lower case, as the client writes command names
    this.name = name.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
    this.args = args;
    boolean all = true;
    for (Object arg : args) {
      all &= arg instanceof byte[] || arg instanceof String || arg instanceof Long;
    }
    this.encodable = all;
  }

  /** Whether {@link #encode} can write every argument; else only {@link #request} sends it. */
  boolean encodable() {
    return encodable;
  }

  /** The request as the client's own, for pipelines and for connections this journal does not write to itself. */
  Request request() {
    Object[] bytes = new Object[args.length];
    for (int i = 0; i < args.length; i++) {
      bytes[i] = bytes(args[i]);
    }
    return Request.cmd(command, bytes);
  }

  private static Object bytes(Object arg) {
    if (arg instanceof Long n) {
      return RequestBytes.digits(n);
    }
    if (arg instanceof String s) {
      return RequestBytes.utf8(s);
    }
    return arg;
  }

  /** The RESP array of the command's name and arguments, in a buffer of exactly its length. */
  Buffer encode() {
    // strings that are not ASCII are made bytes first: their encoded length is not their length
    for (int i = 0; i < args.length; i++) {
      if (args[i] instanceof String s && !ascii(s)) {
        args[i] = s.getBytes(StandardCharsets.UTF_8);
      }
    }
    int size = headerSize(args.length + 1) + bulkSize(name.length);
    for (Object arg : args) {
      size += bulkSize(length(arg));
    }
    byte[] out = new byte[size];
    int at = header(out, 0, '*', args.length + 1);
    at = bulk(out, at, name);
    for (Object arg : args) {
      if (arg instanceof byte[] b) {
        at = bulk(out, at, b);
      } else if (arg instanceof String s) {
        at = header(out, at, '$', s.length());
        for (int i = 0, n = s.length(); i < n; i++) {
          out[at++] = (byte) s.charAt(i);
        }
        at = crlf(out, at);
      } else {
        long n = (Long) arg;
        int len = digitCount(n);
        at = header(out, at, '$', len);
        at = digits(out, at, n, len);
        at = crlf(out, at);
      }
    }
    return BufferInternal.buffer(Unpooled.wrappedBuffer(out));
  }

  private static boolean ascii(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  private static int length(Object arg) {
    if (arg instanceof byte[] b) {
      return b.length;
    }
    if (arg instanceof String s) {
      return s.length();
    }
    return digitCount((Long) arg);
  }

  private static int headerSize(int n) {
    return 1 + digitCount(n) + 2;
  }

  private static int bulkSize(int len) {
    return headerSize(len) + len + 2;
  }

  private static int bulk(byte[] out, int at, byte[] b) {
    at = header(out, at, '$', b.length);
    System.arraycopy(b, 0, out, at, b.length);
    return crlf(out, at + b.length);
  }

  private static int header(byte[] out, int at, char kind, int n) {
    out[at++] = (byte) kind;
    int len = digitCount(n);
    return crlf(out, digits(out, at, n, len));
  }

  private static int crlf(byte[] out, int at) {
    out[at] = CRLF[0];
    out[at + 1] = CRLF[1];
    return at + 2;
  }

  /** Writes {@code n}'s {@code len} characters: its digits, after a minus sign when negative. */
  private static int digits(byte[] out, int at, long n, int len) {
    int end = at + len;
    if (n < 0) {
      out[at] = '-';
      // the last digit first, so that Long.MIN_VALUE is never negated
      for (int i = end - 1; i > at; i--, n /= 10) {
        out[i] = (byte) ('0' - n % 10);
      }
      return end;
    }
    for (int i = end - 1; i >= at; i--, n /= 10) {
      out[i] = (byte) ('0' + n % 10);
    }
    return end;
  }

  /** How many characters {@code n} takes in decimal, with its minus sign. */
  private static int digitCount(long n) {
    int len = n < 0 ? 2 : 1;
    for (long v = n; v >= 10 || v <= -10; v /= 10) {
      len++;
    }
    return len;
  }
}
