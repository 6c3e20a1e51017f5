package dev.ratchet.server.config.impl;

import dev.ratchet.connectors.SchemaErrors;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The published agent-file schema ({@code docs/agent.schema.json}) as a validator whose problems
 * name a field. Each tool entry is checked against the schema of its kind, chosen by its key
 * ({@code openapi}, {@code mcp}, {@code slack}, {@code composio}, {@code arcade}), so that a problem reads as that kind's, not as
 * "matches none of the kinds".
 */
public final class AgentSchema {

  /** A problem at a JSON pointer of the document. */
  public record Problem(String pointer, String message, String linePointer) {
  }

  public static final String RESOURCE = "/dev/ratchet/server/config/agent.schema.json";
  private static final List<String> KINDS = List.of("openapi", "mcp", "slack", "composio", "arcade");
  private static final Map<String, String> FORMATS = Map.of(
      "/agent", "must be 1-64 of the characters A-Z a-z 0-9 _ . -",
      "/model", "must be openai:<model> (for example openai:gpt-4.1-mini) or scripted",
      "/mcp/name", "must be 1-40 of the characters A-Z a-z 0-9 _ -",
      "/mcp/url", "must be an http:// or https:// URL");

  private final JsonObject schema;
  private final Validator root;
  private final Map<String, Validator> kinds = new LinkedHashMap<>();

  private AgentSchema(JsonObject schema) {
    this.schema = schema;
    JsonObject top = schema.copy();
    top.getJsonObject("properties").getJsonObject("tools").put("items", new JsonObject());
    this.root = validator(top);
    for (String kind : KINDS) {
      kinds.put(kind, validator(new JsonObject().put("$ref", "#/$defs/" + kind + "Tool")
          .put("$defs", schema.getJsonObject("$defs").copy())));
    }
  }

  public static AgentSchema load() {
    try (InputStream in = AgentSchema.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the agent-file schema is missing from the class path (" + RESOURCE + ")");
      }
      return new AgentSchema(new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new IllegalStateException("the agent-file schema cannot be read", e);
    }
  }

  public JsonObject schema() {
    return schema.copy();
  }

  public synchronized List<Problem> check(JsonObject document) {
    List<Problem> problems = new ArrayList<>(problems(root, document, "", schema));
    Object tools = document.getValue("tools");
    if (tools instanceof JsonArray list) {
      for (int i = 0; i < list.size(); i++) {
        String at = "/tools/" + i;
        if (!(list.getValue(i) instanceof JsonObject entry)) {
          problems.add(new Problem(at, "a tool entry is an object with one of " + String.join(", ", KINDS), at));
          continue;
        }
        List<String> found = KINDS.stream().filter(entry::containsKey).toList();
        if (found.size() != 1) {
          problems.add(new Problem(at, found.isEmpty()
              ? "a tool entry needs one of " + String.join(", ", KINDS) + " (found: "
                  + String.join(", ", entry.fieldNames()) + ")"
              : "a tool entry has one kind, not " + String.join(" and ", found), at));
          continue;
        }
        problems.addAll(problems(kinds.get(found.get(0)), entry, at, schema));
      }
    }
    return problems;
  }

  private static List<Problem> problems(Validator validator, Object value, String base, JsonObject schema) {
    OutputUnit out = validator.validate(value);
    if (Boolean.TRUE.equals(out.getValid())) {
      return List.of();
    }
    List<OutputUnit> errors = out.getErrors() == null || out.getErrors().isEmpty() ? List.of(out) : out.getErrors();
    List<Problem> problems = new ArrayList<>();
    List<OutputUnit> specific = new ArrayList<>(SchemaErrors.mostSpecific(errors));
    for (OutputUnit e : errors) {
      // a missing field is worth saying even when a field inside the same object is wrong too
      if (e.getError() != null && e.getError().startsWith("Instance does not have required property")
          && !specific.contains(e)) {
        specific.add(0, e);
      }
    }
    for (OutputUnit e : approvalsPlain(specific)) {
      String at = e.getInstanceLocation() == null ? "" : e.getInstanceLocation().replaceFirst("^#", "");
      String line = base + at;
      String message = SchemaErrors.humanize(e.getError());
      if ("is not a known field".equals(message)) {
        String name = at.substring(at.lastIndexOf('/') + 1);
        at = at.substring(0, at.lastIndexOf('/'));
        message = "unknown field '" + name + "'" + known(schema, e.getAbsoluteKeywordLocation());
      }
      if ("does not have the expected format".equals(message) && FORMATS.containsKey(at)) {
        message = FORMATS.get(at);
      }
      Problem p = new Problem(base + at, message, line);
      if (!problems.contains(p)) {
        problems.add(p);
      }
    }
    return problems;
  }

  /** An approval that is neither a word nor a {@code when}: one message, not one per alternative. */
  private static List<OutputUnit> approvalsPlain(List<OutputUnit> errors) {
    List<OutputUnit> out = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (OutputUnit e : errors) {
      String keyword = e.getAbsoluteKeywordLocation() == null ? "" : e.getAbsoluteKeywordLocation();
      if (keyword.contains("/$defs/approval/")) {
        String at = e.getInstanceLocation() == null ? "" : e.getInstanceLocation();
        boolean inWhen = at.contains("/when");
        String where = inWhen ? at.substring(0, at.indexOf("/when") + 5) : at;
        if (at.endsWith("/allowEdit")) {
          out.add(new OutputUnit(at, keyword, e.getKeywordLocation(), "must be true or false", e.getErrorType()));
          continue;
        }
        if (!inWhen || keyword.endsWith("/type")) {
          if (!seen.contains(where)) {
            seen.add(where);
            out.add(new OutputUnit(where, keyword, e.getKeywordLocation(), inWhen ? "must be a JSON Schema object"
                : "must be always, never or { when: <JSON Schema over the arguments>, allowEdit: true|false }", e.getErrorType()));
          }
          continue;
        }
      }
      out.add(e);
    }
    return out;
  }

  /** " (known: a, b)" from the schema object that holds the failed additionalProperties. */
  private static String known(JsonObject schema, String absoluteKeyword) {
    if (absoluteKeyword == null || !absoluteKeyword.contains("#")) {
      return "";
    }
    String pointer = absoluteKeyword.substring(absoluteKeyword.indexOf('#') + 1);
    pointer = pointer.substring(0, Math.max(0, pointer.lastIndexOf('/')));
    Object node = schema;
    for (String segment : pointer.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      if (!(node instanceof JsonObject o)) {
        return "";
      }
      node = o.getValue(segment.replace("~1", "/").replace("~0", "~"));
    }
    if (node instanceof JsonObject o && o.getValue("properties") instanceof JsonObject props) {
      return " (known: " + String.join(", ", props.fieldNames()) + ")";
    }
    return "";
  }

  private static Validator validator(JsonObject schema) {
    return Validator.create(JsonSchema.of(schema), new JsonSchemaOptions().setDraft(Draft.DRAFT202012)
        .setBaseUri("https://ratchet.dev/schemas/").setOutputFormat(OutputFormat.Basic));
  }
}
