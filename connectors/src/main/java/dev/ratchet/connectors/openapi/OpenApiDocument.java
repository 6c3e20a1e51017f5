package dev.ratchet.connectors.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.yaml.snakeyaml.LoaderOptions;
import dev.ratchet.connectors.AgentSettings;
import dev.ratchet.connectors.ConnectorManifest;
import dev.ratchet.connectors.ManifestException;
import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.connectors.OperationDefinition;
import dev.ratchet.connectors.OperationKind;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An OpenAPI 3.x document read as a connector: each operation becomes an
 * {@link OpenApiOperationSpec}. GET/HEAD/OPTIONS are queries, PUT/DELETE mutations safe to retry,
 * POST/PATCH single-attempt mutations; {@code x-ratchet-agent} on an operation overrides
 * {@code retry}, {@code approval}, {@code exposed}, {@code branches} and {@code timeoutMs}.
 */
public final class OpenApiDocument {

  private static final List<String> METHODS = List.of("get", "head", "options", "put", "delete", "post", "patch",
      "trace");
  /** Above this many bytes an input schema is offered with a warning: it is sent to the model every turn. */
  public static final int LARGE_SCHEMA_BYTES = 100_000;
  /** Public documents run to several megabytes; the YAML parser's default limit is 3 MB. */
  private static final YAMLFactory YAML = YAMLFactory.builder().loaderOptions(largeDocuments()).build();

  private final String origin;
  private final JsonObject doc;
  private final RefResolver refs;
  private final List<OpenApiWarning> warnings = new ArrayList<>();
  private final Map<String, OpenApiOperationSpec> operations = new LinkedHashMap<>();
  private final Map<String, List<String>> tags = new LinkedHashMap<>();
  private final ConnectorManifest manifest;

  private OpenApiDocument(String connectorId, JsonObject doc, String origin, Path file) {
    this.origin = origin;
    this.doc = doc;
    this.refs = new RefResolver(doc, file);
    Object version = doc.getValue("openapi");
    if (!(version instanceof String v) || !v.startsWith("3.")) {
      throw new ManifestException(origin + ": field 'openapi': only OpenAPI 3.x documents are supported (found "
          + (version == null ? "none" : "'" + version + "'") + ")");
    }
    JsonObject paths;
    if (doc.getValue("paths") instanceof JsonObject p) {
      paths = p;
    } else if (doc.getValue("paths") == null && !v.startsWith("3.0")) {
      // valid from 3.1 on: a document of webhooks or components only
      paths = new JsonObject();
    } else {
      throw new ManifestException(origin + ": field 'paths' is missing or not an object");
    }
    if (paths.isEmpty()) {
      warnings.add(new OpenApiWarning(null, "paths", "no paths: nothing to offer"));
    }
    if (doc.getValue("webhooks") instanceof JsonObject hooks && !hooks.isEmpty()) {
      warnings.add(OpenApiWarning.notice(null, "webhooks", "webhooks are requests the API sends, not operations;"
          + " they are ignored"));
    }
    for (String path : paths.fieldNames()) {
      if (!(paths.getValue(path) instanceof JsonObject item)) {
        continue;
      }
      JsonObject pathItem = item;
      if (item.getValue("$ref") instanceof String) {
        List<String> problems = new ArrayList<>();
        Object resolved = refs.follow(item, problems);
        problems.forEach(p -> warnings.add(new OpenApiWarning(null, "paths." + path, p)));
        pathItem = resolved instanceof JsonObject o ? o : new JsonObject();
      }
      for (String method : METHODS) {
        if (pathItem.getValue(method) instanceof JsonObject found) {
          // an operation kept in a file of its own (a multi-file document) is read from there
          List<String> problems = new ArrayList<>();
          JsonObject op = refs.follow(found, problems) instanceof JsonObject o ? o : new JsonObject();
          problems.forEach(p -> warnings.add(new OpenApiWarning(null, "paths." + path + "." + method, p)));
          if (!problems.isEmpty()) {
            continue;
          }
          OpenApiOperationSpec spec = operation(path, method, pathItem, op);
          if (spec != null) {
            tags.putIfAbsent(spec.operationId(), tagsOf(op));
            if (operations.putIfAbsent(spec.operationId(), spec) != null) {
              warnings.add(new OpenApiWarning(spec.operationId(), "paths." + path + "." + method,
                  "operationId is used twice; only its first operation is offered"));
            }
          }
        }
      }
    }
    List<OperationDefinition> defs = new ArrayList<>();
    operations.values().forEach(s -> defs.add(s.definition()));
    String title = doc.getValue("info") instanceof JsonObject info ? info.getString("title") : null;
    String version2 = doc.getValue("info") instanceof JsonObject info ? info.getString("version", "0") : "0";
    this.manifest = new ConnectorManifest(connectorId, version2, title, defs, origin);
  }

  public static OpenApiDocument parse(String connectorId, String text, String origin) {
    return new OpenApiDocument(connectorId, read(text, origin), origin, null);
  }

