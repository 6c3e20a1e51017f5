package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Turns OpenAPI 3.0 schema objects into JSON Schema 2020-12, which input schemas are checked
 * with: {@code nullable} becomes a {@code null} type, boolean {@code exclusiveMinimum}/{@code
 * exclusiveMaximum} become numbers, and documentation-only keywords are dropped. 3.1 schemas are
 * already JSON Schema and pass through unchanged apart from those keywords. Vendor extensions
 * ({@code x-*}) are the document's business, not the model's, and are dropped too. Recursion
 * through {@code $recursiveRef} or {@code $dynamicRef} cannot be inlined into one self-contained
 * schema, so it is reported like a recursive {@code $ref}.
 */
final class SchemaConverter {

  private SchemaConverter() {
  }

  static Object convert(Object node, List<String> problems) {
    if (node instanceof JsonArray arr) {
      JsonArray out = new JsonArray();
      arr.forEach(item -> out.add(convert(item, problems)));
      return out;
    }
    if (!(node instanceof JsonObject obj)) {
      return node;
    }
    JsonObject out = new JsonObject();
    for (String key : obj.fieldNames()) {
      if (key.startsWith("x-")) {
        continue;
      }
      switch (key) {
        case "example", "xml", "discriminator", "externalDocs", "nullable", "$recursiveAnchor", "$dynamicAnchor" -> {
        }
        case "$recursiveRef", "$dynamicRef" -> {
          String problem = "recursive " + key + " ('" + obj.getValue(key) + "') is not supported";
          if (!problems.contains(problem)) {
            problems.add(problem);
          }
        }
        case "properties", "patternProperties", "$defs", "definitions" -> {
          JsonObject props = new JsonObject();
          if (obj.getValue(key) instanceof JsonObject p) {
            p.forEach(e -> props.put(e.getKey(), convert(e.getValue(), problems)));
          }
          out.put(key, props);
        }
        case "enum", "required", "const", "default", "examples" -> out.put(key, obj.getValue(key));
        default -> out.put(key, convert(obj.getValue(key), problems));
      }
    }
    if (Boolean.TRUE.equals(obj.getValue("nullable")) && out.getValue("type") instanceof String t) {
      out.put("type", new JsonArray().add(t).add("null"));
    }
    exclusive(out, "exclusiveMinimum", "minimum");
    exclusive(out, "exclusiveMaximum", "maximum");
    return out;
  }

  private static void exclusive(JsonObject schema, String exclusive, String bound) {
    Object flag = schema.getValue(exclusive);
    if (flag instanceof Boolean b) {
      schema.remove(exclusive);
      if (b && schema.getValue(bound) != null) {
        schema.put(exclusive, schema.remove(bound));
      }
    }
  }
}
