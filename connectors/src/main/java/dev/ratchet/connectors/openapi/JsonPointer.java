package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A JSON Pointer (RFC 6901) as it appears in the fragment of a {@code $ref} (RFC 3986): percent
 * escapes are decoded first, then {@code ~1} and {@code ~0}; a segment over an array is an index.
 */
final class JsonPointer {

  /** What a pointer names; {@link #MISSING} when nothing. */
  static final Object MISSING = new Object();

  private JsonPointer() {
  }

  /** The value at {@code fragment} (the part after '#', possibly empty) of {@code root}, or {@link #MISSING}. */
  static Object evaluate(Object root, String fragment) {
    String pointer = decode(fragment);
    if (pointer.isEmpty()) {
      return root;
    }
    if (!pointer.startsWith("/")) {
      // a plain-name fragment names an anchor, which OpenAPI documents do not use for schemas
      return MISSING;
    }
    Object current = root;
    for (String raw : pointer.substring(1).split("/", -1)) {
      String token = raw.replace("~1", "/").replace("~0", "~");
      if (current instanceof JsonObject obj) {
        if (!obj.containsKey(token)) {
          return MISSING;
        }
        current = obj.getValue(token);
      } else if (current instanceof JsonArray arr && token.matches("0|[1-9][0-9]{0,8}")) {
        int index = Integer.parseInt(token);
        if (index >= arr.size()) {
          return MISSING;
        }
        current = arr.getValue(index);
      } else {
        return MISSING;
      }
    }
    return current;
  }

  /** The last token of a pointer, unescaped: what the value is called where it is defined. */
  static String lastToken(String fragment) {
    String pointer = decode(fragment);
    String last = pointer.substring(pointer.lastIndexOf('/') + 1);
    return last.replace("~1", "/").replace("~0", "~");
  }

  private static String decode(String fragment) {
    // '+' means itself in a URI fragment; URLDecoder would read it as a space
    return URLDecoder.decode(fragment.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
