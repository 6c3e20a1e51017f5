package dev.ratchet.connectors.openapi;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Writes the argument {@code body} in the media type its {@link RequestBodySpec} names. Fails
 * with {@link IllegalArgumentException} when the argument cannot be written that way: nothing
 * is sent then.
 */
final class BodyWriter {

  /** A body ready to send. */
  record Encoded(String contentType, Buffer bytes) {
  }

  private BodyWriter() {
  }

  static Future<Encoded> write(RequestBodySpec spec, Object value, HttpClient client, List<String> fileHosts,
                               long timeoutMillis) {
    try {
      return switch (spec.kind()) {
        case JSON -> Future.succeededFuture(new Encoded(spec.mediaType(), Buffer.buffer(Json.encode(value))));
        case FORM -> Future.succeededFuture(new Encoded(spec.mediaType(), Buffer.buffer(form(spec, value),
            StandardCharsets.UTF_8.name())));
        case TEXT -> Future.succeededFuture(new Encoded(withCharset(spec.mediaType()),
            Buffer.buffer(UriEncoding.text(value), StandardCharsets.UTF_8.name())));
        case BINARY -> Future.succeededFuture(new Encoded(concrete(spec.mediaType()), binary(value)));
        case MULTIPART -> MultipartBody.write(spec, value, client, fileHosts, timeoutMillis);
      };
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
  }

  /** Each property as a query pair in the style its encoding object names (default: form, exploded). */
  private static String form(RequestBodySpec spec, Object value) {
    if (!(value instanceof JsonObject object)) {
      throw new IllegalArgumentException("the body of a form (" + spec.mediaType() + ") must be an object");
    }
    List<String> pairs = new ArrayList<>();
    for (String name : object.fieldNames()) {
      Object v = object.getValue(name);
      if (v == null) {
        continue;
      }
      JsonObject enc = spec.encoding().getValue(name) instanceof JsonObject e ? e : new JsonObject();
      String style = enc.getString("style", "form");
      boolean explode = enc.getValue("explode") instanceof Boolean b ? b : style.equals("form");
      String contentType = enc.getValue("contentType") instanceof String ct && ct.contains("json") ? ct : null;
      pairs.addAll(QueryStyles.pairs(new OpenApiParameter(name, "query", false, name, style, explode,
          Boolean.TRUE.equals(enc.getValue("allowReserved")), contentType), v));
    }
    return String.join("&", pairs);
  }

  private static Buffer binary(Object value) {
    if (!(value instanceof String text)) {
      throw new IllegalArgumentException("the body must be a base64 string");
    }
    try {
      return Buffer.buffer(Base64.getMimeDecoder().decode(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the body is not base64 (" + e.getMessage() + ")");
    }
  }

  static String withCharset(String mediaType) {
    return mediaType.toLowerCase(java.util.Locale.ROOT).contains("charset") ? concrete(mediaType)
        : concrete(mediaType) + "; charset=utf-8";
  }

  /** A media type a Content-Type header can carry: a range such as {@code image/*} is sent as plain bytes. */
  static String concrete(String mediaType) {
    return mediaType.contains("*") ? "application/octet-stream" : mediaType;
  }
}
