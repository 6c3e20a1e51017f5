package dev.ratchet.verticles;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The runtime's configuration: the defaults shipped in the jar, overlaid by a {@code ratchet.json}
 * file, overlaid by environment variables ({@code RATCHET_REDIS_URL}, {@code RATCHET_HTTP_PORT},
 * {@code RATCHET_NODE_ID}, {@code RATCHET_DATA_DIR}).
 */
public final class RatchetConfig {

  private RatchetConfig() {
  }

  public static JsonObject load(Path file, Map<String, String> env) throws IOException {
    JsonObject config = defaults();
    if (file != null && Files.exists(file)) {
      JsonObject fromFile;
      try {
        fromFile = new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        throw new IOException("configuration " + file + " is not valid JSON: " + e.getMessage());
      }
      config = merge(config, fromFile);
    }
    String redis = env.get("RATCHET_REDIS_URL");
    if (redis != null && !redis.isBlank()) {
      config.getJsonObject("redis").put("url", redis);
    }
    String port = env.get("RATCHET_HTTP_PORT");
    if (port != null && !port.isBlank()) {
      try {
        config.getJsonObject("http").put("port", Integer.parseInt(port.trim()));
      } catch (NumberFormatException e) {
        throw new IOException("RATCHET_HTTP_PORT must be a port number, got '" + port + "'");
      }
    }
    String node = env.get("RATCHET_NODE_ID");
    if (node != null && !node.isBlank()) {
      config.getJsonObject("node").put("id", node);
    }
    String dataDir = env.get("RATCHET_DATA_DIR");
    if (dataDir != null && !dataDir.isBlank()) {
      config.getJsonObject("redis").getJsonObject("embedded").put("dataDir", dataDir + "/redis");
    }
    return config;
  }

  public static JsonObject defaults() {
    try (InputStream in = RatchetConfig.class.getResourceAsStream("/ratchet.json")) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("ratchet.json defaults missing from the jar", e);
    }
  }

  static JsonObject merge(JsonObject base, JsonObject over) {
    JsonObject out = base.copy();
    for (Map.Entry<String, Object> e : over) {
      Object existing = out.getValue(e.getKey());
      if (existing instanceof JsonObject && e.getValue() instanceof JsonObject) {
        out.put(e.getKey(), merge((JsonObject) existing, (JsonObject) e.getValue()));
      } else {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }
}
