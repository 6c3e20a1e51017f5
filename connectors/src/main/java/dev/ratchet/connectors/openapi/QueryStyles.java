package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Query parameters as {@code name=value} pairs, already percent-encoded: {@code form} exploded
 * ({@code id=3&id=4}, an object as its own members {@code a=1&b=2}) or not ({@code id=3,4},
 * {@code id=a,1,b,2}); {@code spaceDelimited} ({@code id=3%204}) and {@code pipeDelimited}
 * ({@code id=3%7C4}) for arrays and objects, exploded like {@code form}; {@code deepObject}
 * ({@code id%5Ba%5D=1}, that is {@code id[a]=1}, nested objects nesting brackets, arrays repeating
 * the key).
 * {@code allowReserved} leaves reserved characters in values unencoded.
 */
final class QueryStyles {

  private QueryStyles() {
  }

  static List<String> pairs(OpenApiParameter p, Object value) {
    UnaryOperator<String> names = UriEncoding::encode;
    UnaryOperator<String> values = v -> UriEncoding.encode(v, p.allowReserved());
    String name = names.apply(p.name());
    if (p.mediaType() != null) {
      return List.of(name + "=" + values.apply(StyleValues.content(p, value)));
    }
    List<String> out = new ArrayList<>();
    switch (p.style()) {
      case "deepObject" -> {
        if (value instanceof JsonObject o) {
          deep(name, o, values, out);
        } else {
          form(name, value, true, names, values, out);
        }
      }
      case "spaceDelimited", "pipeDelimited" -> {
        String delimiter = p.style().equals("spaceDelimited") ? "%20" : "%7C";
        if (!p.explode() && value instanceof JsonArray a) {
          out.add(name + "=" + String.join(delimiter, StyleValues.items(a, values)));
        } else if (!p.explode() && value instanceof JsonObject o) {
          out.add(name + "=" + String.join(delimiter, StyleValues.flat(o, names, values)));
        } else {
          form(name, value, p.explode(), names, values, out);
        }
      }
      case "form" -> form(name, value, p.explode(), names, values, out);
      default -> throw new IllegalArgumentException("query parameter '" + p.name() + "' has style '" + p.style()
          + "', which OpenAPI does not define for queries");
    }
    return out;
  }

  static void form(String name, Object value, boolean explode, UnaryOperator<String> names,
                   UnaryOperator<String> values, List<String> out) {
    if (value instanceof JsonArray a) {
      if (explode) {
        StyleValues.items(a, values).forEach(i -> out.add(name + "=" + i));
      } else {
        out.add(name + "=" + String.join(",", StyleValues.items(a, values)));
      }
    } else if (value instanceof JsonObject o) {
      if (explode) {
        out.addAll(StyleValues.pairs(o, names, values));
      } else {
        out.add(name + "=" + String.join(",", StyleValues.flat(o, names, values)));
      }
    } else {
      out.add(name + "=" + values.apply(UriEncoding.text(value)));
    }
  }

  private static void deep(String prefix, JsonObject object, UnaryOperator<String> values, List<String> out) {
    object.forEach(e -> {
      // brackets are not allowed in a query (RFC 3986), so they travel percent-encoded as well
      String key = prefix + "%5B" + UriEncoding.encode(e.getKey()) + "%5D";
      if (e.getValue() instanceof JsonObject nested) {
        deep(key, nested, values, out);
      } else if (e.getValue() instanceof JsonArray a) {
        StyleValues.items(a, values).forEach(i -> out.add(key + "=" + i));
      } else {
        out.add(key + "=" + values.apply(UriEncoding.text(e.getValue())));
      }
    });
  }
}
