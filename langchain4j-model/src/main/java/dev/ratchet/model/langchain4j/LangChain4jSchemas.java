package dev.ratchet.model.langchain4j;

import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool's JSON Schema as LangChain4j's schema elements. The top-level object is a
 * {@link JsonObjectSchema} (LangChain4j's tool parameters must be one), and each property goes
 * through as a {@link JsonRawSchema} so that the model sees every keyword the catalogue shows
 * (pattern, exclusiveMinimum, nested additionalProperties, ...) instead of learning them by failing.
 */
public final class LangChain4jSchemas {

  private LangChain4jSchemas() {
  }

  /** A tool's input schema as the parameters of a LangChain4j tool specification. */
  public static JsonObjectSchema objectSchema(JsonObject schema) {
    if (schema != null && "object".equals(type(schema)) && !schema.containsKey("anyOf")
        && !schema.containsKey("oneOf") && !schema.containsKey("enum")) {
      return rawObjectSchema(schema);
    }
    JsonSchemaElement e = element(schema);
    if (e instanceof JsonObjectSchema o) {
      return o;
    }
    return JsonObjectSchema.builder().addProperty("value", e).build();
  }

  private static JsonObjectSchema rawObjectSchema(JsonObject s) {
    JsonObjectSchema.Builder b = JsonObjectSchema.builder().description(s.getString("description"));
    JsonObject props = s.getJsonObject("properties", new JsonObject());
    for (String name : props.fieldNames()) {
      Object p = props.getValue(name);
      b.addProperty(name, JsonRawSchema.from((p instanceof JsonObject json ? json : new JsonObject()).encode()));
    }
    requiredAndAdditional(b, s);
    if (s.getValue("$defs") instanceof JsonObject defs) {
      // properties may point into them with "$ref": "#/$defs/..."
      Map<String, JsonSchemaElement> definitions = new LinkedHashMap<>();
      for (String name : defs.fieldNames()) {
        if (defs.getValue(name) instanceof JsonObject def) {
          definitions.put(name, JsonRawSchema.from(def.encode()));
        }
      }
      b.definitions(definitions);
    }
    return b.build();
  }

  /** An object schema's {@code required} names and its {@code additionalProperties}, where it says them. */
  private static void requiredAndAdditional(JsonObjectSchema.Builder b, JsonObject s) {
    if (s.getValue("required") instanceof JsonArray required) {
      List<String> names = new ArrayList<>();
      required.forEach(r -> names.add(String.valueOf(r)));
      b.required(names);
    }
    if (s.getValue("additionalProperties") instanceof Boolean additional) {
      b.additionalProperties(additional);
    }
  }

  static JsonSchemaElement element(JsonObject s) {
    if (s == null) {
      return JsonStringSchema.builder().build();
    }
    String description = s.getString("description");
    for (String combinator : List.of("anyOf", "oneOf")) {
      if (s.getValue(combinator) instanceof JsonArray options) {
        List<JsonSchemaElement> elements = new ArrayList<>();
        for (Object o : options) {
          if (o instanceof JsonObject json) {
            elements.add(element(json));
          }
        }
        return JsonAnyOfSchema.builder().description(description).anyOf(elements).build();
      }
    }
    if (s.getValue("enum") instanceof JsonArray values) {
      List<String> strings = new ArrayList<>();
      values.forEach(v -> strings.add(String.valueOf(v)));
      return JsonEnumSchema.builder().description(description).enumValues(strings).build();
    }
    String type = type(s);
    switch (type) {
      case "object": {
        JsonObjectSchema.Builder b = JsonObjectSchema.builder().description(description);
        JsonObject props = s.getJsonObject("properties", new JsonObject());
        for (String name : props.fieldNames()) {
          Object p = props.getValue(name);
          b.addProperty(name, element(p instanceof JsonObject json ? json : null));
        }
        requiredAndAdditional(b, s);
        return b.build();
      }
      case "array":
        return JsonArraySchema.builder().description(description)
            .items(element(s.getValue("items") instanceof JsonObject items ? items : null)).build();
      case "integer":
        return JsonIntegerSchema.builder().description(description).build();
      case "number":
        return JsonNumberSchema.builder().description(description).build();
      case "boolean":
        return JsonBooleanSchema.builder().description(description).build();
      case "null":
        return new JsonNullSchema();
      default:
        return JsonStringSchema.builder().description(description).build();
    }
  }

  private static String type(JsonObject s) {
    Object type = s.getValue("type");
    if (type instanceof String t) {
      return t;
    }
    if (type instanceof JsonArray types) {
      for (Object t : types) {
        if (!"null".equals(t)) {
          return String.valueOf(t);
        }
      }
    }
    return s.containsKey("properties") ? "object" : "string";
  }
}
