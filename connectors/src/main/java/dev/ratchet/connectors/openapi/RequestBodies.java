package dev.ratchet.connectors.openapi;

import io.vertx.core.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads an operation's {@code requestBody} into the schema of the argument {@code body} and a
 * {@link RequestBodySpec}. When the document offers several media types, one is sent, in this
 * order of preference: {@code application/json}, another JSON type ({@code +json}, wildcards),
 * {@code application/x-www-form-urlencoded}, {@code multipart/form-data}, text ({@code text/*},
 * XML, YAML, GraphQL...), then the first other type (given as base64 bytes).
 */
final class RequestBodies {

  /** Media types outside {@code text/*} that are text all the same: a model writes them, never base64. */
  private static final Pattern TEXTUAL = Pattern.compile(
      "application/([\\w.-]+\\+)?(xml|yaml|x-yaml|graphql|javascript|sql|x-ndjson|csv)");

  /** The argument {@code body} and how it is sent. */
  record BodyInput(RequestBodySpec spec, JsonObject schema) {
  }

  private RequestBodies() {
  }

  static BodyInput read(JsonObject content, List<String> problems) {
    String chosen = choose(content);
    if (chosen == null) {
      return null;
    }
    JsonObject media = content.getValue(chosen) instanceof JsonObject m ? m : new JsonObject();
    JsonObject encoding = media.getValue("encoding") instanceof JsonObject e ? e : new JsonObject();
    JsonObject schema = media.getValue("schema") instanceof JsonObject s
        ? (JsonObject) SchemaConverter.convert(s, problems) : new JsonObject();
    RequestBodySpec.Kind kind = kind(chosen);
    Set<String> files = new LinkedHashSet<>();
    switch (kind) {
      case MULTIPART -> {
        if (schema.getValue("properties") instanceof JsonObject props) {
          for (String name : props.fieldNames()) {
            JsonObject prop = props.getJsonObject(name);
            JsonObject part = encoding.getValue(name) instanceof JsonObject e ? e : new JsonObject();
            if (isFile(prop, part)) {
              props.put(name, FileArgument.schema(prop));
              files.add(name);
            } else if (prop.getValue("items") instanceof JsonObject items && isFile(items, part)) {
              prop.put("items", FileArgument.schema(items));
              files.add(name);
            }
          }
        }
      }
      case TEXT -> schema = text(schema, "the body, as text (sent as " + chosen + ")");
      case BINARY -> schema = new JsonObject().put("type", "string").put("contentEncoding", "base64")
          .put("description", join(schema.getString("description"), "the body's bytes, base64-encoded (sent as "
              + chosen + ")"));
      default -> {
      }
    }
    String type = kind == RequestBodySpec.Kind.JSON && (chosen.contains("*")) ? "application/json" : chosen;
    return new BodyInput(new RequestBodySpec(type, kind, encoding, Set.copyOf(files)), schema);
  }

  static String choose(JsonObject content) {
    List<String> types = content.fieldNames().stream().toList();
    for (String t : types) {
      if (base(t).equals("application/json")) {
        return t;
      }
    }
    for (RequestBodySpec.Kind kind : RequestBodySpec.Kind.values()) {
      for (String t : types) {
        if (kind(t) == kind) {
          return t;
        }
      }
    }
    return null;
  }

  static RequestBodySpec.Kind kind(String mediaType) {
    String t = base(mediaType);
    if (t.equals("application/json") || t.endsWith("+json") || t.endsWith("/json") || t.equals("*/*")
        || t.equals("application/*")) {
      return RequestBodySpec.Kind.JSON;
    }
    if (t.equals("application/x-www-form-urlencoded")) {
      return RequestBodySpec.Kind.FORM;
    }
    if (t.equals("multipart/form-data")) {
      return RequestBodySpec.Kind.MULTIPART;
    }
    return t.startsWith("text/") || TEXTUAL.matcher(t).matches() ? RequestBodySpec.Kind.TEXT
        : RequestBodySpec.Kind.BINARY;
  }

  private static String base(String mediaType) {
    int semi = mediaType.indexOf(';');
    return (semi < 0 ? mediaType : mediaType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
  }

  /** A file: 3.0's {@code format: binary}, 3.1's {@code contentMediaType}, or a part encoded as a non-text type. */
  private static boolean isFile(JsonObject schema, JsonObject partEncoding) {
    if ("binary".equals(schema.getValue("format")) || schema.containsKey("contentMediaType")) {
      return true;
    }
    return partEncoding.getValue("contentType") instanceof String ct && !(schema.getValue("type") instanceof String t
        && !t.equals("string")) && !ct.startsWith("text/") && !ct.contains("json") && !ct.contains("*/*");
  }

  private static JsonObject text(JsonObject schema, String description) {
    JsonObject out = new JsonObject().put("type", "string");
    for (String keep : List.of("minLength", "maxLength", "pattern", "enum", "const", "default", "examples")) {
      if (schema.containsKey(keep)) {
        out.put(keep, schema.getValue(keep));
      }
    }
    return out.put("description", join(schema.getString("description"), description));
  }

  private static String join(String documented, String added) {
    return documented == null || documented.isBlank() ? added : documented + " (" + added + ")";
  }

}
