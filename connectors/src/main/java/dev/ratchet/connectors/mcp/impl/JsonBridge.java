package dev.ratchet.connectors.mcp.impl;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Moves JSON between Vert.x types and the plain maps the MCP SDK (Jackson 3) works with. */
public final class JsonBridge {

  private JsonBridge() {
  }

  public static Map<String, Object> toMap(JsonObject json) {
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) toPlain(json == null ? new JsonObject() : json);
    return map;
  }

  private static Object toPlain(Object value) {
    if (value instanceof JsonObject o) {
      Map<String, Object> map = new LinkedHashMap<>();
      o.forEach(e -> map.put(e.getKey(), toPlain(e.getValue())));
      return map;
    }
    if (value instanceof JsonArray a) {
      List<Object> list = new ArrayList<>();
      a.forEach(item -> list.add(toPlain(item)));
      return list;
    }
    if (value instanceof Map<?, ?> m) {
      return toPlain(new JsonObject(castMap(m)));
    }
    if (value instanceof List<?> l) {
      return toPlain(new JsonArray(new ArrayList<>(l)));
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }

  /** Encodes any SDK object with the SDK's own mapper and reads it back as Vert.x JSON. */
  public static Object toVertx(Object sdkValue) {
    if (sdkValue == null) {
      return null;
    }
    try {
      return Json.decodeValue(McpJsonDefaults.getMapper().writeValueAsString(sdkValue));
    } catch (IOException e) {
      throw new IllegalStateException("could not encode an MCP value as JSON", e);
    }
  }

  /**
   * One content part of a tool result with its {@code type} first. Encoding a list of parts as a plain
   * list leaves out the type, which the SDK keeps in a type id rather than a field.
   */
  public static JsonObject contentPart(McpSchema.Content part) {
    JsonObject json = new JsonObject().put("type", part.type());
    toJsonObject(part).forEach(e -> json.put(e.getKey(), e.getValue()));
    return json;
  }

  public static JsonObject toJsonObject(Object sdkValue) {
    Object v = toVertx(sdkValue);
    return v instanceof JsonObject o ? o : new JsonObject();
  }
}
