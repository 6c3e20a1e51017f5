package dev.ratchet.connectors.openapi;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.ratchet.connectors.openapi.BodyWriter.concrete;
import static dev.ratchet.connectors.openapi.BodyWriter.withCharset;

/** A multipart/form-data body: one part per property, files as file parts, arrays as one part per item. */
final class MultipartBody {

  private MultipartBody() {
  }

  static Future<BodyWriter.Encoded> write(RequestBodySpec spec, Object value, HttpClient client,
                                          List<String> fileHosts, long timeoutMillis) {
    if (!(value instanceof JsonObject object)) {
      return Future.failedFuture(new IllegalArgumentException("the body of " + spec.mediaType()
          + " must be an object"));
    }
    List<Future<Buffer>> parts = new ArrayList<>();
    for (String name : object.fieldNames()) {
      Object v = object.getValue(name);
      if (v == null) {
        continue;
      }
      JsonObject enc = spec.encoding().getValue(name) instanceof JsonObject e ? e : new JsonObject();
      String declared = enc.getValue("contentType") instanceof String ct ? ct.split(",")[0].trim() : null;
      List<Object> items = new ArrayList<>();
      if (v instanceof JsonArray a && (spec.files().contains(name) || primitives(a))) {
        a.forEach(items::add);
      } else {
        items.add(v);
      }
      for (Object one : items) {
        if (spec.files().contains(name)) {
          parts.add(FileArgument.load(name, one, concrete(declared == null ? "application/octet-stream" : declared),
              client, fileHosts, timeoutMillis).map(f -> part(name, f.filename(), f.contentType(), f.bytes())));
        } else {
          boolean json = one instanceof JsonObject || one instanceof JsonArray
              || declared != null && declared.contains("json");
          String type = json ? (declared != null && declared.contains("json") ? declared : "application/json")
              : withCharset(declared == null ? "text/plain" : declared);
          String text = json ? Json.encode(one) : UriEncoding.text(one);
          parts.add(Future.succeededFuture(part(name, null, type, Buffer.buffer(text, "UTF-8"))));
        }
      }
    }
    String boundary = "ratchet-" + UUID.randomUUID().toString().replace("-", "");
    return Future.all(parts).map(all -> {
      Buffer body = Buffer.buffer();
      for (int i = 0; i < all.size(); i++) {
        body.appendString("--" + boundary + "\r\n").appendBuffer(all.resultAt(i)).appendString("\r\n");
      }
      body.appendString("--" + boundary + "--\r\n");
      return new BodyWriter.Encoded("multipart/form-data; boundary=" + boundary, body);
    });
  }

  private static boolean primitives(JsonArray array) {
    return array.stream().noneMatch(i -> i instanceof JsonObject || i instanceof JsonArray);
  }

  private static Buffer part(String name, String filename, String contentType, Buffer bytes) {
    StringBuilder head = new StringBuilder("Content-Disposition: form-data; name=\"").append(quoted(name))
        .append('"');
    if (filename != null) {
      head.append("; filename=\"").append(quoted(filename)).append('"');
    }
    head.append("\r\nContent-Type: ").append(contentType.replaceAll("[\r\n]", "")).append("\r\n\r\n");
    return Buffer.buffer(head.toString(), "UTF-8").appendBuffer(bytes);
  }

  // as HTML's form submission escapes names: a quote or a line break cannot end the header early
  private static String quoted(String text) {
    return text.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A");
  }
}
