package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.OpenApiWarning;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads an operation's parameters and request body into the properties of its tool's input and
 * into how each goes on the wire: one property per parameter (named by {@link ArgumentNames}) and
 * {@code body} for the request body ({@link RequestBodies}).
 */
final class OperationInputs {

  private static final Set<String> IGNORED_HEADERS = Set.of("accept", "content-type", "authorization");
  private static final List<String> LOCATIONS = List.of("path", "query", "header", "cookie");
  private static final Map<String, Set<String>> STYLES = Map.of("path", Set.of("simple", "label", "matrix"),
      "query", Set.of("form", "spaceDelimited", "pipeDelimited", "deepObject"), "header", Set.of("simple"),
      "cookie", Set.of("form"));

  final JsonObject properties = new JsonObject();
  final JsonArray required = new JsonArray();
  final List<OpenApiParameter> parameters = new ArrayList<>();
  RequestBodySpec body;

  private final String operationId;
  private final String where;
  private final RefResolver.Scope refs;
  private final List<OpenApiWarning> problems;
  private final List<OpenApiWarning> notices;

  /**
   * @param problems where what keeps the operation from being offered goes
   * @param notices  where what is worth knowing about an operation that is offered goes
   */
  OperationInputs(String operationId, String where, RefResolver.Scope refs, List<OpenApiWarning> problems,
                  List<OpenApiWarning> notices) {
    this.operationId = operationId;
    this.where = where;
    this.refs = refs;
    this.problems = problems;
    this.notices = notices;
  }

  OperationInputs read(PathKey path, JsonObject pathItem, JsonObject op) {
    JsonObject bodySchema = null;
    boolean bodyRequired = false;
    if (op.getValue("requestBody") != null) {
      List<String> found = new ArrayList<>();
      Object resolved = refs.resolve(refs.follow(op.getValue("requestBody"), found), found);
      if (resolved instanceof JsonObject rb && rb.getValue("content") instanceof JsonObject content) {
        RequestBodies.BodyInput input = RequestBodies.read(content, found);
        if (input != null) {
          body = input.spec();
          bodySchema = input.schema();
          if (rb.getValue("description") instanceof String d && !bodySchema.containsKey("description")) {
            bodySchema.put("description", d);
          }
          bodyRequired = Boolean.TRUE.equals(rb.getValue("required"));
        }
      }
      found.forEach(m -> problems.add(new OpenApiWarning(operationId, where + ".requestBody", m)));
    }
    Set<String> taken = new HashSet<>();
    if (body != null) {
      taken.add("body");
    }
    List<JsonObject> declared = declared(path, pathItem, op);
    Map<JsonObject, String> names = names(declared, taken);
    for (JsonObject param : declared) {
      parameter(param, names.get(param));
    }
    if (body != null) {
      properties.put("body", bodySchema);
      if (bodyRequired) {
        required.add("body");
      }
    }
    return this;
  }

  /** Each parameter's property name; names that models accept as they are claim theirs first. */
  private static Map<JsonObject, String> names(List<JsonObject> declared, Set<String> taken) {
    Map<JsonObject, String> names = new IdentityHashMap<>();
    for (boolean valid : new boolean[] {true, false}) {
      for (JsonObject param : declared) {
        String name = param.getString("name");
        boolean named = sent(param) && LOCATIONS.contains(param.getValue("in"));
        if (named && name.matches(ArgumentNames.VALID) == valid) {
          names.put(param, ArgumentNames.assign(name, String.valueOf(param.getValue("in")), taken));
        }
      }
    }
    return names;
  }

