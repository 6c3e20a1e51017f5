package dev.ratchet.connectors.provider.arcade.impl;

import dev.ratchet.connectors.provider.impl.EffectHints;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Reads Arcade tool definitions: JSON Schema from its parameter list, and behaviour hints. */
final class ArcadeSchemas {

  private ArcadeSchemas() {
  }

  static JsonObject inputSchema(JsonObject definition) {
    JsonObject properties = new JsonObject();
    JsonArray required = new JsonArray();
    JsonArray params = definition.getJsonObject("input", new JsonObject()).getJsonArray("parameters", new JsonArray());
    for (Object p : params) {
      if (!(p instanceof JsonObject param)) {
        continue;
      }
      JsonObject schema = valueSchema(param.getJsonObject("value_schema", new JsonObject()));
      if (param.getString("description") != null) {
        schema.put("description", param.getString("description"));
      }
      properties.put(param.getString("name"), schema);
      if (param.getBoolean("required", false)) {
        required.add(param.getString("name"));
      }
    }
    JsonObject schema = new JsonObject().put("type", "object").put("properties", properties);
    return required.isEmpty() ? schema : schema.put("required", required);
  }

  private static JsonObject valueSchema(JsonObject vs) {
    JsonObject schema = new JsonObject().put("type", jsonType(vs.getString("val_type", "string")));
    if ("array".equals(schema.getString("type")) && vs.getString("inner_val_type") != null) {
      schema.put("items", new JsonObject().put("type", jsonType(vs.getString("inner_val_type"))));
    }
    if (vs.getJsonArray("enum") != null && !vs.getJsonArray("enum").isEmpty()) {
      schema.put("enum", vs.getJsonArray("enum").copy());
    }
    return schema;
  }

  private static String jsonType(String valType) {
    return switch (valType) {
      case "integer", "number", "boolean", "array", "string" -> valType;
      case "json" -> "object";
      default -> "string";
    };
  }

  static EffectHints hints(JsonObject definition) {
    JsonObject behavior = definition.getJsonObject("metadata", new JsonObject()).getJsonObject("behavior");
    if (behavior == null) {
      return EffectHints.NONE;
    }
    return new EffectHints(behavior.getBoolean("read_only"), behavior.getBoolean("idempotent"),
        behavior.getBoolean("destructive"));
  }

  /** The auth provider ({@code google}) whose connection the tool runs with; null when it needs none. */
  static String authProvider(JsonObject definition) {
    JsonObject auth = definition.getJsonObject("requirements", new JsonObject()).getJsonObject("authorization");
    String id = auth == null ? null : auth.getString("provider_id");
    return id == null ? null : id.toLowerCase(java.util.Locale.ROOT);
  }

  static String toolkit(JsonObject definition) {
    JsonObject toolkit = definition.getJsonObject("toolkit");
    if (toolkit != null && toolkit.getString("name") != null) {
      return toolkit.getString("name");
    }
    String slug = slug(definition);
    int dot = slug.indexOf('.');
    return dot < 0 ? null : slug.substring(0, dot);
  }

  /** {@code Toolkit.Tool}, without the version that a fully qualified name carries. */
  static String slug(JsonObject definition) {
    String qualified = definition.getString("qualified_name");
    if (qualified == null) {
      String fq = definition.getString("fully_qualified_name");
      qualified = fq != null && fq.contains("@") ? fq.substring(0, fq.indexOf('@')) : fq;
    }
    if (qualified == null) {
      JsonObject toolkit = definition.getJsonObject("toolkit", new JsonObject());
      qualified = toolkit.getString("name") + "." + definition.getString("name");
    }
    return qualified;
  }
}
