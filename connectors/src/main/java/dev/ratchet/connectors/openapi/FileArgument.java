package dev.ratchet.connectors.openapi;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * A file part of a multipart body as the model gives it: {@code {"base64": "...", "filename":
 * "a.png", "contentType": "image/png"}}, or {@code {"url": "https://..."}} for a file Ratchet
 * downloads first. A URL is fetched only from a host the connection lists in
 * {@code config.fileUrlHosts}, so a model cannot make Ratchet read internal addresses and send
 * what it finds; a download that fails or passes {@link #MAX_BYTES} fails the call before
 * anything is sent to the API.
 */
final class FileArgument {

  static final int MAX_BYTES = 25 * 1024 * 1024;

  /** The bytes of a file with the name and type its part is sent with. */
  record FilePart(String filename, String contentType, Buffer bytes) {
  }

  private FileArgument() {
  }

  /** The schema offered in place of a file property: the original description, and the two ways to give a file. */
  static JsonObject schema(JsonObject original) {
    String documented = original.getString("description");
    String how = "A file: 'base64' (its bytes, base64-encoded) or 'url' (an http(s) URL that is downloaded and sent);"
        + " 'filename' and 'contentType' are optional.";
    return new JsonObject().put("type", "object")
        .put("description", documented == null || documented.isBlank() ? how : documented + " " + how)
        .put("properties", new JsonObject()
            .put("base64", new JsonObject().put("type", "string").put("contentEncoding", "base64"))
            .put("url", new JsonObject().put("type", "string").put("format", "uri"))
            .put("filename", new JsonObject().put("type", "string"))
            .put("contentType", new JsonObject().put("type", "string")))
        .put("oneOf", new JsonArray().add(new JsonObject().put("required", new JsonArray().add("base64")))
            .add(new JsonObject().put("required", new JsonArray().add("url"))))
        .put("additionalProperties", false);
  }

  /** The file {@code value} names, read from its base64 text or downloaded. */
  static Future<FilePart> load(String property, Object value, String defaultType, HttpClient client,
                               List<String> allowedHosts, long timeoutMillis) {
    if (!(value instanceof JsonObject file)) {
      return Future.failedFuture(new IllegalArgumentException("file '" + property
          + "' must be an object with 'base64' or 'url'"));
    }
    String filename = file.getValue("filename") instanceof String f && !f.isBlank() ? f : property;
    String type = file.getValue("contentType") instanceof String t && !t.isBlank() ? t : defaultType;
    if (file.getValue("base64") instanceof String b64) {
      try {
        return Future.succeededFuture(new FilePart(filename, type, Buffer.buffer(Base64.getMimeDecoder()
            .decode(b64))));
      } catch (IllegalArgumentException e) {
        return Future.failedFuture(new IllegalArgumentException("file '" + property + "': 'base64' is not base64 ("
            + e.getMessage() + ")"));
      }
    }
    if (!(file.getValue("url") instanceof String url)) {
      return Future.failedFuture(new IllegalArgumentException("file '" + property
          + "' must have 'base64' or 'url'"));
    }
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(new IllegalArgumentException("file '" + property + "': 'url' is not a URL"));
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    String hostPort = uri.getPort() < 0 ? host : host + ":" + uri.getPort();
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return Future.failedFuture(new IllegalArgumentException("file '" + property + "': only http and https URLs"
          + " are downloaded"));
    }
    if (!allowedHosts.contains(host) && !allowedHosts.contains(hostPort)) {
      return Future.failedFuture(new IllegalArgumentException("file '" + property + "': host '" + hostPort
          + "' is not in the connection's config.fileUrlHosts; give the file as base64 or allow the host"));
    }
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url)
        .setFollowRedirects(false).setConnectTimeout(timeoutMillis).setIdleTimeout(timeoutMillis);
    return client.request(options).compose(req -> Exchange.send(req, null, resp -> {
      if (resp.statusCode() / 100 != 2) {
        return Future.failedFuture(new IllegalArgumentException("file '" + property + "': downloading it answered HTTP "
            + resp.statusCode()));
      }
      String length = resp.getHeader("Content-Length");
      if (length != null && length.matches("\\d+") && Long.parseLong(length) > MAX_BYTES) {
        resp.request().reset();
        return Future.failedFuture(tooLarge(property));
      }
      String served = resp.getHeader("Content-Type");
      return resp.body().compose(bytes -> bytes.length() > MAX_BYTES ? Future.failedFuture(tooLarge(property))
          : Future.succeededFuture(new FilePart(filename, file.getValue("contentType") instanceof String t
          && !t.isBlank() ? t : served != null ? served : defaultType, bytes)));
    })).recover(e -> Future.failedFuture(e instanceof IllegalArgumentException ? e
        : new IllegalArgumentException("file '" + property + "': downloading " + hostPort + " failed ("
        + e.getClass().getSimpleName() + ")")));
  }

  private static IllegalArgumentException tooLarge(String property) {
    return new IllegalArgumentException("file '" + property + "' is over " + MAX_BYTES / (1024 * 1024) + " MB");
  }
}