  /** The operation's parameters, operation-level ones replacing path-level ones, in naming order. */
  private List<JsonObject> declared(PathKey path, JsonObject pathItem, JsonObject op) {
    Map<String, JsonObject> params = new LinkedHashMap<>();
    for (JsonArray list : new JsonArray[] {pathItem.getJsonArray("parameters"), op.getJsonArray("parameters")}) {
      if (list == null) {
        continue;
      }
      for (Object p : list) {
        List<String> found = new ArrayList<>();
        Object resolved = refs.resolve(refs.follow(p, found), found);
        found.forEach(m -> problems.add(new OpenApiWarning(operationId, where + ".parameters", m)));
        if (resolved instanceof JsonObject param && param.getValue("name") instanceof String n) {
          params.put(param.getValue("in") + ":" + n, param);
        }
      }
    }
    for (String name : path.placeholders()) {
      if (!params.containsKey("path:" + name)) {
        // the template needs a value the document forgot to declare: ask for it as a string
        notices.add(OpenApiWarning.notice(operationId, where, "path parameter '" + name
            + "' is in the path but not declared; it is offered as a required string"));
        params.put("path:" + name, new JsonObject().put("name", name).put("in", "path").put("required", true)
            .put("schema", new JsonObject().put("type", "string")));
      }
    }
    List<JsonObject> ordered = new ArrayList<>(params.values());
    ordered.sort(Comparator.comparingInt(p -> {
      int i = LOCATIONS.indexOf(String.valueOf(p.getValue("in")));
      return i < 0 ? LOCATIONS.size() : i;
    }));
    return ordered;
  }

  /** Whether the caller gives the parameter: OpenAPI has the connector set Accept, Content-Type, Authorization. */
  private static boolean sent(JsonObject param) {
    return !("header".equals(param.getValue("in"))
        && IGNORED_HEADERS.contains(param.getString("name").toLowerCase(Locale.ROOT)));
  }

  private void parameter(JsonObject param, String argument) {
    String name = param.getString("name");
    String in = String.valueOf(param.getValue("in"));
    String at = where + ".parameters." + name;
    if (!sent(param)) {
      return;
    }
    if (!LOCATIONS.contains(in)) {
      problems.add(new OpenApiWarning(operationId, at, "parameter location '" + in + "' is not one OpenAPI defines"));
      return;
    }
    String mediaType = null;
    JsonObject source = param.getValue("schema") instanceof JsonObject s ? s : new JsonObject();
    if (param.getValue("content") instanceof JsonObject content && !content.isEmpty()) {
      mediaType = content.fieldNames().iterator().next();
      source = content.getValue(mediaType) instanceof JsonObject m && m.getValue("schema") instanceof JsonObject s
          ? s : new JsonObject();
    }
    List<String> found = new ArrayList<>();
    JsonObject schema = (JsonObject) SchemaConverter.convert(source, found);
    found.forEach(m -> problems.add(new OpenApiWarning(operationId, at, m)));
    String style = param.getValue("style") instanceof String s ? s : OpenApiParameter.defaultStyle(in);
    if (!STYLES.get(in).contains(style)) {
      notices.add(OpenApiWarning.notice(operationId, at, "style '" + style + "' is not defined for " + in
          + " parameters; '" + name + "' is sent in the default style '" + OpenApiParameter.defaultStyle(in) + "'"));
      style = OpenApiParameter.defaultStyle(in);
    }
    boolean explode = param.getValue("explode") instanceof Boolean b ? b : style.equals("form");
    boolean allowReserved = in.equals("query") && Boolean.TRUE.equals(param.getValue("allowReserved"));
    String description = param.getValue("description") instanceof String d ? d : schema.getString("description");
    if (!argument.equals(name)) {
      String sent = "Sent as the " + in + " parameter '" + name + "'.";
      description = description == null || description.isBlank() ? sent : description + " (" + sent + ")";
    }
    if (description != null) {
      schema.put("description", description);
    }
    properties.put(argument, schema);
    boolean isRequired = in.equals("path") || Boolean.TRUE.equals(param.getValue("required"));
    if (isRequired) {
      required.add(argument);
    }
    parameters.add(new OpenApiParameter(name, in, isRequired, argument, style, explode, allowReserved, mediaType));
  }
}
