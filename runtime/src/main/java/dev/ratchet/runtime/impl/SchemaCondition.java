package dev.ratchet.runtime.impl;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.Validator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JSON Schema used as a condition over a call's arguments, with a readable form for approvers:
 * {@code {properties: {body: {properties: {amount: {exclusiveMinimum: 100}}}}}} reads
 * {@code body.amount > 100}. Keywords without a readable form make the whole schema its own text.
 */
public final class SchemaCondition {

  private static final Set<String> NOT_CONDITIONS = Set.of("$schema", "$id", "title", "description", "$comment",
      "examples", "default", "type");

  private final Validator validator;
  private final String text;

  private SchemaCondition(Validator validator, String text) {
    this.validator = validator;
    this.text = text;
  }

  public static SchemaCondition compile(JsonObject schema) {
    JsonObject copy = schema.copy();
    Validator validator = Validator.create(JsonSchema.of(copy), new JsonSchemaOptions().setDraft(Draft.DRAFT202012)
        .setBaseUri("https://ratchet.dev/schemas/").setOutputFormat(OutputFormat.Flag));
    String readable = readable(schema, "");
    return new SchemaCondition(validator, readable == null ? schema.encode() : readable);
  }

  public boolean matches(JsonObject arguments) {
    synchronized (validator) {
      return Boolean.TRUE.equals(validator.validate(arguments).getValid());
    }
  }

  public String describe() {
    return text;
  }

  /** The schema as "a and b"; null when a keyword has no readable form. */
  private static String readable(JsonObject schema, String path) {
    List<String> parts = new ArrayList<>();
    String subject = path.isEmpty() ? "arguments" : path;
    for (Map.Entry<String, Object> e : schema) {
      Object v = e.getValue();
      String part;
      switch (e.getKey()) {
        case "exclusiveMinimum" -> part = subject + " > " + number(v);
        case "minimum" -> part = subject + " >= " + number(v);
        case "exclusiveMaximum" -> part = subject + " < " + number(v);
        case "maximum" -> part = subject + " <= " + number(v);
        case "const" -> part = subject + " = " + literal(v);
        case "enum" -> part = v instanceof JsonArray a ? subject + " is one of " + literals(a) : null;
        case "pattern" -> part = subject + " matches /" + v + "/";
        case "required" -> part = v instanceof JsonArray a ? present(path, a) : null;
        case "properties" -> part = v instanceof JsonObject p ? properties(p, path) : null;
        default -> part = NOT_CONDITIONS.contains(e.getKey()) ? "" : null;
      }
      if (part == null) {
        return null;
      }
      if (!part.isEmpty()) {
        parts.add(part);
      }
    }
    return parts.isEmpty() ? (path.isEmpty() ? "any arguments" : "") : String.join(" and ", parts);
  }

  private static String properties(JsonObject properties, String path) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Object> p : properties) {
      if (!(p.getValue() instanceof JsonObject sub)) {
        return null;
      }
      String inner = readable(sub, path.isEmpty() ? p.getKey() : path + "." + p.getKey());
      if (inner == null) {
        return null;
      }
      if (!inner.isEmpty()) {
        parts.add(inner);
      }
    }
    return String.join(" and ", parts);
  }

  private static String present(String path, JsonArray names) {
    List<String> parts = new ArrayList<>();
    for (Object n : names) {
      parts.add((path.isEmpty() ? "" : path + ".") + n + " is present");
    }
    return String.join(" and ", parts);
  }

  private static String number(Object v) {
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && !Double.isInfinite(n.doubleValue())) {
      return String.valueOf(n.longValue());
    }
    return String.valueOf(v);
  }

  private static String literal(Object v) {
    return v instanceof String s ? "'" + s + "'" : v instanceof Number ? number(v) : String.valueOf(v);
  }

  private static String literals(JsonArray values) {
    List<String> out = new ArrayList<>();
    values.forEach(v -> out.add(literal(v)));
    return "[" + String.join(", ", out) + "]";
  }
}
