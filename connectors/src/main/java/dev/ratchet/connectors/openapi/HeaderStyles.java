package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Header parameters in the {@code simple} style ({@code 3,4,5}, an object as {@code a,1,b,2} or,
 * exploded, {@code a=1,b=2}) and cookie parameters in the {@code form} style, each cookie a
 * {@code name=value} pair of the {@code Cookie} header with its value percent-encoded. A header
 * value is sent as it is, except that octets a header cannot carry (controls, non-ASCII) are
 * percent-encoded, so a value can never start another header.
 */
final class HeaderStyles {

  private HeaderStyles() {
  }

  static String header(OpenApiParameter p, Object value) {
    UnaryOperator<String> enc = HeaderStyles::visible;
    if (p.mediaType() != null) {
      return enc.apply(StyleValues.content(p, value));
    }
    if (value instanceof JsonArray a) {
      return String.join(",", StyleValues.items(a, enc));
    }
    if (value instanceof JsonObject o) {
      return String.join(",", p.explode() ? StyleValues.pairs(o, enc, enc) : StyleValues.flat(o, enc, enc));
    }
    return enc.apply(UriEncoding.text(value));
  }

  /** The {@code name=value} pairs this cookie parameter adds to the {@code Cookie} header. */
  static List<String> cookies(OpenApiParameter p, Object value) {
    UnaryOperator<String> enc = UriEncoding::encode;
    String name = enc.apply(p.name());
    List<String> out = new ArrayList<>();
    if (p.mediaType() != null) {
      out.add(name + "=" + enc.apply(StyleValues.content(p, value)));
    } else {
      QueryStyles.form(name, value, p.explode(), enc, enc, out);
    }
    return out;
  }

  private static String visible(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 0x20 && c < 0x7f) {
        out.append((char) c);
      } else {
        out.append('%').append(String.format("%02X", c));
      }
    }
    return out.toString();
  }
}
