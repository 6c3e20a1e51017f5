package dev.ratchet.runtime.engine;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks a call's arguments against its tool's input schema and words each problem so that a
 * model can fix it: which field, what was expected.
 */
public final class ArgumentsValidator {

  private final Validator validator;
  private final SchemaSubset.Check subset;

  public ArgumentsValidator(JsonObject schema) {
    // vertx-json-schema writes bookkeeping keys ("__absolute_uri__") into the JSON it is given: it gets a copy, so
    // the tool's own schema, which the catalogue shows and the model is sent, stays exactly what the tool declared
    JsonObject s = schema == null ? new JsonObject().put("type", "object") : schema.copy();
    Draft draft = s.containsKey("$schema") && s.getString("$schema", "").contains("draft-07") ? Draft.DRAFT7
        : Draft.DRAFT202012;
    this.subset = SchemaSubset.compile(s);
    this.validator = Validator.create(JsonSchema.of(s),
        new JsonSchemaOptions().setDraft(draft).setBaseUri("https://ratchet.dev/schemas/").setOutputFormat(OutputFormat.Basic));
  }

  /** Whether valid arguments are recognised without the full validator (the schema uses only the common keywords). */
  boolean checksDirectly() {
    return subset != null;
  }

  /** Null when the arguments are valid, else a message naming each offending field. */
  public String problems(JsonObject arguments) {
    String nonFinite = nonFinite(arguments, "");
    if (nonFinite != null) {
      // a number too large for a double (1e400) arrives as Infinity, which the journal could only keep as a string
      return "invalid arguments: " + (nonFinite.isEmpty() ? "arguments" : "field '" + nonFinite + "'")
          + ": not a finite number (a JSON number such as 1e400 is out of range); send a finite number";
    }
    if (subset != null && subset.certainlyValid(arguments)) {
      return null;
    }
    OutputUnit out;
    try {
      out = validator.validate(arguments);
    } catch (RuntimeException e) {
      return "the arguments could not be checked against the tool's schema: " + e.getMessage();
    }
    if (Boolean.TRUE.equals(out.getValid())) {
      return null;
    }
    List<String> messages = new ArrayList<>();
    List<OutputUnit> errors = out.getErrors() == null ? List.of() : out.getErrors();
    for (OutputUnit e : errors) {
      if (isWrapper(e) && errors.stream().anyMatch(o -> !isWrapper(o) && within(o, e))) {
        // "does not match schema" around the real problem, or additionalProperties repeating it for a
        // declared property that failed its own schema, which a model reads as "not allowed"
        continue;
      }
      String where = e.getInstanceLocation() == null || e.getInstanceLocation().isEmpty()
          || "#".equals(e.getInstanceLocation()) ? "arguments" : "field '" + pointer(e.getInstanceLocation()) + "'";
      String msg = where + ": " + (keyword(e).equals("additionalProperties")
          ? "is not a known field; the schema allows no other fields" : e.getError());
      if (!messages.contains(msg)) {
        messages.add(msg);
      }
      if (messages.size() >= 5) {
        break;
      }
    }
    if (messages.isEmpty()) {
      messages.add(out.getError() == null ? "arguments do not match the tool's input schema" : out.getError());
    }
    return "invalid arguments: " + String.join("; ", messages);
  }

  /** The path of the first number in the value that is not finite, or null when there is none. */
  private static String nonFinite(Object value, String path) {
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return Double.isFinite(d) ? null : path;
    }
    if (value instanceof JsonObject) {
      value = ((JsonObject) value).getMap();
    } else if (value instanceof JsonArray) {
      value = ((JsonArray) value).getList();
    }
    if (value instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        String found = nonFinite(e.getValue(), path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey());
        if (found != null) {
          return found;
        }
      }
    } else if (value instanceof List) {
      List<?> list = (List<?>) value;
      for (int i = 0; i < list.size(); i++) {
        String found = nonFinite(list.get(i), path.isEmpty() ? String.valueOf(i) : path + "." + i);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static final java.util.Set<String> WRAPPERS = java.util.Set.of("properties", "additionalProperties",
      "patternProperties", "items", "prefixItems", "allOf", "$ref", "unevaluatedProperties");

  /** An error that only says a subschema failed, the subschema's own errors being reported as well. */
  private static boolean isWrapper(OutputUnit e) {
    return WRAPPERS.contains(keyword(e));
  }

  private static String keyword(OutputUnit e) {
    String k = e.getKeywordLocation() == null ? "" : e.getKeywordLocation();
    return k.substring(k.lastIndexOf('/') + 1);
  }

  private static boolean within(OutputUnit inner, OutputUnit outer) {
    String in = location(inner);
    String out = location(outer);
    return inner != outer && (in.equals(out) || in.startsWith(out + "/"));
  }

  private static String location(OutputUnit e) {
    String loc = e.getInstanceLocation() == null ? "" : e.getInstanceLocation();
    return loc.startsWith("#") ? loc.substring(1) : loc;
  }

  private static String pointer(String location) {
    String p = location.startsWith("#") ? location.substring(1) : location;
    p = p.startsWith("/") ? p.substring(1) : p;
    return p.replace('/', '.');
  }
}
