package dev.ratchet.connectors.openapi;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The pieces a serialization style joins: an array's items or an object's names and values, each
 * as text passed through an encoder. A parameter described by {@code content} is one value, the
 * text of its media type (JSON for JSON types).
 */
final class StyleValues {

  private StyleValues() {
  }

  /** The parameter's value as its media type writes it; only for parameters described by {@code content}. */
  static String content(OpenApiParameter p, Object value) {
    boolean json = p.mediaType().equals("application/json") || p.mediaType().endsWith("+json")
        || !(value instanceof String);
    return json ? Json.encode(value) : (String) value;
  }

  static List<String> items(JsonArray array, UnaryOperator<String> encode) {
    List<String> out = new ArrayList<>(array.size());
    array.forEach(v -> out.add(encode.apply(UriEncoding.text(v))));
    return out;
  }

  /** An object's names and values, alternating, for the non-exploded forms ({@code a,1,b,2}). */
  static List<String> flat(JsonObject object, UnaryOperator<String> encodeName, UnaryOperator<String> encodeValue) {
    List<String> out = new ArrayList<>(object.size() * 2);
    object.forEach(e -> {
      out.add(encodeName.apply(e.getKey()));
      out.add(encodeValue.apply(UriEncoding.text(e.getValue())));
    });
    return out;
  }

  /** An object's members as {@code name=value}, for the exploded forms. */
  static List<String> pairs(JsonObject object, UnaryOperator<String> encodeName, UnaryOperator<String> encodeValue) {
    List<String> out = new ArrayList<>(object.size());
    object.forEach(e -> out.add(encodeName.apply(e.getKey()) + "="
        + encodeValue.apply(UriEncoding.text(e.getValue()))));
    return out;
  }
}
