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
 * file, overlaid by environment variables ({@code RATCHET_REDIS_URL}, {@code RATCHET_REDIS_TYPE},
 * {@code RATCHET_REDIS_ENDPOINTS}, {@code RATCHET_REDIS_PORT},
 * {@code RATCHET_HTTP_PORT}, {@code RATCHET_NODE_ID}, {@code RATCHET_DATA_DIR}, {@code RATCHET_MODEL},
 * {@code RATCHET_MODEL_BASE_URL}, {@code RATCHET_MAX_TURNS}, {@code RATCHET_CLUSTER_MEMBERS},
 * {@code RATCHET_CLUSTER_PORT}, {@code RATCHET_CLUSTER_HOST}, {@code RATCHET_CLUSTER_KEYSTORE_PASSWORD},
 * {@code RATCHET_CLUSTER_TRUSTSTORE_PASSWORD}).
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
    String type = env.get("RATCHET_REDIS_TYPE");
    if (type != null && !type.isBlank()) {
      config.getJsonObject("redis").put("type", type.trim());
    }
    String endpoints = env.get("RATCHET_REDIS_ENDPOINTS");
    if (endpoints != null && !endpoints.isBlank()) {
      // comma separated, as RedisTopology reads a string
      config.getJsonObject("redis").put("endpoints", endpoints.trim());
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
    JsonObject cluster = config.getJsonObject("cluster");
    if (cluster == null) {
      cluster = new JsonObject();
      config.put("cluster", cluster);
    }
    String clusterMembers = env.get("RATCHET_CLUSTER_MEMBERS");
    if (clusterMembers != null && !clusterMembers.isBlank()) {
      cluster.put("members", new io.vertx.core.json.JsonArray(java.util.Arrays.stream(clusterMembers.split(","))
          .map(String::trim).filter(m -> !m.isEmpty()).toList()));
    }
    String clusterPort = env.get("RATCHET_CLUSTER_PORT");
    if (clusterPort != null && !clusterPort.isBlank()) {
      cluster.put("port", number("RATCHET_CLUSTER_PORT", clusterPort));
    }
    String clusterHost = env.get("RATCHET_CLUSTER_HOST");
    if (clusterHost != null && !clusterHost.isBlank()) {
      cluster.put("host", clusterHost.trim());
    }
    // the event bus's TLS passwords from the environment, kept out of the configuration file
    for (String[] secret : new String[][] {{"RATCHET_CLUSTER_KEYSTORE_PASSWORD", "keyStorePassword"},
        {"RATCHET_CLUSTER_TRUSTSTORE_PASSWORD", "trustStorePassword"}}) {
      String value = env.get(secret[0]);
      if (value != null && !value.isEmpty()) {
        JsonObject tls = cluster.getJsonObject("tls");
        if (tls == null) {
          tls = new JsonObject();
          cluster.put("tls", tls);
        }
        tls.put(secret[1], value);
      }
    }
    String redisPort = env.get("RATCHET_REDIS_PORT");
    if (redisPort != null && !redisPort.isBlank()) {
      config.getJsonObject("redis").getJsonObject("embedded").put("port", number("RATCHET_REDIS_PORT", redisPort));
    }
    JsonObject agent = config.getJsonObject("agent");
    if (agent == null) {
      agent = new JsonObject();
      config.put("agent", agent);
    }
    String model = env.get("RATCHET_MODEL");
    if (model != null && !model.isBlank()) {
      agent.put("model", model.trim());
    }
    String baseUrl = env.get("RATCHET_MODEL_BASE_URL");
    if (baseUrl != null && !baseUrl.isBlank()) {
      agent.put("modelBaseUrl", baseUrl.trim());
    }
    String maxTurns = env.get("RATCHET_MAX_TURNS");
    if (maxTurns != null && !maxTurns.isBlank()) {
      agent.put("maxTurns", number("RATCHET_MAX_TURNS", maxTurns));
    }
    String dataDir = env.get("RATCHET_DATA_DIR");
    if (dataDir != null && !dataDir.isBlank()) {
      config.getJsonObject("redis").getJsonObject("embedded").put("dataDir", dataDir + "/redis");
    }
    return config;
  }

  private static int number(String variable, String value) throws IOException {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IOException(variable + " must be a number, got '" + value + "'");
    }
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
