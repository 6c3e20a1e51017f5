package dev.ratchet.runtime.journal;

import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The replies {@link RespReader} decodes, as the Redis client's {@link Response} so that the
 * journal reads a reply the same whichever connection carried it. A nil reply is {@code null}, as
 * the client gives it.
 */
final class RespReply {

  private RespReply() {
  }

  /** An integer. */
  record Number(long value) implements Response {
    @Override
    public ResponseType type() {
      return ResponseType.NUMBER;
    }

    @Override
    public java.lang.Number toNumber() {
      return value;
    }

    @Override
    public Long toLong() {
      return value;
    }

    @Override
    public Integer toInteger() {
      return (int) value;
    }

    @Override
    public Boolean toBoolean() {
      return value == 1;
    }

    @Override
    public String toString() {
      return Long.toString(value);
    }
  }

  /**
   * A bulk string, a simple string ({@code +OK}) or an error inside an array (a top-level error
   * fails its request instead: {@link RespError}): bytes, read as UTF-8 text when asked for a string.
   */
  static final class Text implements Response {
    private final ResponseType type;
    private final byte[] bytes;

    Text(ResponseType type, byte[] bytes) {
      this.type = type;
      this.bytes = bytes;
    }

    @Override
    public ResponseType type() {
      return type;
    }

    @Override
    public String toString() {
      return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public String toString(Charset charset) {
      return new String(bytes, charset);
    }

    @Override
    public Buffer toBuffer() {
      return Buffer.buffer(bytes);
    }

    @Override
    public byte[] toBytes() {
      return bytes;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Text t && type == t.type && Arrays.equals(bytes, t.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }

  /** An array; its nil elements are {@code null}. */
  static final class Multi implements Response {
    private final Response[] items;

    Multi(Response[] items) {
      this.items = items;
    }

    @Override
    public ResponseType type() {
      return ResponseType.MULTI;
    }

    @Override
    public Response get(int index) {
      return items[index];
    }

    @Override
    public int size() {
      return items.length;
    }

    @Override
    public boolean isArray() {
      return true;
    }

    @Override
    public boolean isMap() {
      return false;
    }

    /** As the client reads an array of RESP2 (a hash's {@code HGETALL}): its even elements are keys. */
    @Override
    public Set<String> getKeys() {
      pairs();
      Set<String> keys = new LinkedHashSet<>();
      for (int i = 0; i < items.length; i += 2) {
        if (items[i] != null && (items[i].type() == ResponseType.BULK || items[i].type() == ResponseType.SIMPLE)) {
          keys.add(items[i].toString());
        }
      }
      return keys;
    }

    @Override
    public Response get(String key) {
      pairs();
      for (int i = 0; i < items.length; i += 2) {
        if (items[i] != null && key.equals(items[i].toString())) {
          return items[i + 1];
        }
      }
      return null;
    }

    @Override
    public boolean containsKey(String key) {
      return getKeys().contains(key);
    }

    private void pairs() {
      if (items.length % 2 != 0) {
        throw new UnsupportedOperationException("an array of " + items.length + " elements is no list of pairs");
      }
    }

    @Override
    public Iterator<Response> iterator() {
      return Arrays.asList(items).iterator();
    }

    @Override
    public String toString() {
      return Arrays.toString(items);
    }
  }
}
