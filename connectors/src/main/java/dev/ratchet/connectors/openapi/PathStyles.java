package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Path parameters in the styles {@code simple} ({@code 3,4,5}), {@code label} ({@code .3.4.5})
 * and {@code matrix} ({@code ;id=3;id=4}), exploded or not, as RFC 6570's {@code {id}},
 * {@code {.id}} and {@code {;id}} expansions write them. Values are percent-encoded, a {@code /}
 * included, so a value never adds a path segment.
 */
final class PathStyles {

  private PathStyles() {
  }

  static String expand(OpenApiParameter p, Object value) {
    UnaryOperator<String> enc = UriEncoding::encode;
    String name = enc.apply(p.name());
    if (p.mediaType() != null) {
      return prefix(p.style(), name, enc.apply(StyleValues.content(p, value)));
    }
    boolean explode = p.explode();
    return switch (p.style()) {
      case "label" -> "." + String.join(explode ? "." : ",", parts(value, explode, enc));
      case "matrix" -> matrix(name, value, explode, enc);
      case "simple" -> String.join(",", parts(value, explode, enc));
      default -> throw new IllegalArgumentException("path parameter '" + p.name() + "' has style '" + p.style()
          + "', which OpenAPI does not define for paths");
    };
  }

  private static String prefix(String style, String name, String text) {
    return switch (style) {
      case "label" -> "." + text;
      case "matrix" -> ";" + name + "=" + text;
      default -> text;
    };
  }

  private static List<String> parts(Object value, boolean explode, UnaryOperator<String> enc) {
    if (value instanceof JsonArray a) {
      return StyleValues.items(a, enc);
    }
    if (value instanceof JsonObject o) {
      return explode ? StyleValues.pairs(o, enc, enc) : StyleValues.flat(o, enc, enc);
    }
    return List.of(enc.apply(UriEncoding.text(value)));
  }

  private static String matrix(String name, Object value, boolean explode, UnaryOperator<String> enc) {
    if (value instanceof JsonArray a && explode) {
      StringBuilder out = new StringBuilder();
      StyleValues.items(a, enc).forEach(i -> out.append(';').append(name).append('=').append(i));
      return a.isEmpty() ? ";" + name : out.toString();
    }
    if (value instanceof JsonObject o && explode) {
      StringBuilder out = new StringBuilder();
      StyleValues.pairs(o, enc, enc).forEach(pair -> out.append(';').append(pair));
      return out.toString();
    }
    String joined = String.join(",", parts(value, false, enc));
    return joined.isEmpty() ? ";" + name : ";" + name + "=" + joined;
  }
}