  /**
   * Reads a document from a file; references to other files ({@code ./schemas/pet.yaml#/Pet}) are
   * read relative to it.
   */
  public static OpenApiDocument load(String connectorId, Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ManifestException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")", e);
    }
    return new OpenApiDocument(connectorId, read(text, file.toString()), file.toString(), file);
  }

  static JsonObject read(String text, String origin) {
    String trimmed = text.stripLeading();
    try {
      if (trimmed.startsWith("{")) {
        return new JsonObject(text);
      }
      JsonNode node = new ObjectMapper(YAML).readTree(text);
      if (node == null || !node.isObject()) {
        throw new ManifestException(origin + ": not an OpenAPI document (expected a JSON or YAML object)");
      }
      return new JsonObject(new ObjectMapper().writeValueAsString(node));
    } catch (DecodeException | ClassCastException e) {
      throw new ManifestException(origin + ": not valid JSON (" + firstLine(e.getMessage()) + ")");
    } catch (java.io.IOException e) {
      throw new ManifestException(origin + ": not valid YAML (" + firstLine(e.getMessage()) + ")");
    }
  }

  public ConnectorManifest manifest() {
    return manifest;
  }

  public List<OpenApiWarning> warnings() {
    return List.copyOf(warnings);
  }

  Map<String, OpenApiOperationSpec> operations() {
    return operations;
  }

  public String origin() {
    return origin;
  }

  /** The names of the document's operations, in document order. */
  public List<String> operationIds() {
    return List.copyOf(operations.keySet());
  }

  /** The tags of an operation; none when it has none or there is no such operation. */
  public List<String> tags(String operationId) {
    return tags.getOrDefault(operationId, List.of());
  }

  /** Why an operation cannot be offered; empty when it can (or there is no such operation). */
  public List<OpenApiWarning> problems(String operationId) {
    OpenApiOperationSpec spec = operations.get(operationId);
    return spec == null ? List.of() : spec.problems();
  }

  private static List<String> tagsOf(JsonObject op) {
    List<String> out = new ArrayList<>();
    if (op.getValue("tags") instanceof JsonArray list) {
      list.forEach(t -> out.add(String.valueOf(t)));
    }
    return List.copyOf(out);
  }

  /** The first absolute server URL of the document, if any. */
  public String serverUrl() {
    if (doc.getValue("servers") instanceof JsonArray servers && !servers.isEmpty()
        && servers.getValue(0) instanceof JsonObject s && s.getValue("url") instanceof String url
        && url.matches("https?://.*")) {
      return url;
    }
    return null;
  }

  private OpenApiOperationSpec operation(String path, String method, JsonObject pathItem, JsonObject op) {
    String where = "paths." + path + "." + method;
    JsonObject ext = op.getValue("x-ratchet-agent") instanceof JsonObject x ? x : new JsonObject();
    String chosen = OperationNames.chosen(op, ext, origin, where);
    String operationId = chosen != null ? chosen : OperationNames.derive(method, path);
    if (chosen == null) {
      warnings.add(OpenApiWarning.notice(operationId, where, "operation has no operationId; it is named '"
          + operationId + "' from its method and path (x-ratchet-agent.name chooses another)"));
    }
    List<OpenApiWarning> problems = new ArrayList<>();
    if (method.equals("trace")) {
      problems.add(new OpenApiWarning(operationId, where, "TRACE operations are not supported"));
    }
    if (op.getValue("callbacks") instanceof JsonObject cb && !cb.isEmpty()) {
      warnings.add(OpenApiWarning.notice(operationId, where + ".callbacks", "callbacks are requests the API sends"
          + " back later; they are ignored"));
    }
    if (op.getValue("responses") instanceof JsonObject responses && responses.stream().anyMatch(r ->
        r.getValue() instanceof JsonObject response && response.getValue("links") instanceof JsonObject links
            && !links.isEmpty())) {
      warnings.add(OpenApiWarning.notice(operationId, where + ".responses", "response links describe requests that"
          + " may follow this one; they are ignored"));
    }
    RefResolver.Scope refs = this.refs.scope();

    OperationInputs inputs = new OperationInputs(operationId, where, refs, problems, warnings)
        .read(PathKey.of(path), pathItem, op);
    JsonObject properties = inputs.properties;
    JsonArray required = inputs.required;

    JsonObject input = new JsonObject().put("type", "object").put("properties", properties)
        .put("additionalProperties", false);
    if (!required.isEmpty()) {
      input.put("required", required);
    }
    List<String> found = new ArrayList<>();
    JsonObject defs = refs.defs();
    if (!defs.isEmpty()) {
      JsonObject converted = new JsonObject();
      defs.forEach(d -> converted.put(d.getKey(), SchemaConverter.convert(d.getValue(), found)));
      input.put("$defs", converted);
    }
    found.forEach(m -> problems.add(new OpenApiWarning(operationId, where, m)));
    String invalid = problems.isEmpty() ? MetaSchema.problem(input) : null;
    if (invalid != null) {
      problems.add(new OpenApiWarning(operationId, where, "its input schema is not valid JSON Schema 2020-12 ("
          + invalid + ")"));
    }
    int size = input.encode().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    if (size > LARGE_SCHEMA_BYTES) {
      // offered all the same: it is valid, only costly, and the application chose to name it
      warnings.add(OpenApiWarning.notice(operationId, where, "its input schema is " + size + " bytes, over "
          + LARGE_SCHEMA_BYTES / 1000 + " KB; the model is sent all of it with every turn"));
    }
    OperationKind kind = Set.of("get", "head", "options").contains(method) ? OperationKind.QUERY
        : OperationKind.MUTATION;
    AgentSettings agent = AgentExtension.read(ext, kind, method, origin, operationId);
    String description = op.getString("summary", "");
    if (op.getValue("description") instanceof String d && !d.isBlank()) {
      description = description.isBlank() ? d : description + ". " + d;
    }
    if (description.isBlank()) {
      description = method.toUpperCase(java.util.Locale.ROOT) + " " + path;
    }
    Duration timeout = ext.getValue("timeoutMs") instanceof Number n ? Duration.ofMillis(n.longValue()) : null;
    OperationDefinition definition = new OperationDefinition(operationId, kind, description, input,
        null, timeout, null, agent);
    problems.forEach(warnings::add);
    return new OpenApiOperationSpec(operationId, method, path, inputs.parameters, inputs.body, definition, problems);
  }

  private static LoaderOptions largeDocuments() {
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(256 * 1024 * 1024);
    return options;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unreadable";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
