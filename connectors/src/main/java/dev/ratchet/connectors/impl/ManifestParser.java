package dev.ratchet.connectors.impl;

import dev.ratchet.connectors.AgentSettings;
import dev.ratchet.connectors.ConnectorManifest;
import dev.ratchet.connectors.ManifestException;
import dev.ratchet.connectors.SchemaErrors;
import dev.ratchet.connectors.OperationDefinition;
import dev.ratchet.connectors.OperationKind;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import io.vertx.core.json.DecodeException;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Validates a manifest against the manifest schema and turns it into a {@link ConnectorManifest}. */
public final class ManifestParser {

  private static final String SCHEMA_RESOURCE = "/dev/ratchet/connectors/ratchet-connector.schema.json";
  private static final Validator VALIDATOR = Validator.create(JsonSchema.of(loadSchema()),
      new JsonSchemaOptions().setDraft(Draft.DRAFT202012).setBaseUri("https://ratchet.dev/schemas/")
          .setOutputFormat(OutputFormat.Basic));

  private ManifestParser() {
  }

  public static ConnectorManifest parse(String text, String origin) {
    JsonObject json;
    try {
      json = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw new ManifestException(origin + ": not a JSON object (" + firstLine(e.getMessage()) + ")");
    }
    return parse(json, origin);
  }

  public static ConnectorManifest parse(JsonObject json, String origin) {
    validate(json, origin);
    List<OperationDefinition> ops = new ArrayList<>();
    JsonArray operations = json.getJsonArray("operations");
    for (int i = 0; i < operations.size(); i++) {
      ops.add(operation(operations.getJsonObject(i), origin));
    }
    return new ConnectorManifest(json.getString("connector"), json.getString("version"),
        json.getString("description"), ops, origin);
  }

  private static OperationDefinition operation(JsonObject op, String origin) {
    String name = op.getString("name");
    OperationKind kind = OperationKind.fromWireName(op.getString("kind"));
    JsonObject agent = op.getJsonObject("agent", new JsonObject());
    if (kind == OperationKind.QUERY && agent.containsKey("retry")) {
      throw new ManifestException(origin + ": operation '" + name + "': field 'agent.retry': applies only to"
          + " mutations (a query is always safe to retry)");
    }
    Map<String, Outcome> branches = new LinkedHashMap<>();
    agent.getJsonObject("branches", new JsonObject())
        .forEach(e -> branches.put(e.getKey(), Outcome.fromWireName((String) e.getValue())));
    AgentSettings settings = new AgentSettings(agent.getBoolean("exposed", false),
        "safe".equals(agent.getString("retry")), "recommended".equals(agent.getString("approval")), branches);
    Long timeoutMs = op.getLong("timeoutMs");
    return new OperationDefinition(name, kind, op.getString("description"), op.getJsonObject("inputSchema"),
        op.getJsonObject("outputSchema"), timeoutMs == null ? null : Duration.ofMillis(timeoutMs),
        retry(op.getJsonObject("retry"), origin, name), settings);
  }

  private static RetryPolicy retry(JsonObject retry, String origin, String name) {
    if (retry == null) {
      return null;
    }
    RetryPolicy d = RetryPolicy.DEFAULT;
    long initial = retry.getLong("initialBackoffMs", d.initialBackoff().toMillis());
    long max = retry.getLong("maxBackoffMs", d.maxBackoff().toMillis());
    if (max < initial) {
      throw new ManifestException(origin + ": operation '" + name + "': field 'retry.maxBackoffMs': must not be"
          + " smaller than retry.initialBackoffMs");
    }
    return new RetryPolicy(retry.getInteger("maxAttempts", d.maxAttempts()), Duration.ofMillis(initial),
        Duration.ofMillis(max), retry.getDouble("multiplier", d.multiplier()));
  }

  private static void validate(JsonObject json, String origin) {
    OutputUnit result = VALIDATOR.validate(json);
    if (Boolean.TRUE.equals(result.getValid())) {
      return;
    }
    List<OutputUnit> errors = result.getErrors() == null || result.getErrors().isEmpty()
        ? List.of(result) : result.getErrors();
    List<String> problems = new ArrayList<>();
    for (OutputUnit error : SchemaErrors.mostSpecific(errors)) {
      String problem = describe(json, error);
      if (!problems.contains(problem)) {
        problems.add(problem);
      }
    }
    throw new ManifestException(origin + ": " + String.join("; ", problems));
  }

  /** Turns a JSON pointer like {@code /operations/2/agent/retry} into "operation 'x': field 'agent.retry'". */
  static String describe(JsonObject json, OutputUnit error) {
    String pointer = error.getInstanceLocation() == null ? "" : error.getInstanceLocation();
    String[] parts = pointer.isEmpty() || "#".equals(pointer) ? new String[0]
        : pointer.replaceFirst("^#?/", "").split("/");
    StringBuilder where = new StringBuilder();
    int fieldStart = 0;
    if (parts.length >= 2 && "operations".equals(parts[0]) && parts[1].matches("\\d+")) {
      int index = Integer.parseInt(parts[1]);
      JsonArray ops = json.getValue("operations") instanceof JsonArray a ? a : new JsonArray();
      Object op = index < ops.size() ? ops.getValue(index) : null;
      String name = op instanceof JsonObject o && o.getValue("name") instanceof String s ? s : null;
      where.append(name == null ? "operation #" + (index + 1) : "operation '" + name + "'");
      fieldStart = 2;
    }
    if (parts.length > fieldStart) {
      if (where.length() > 0) {
        where.append(": ");
      }
      where.append("field '").append(String.join(".", java.util.Arrays.copyOfRange(parts, fieldStart, parts.length)))
          .append("'");
    }
    String message = SchemaErrors.humanize(error.getError());
    return (where.length() == 0 ? "" : where + ": ") + message;
  }

  private static JsonObject loadSchema() {
    try (InputStream in = ManifestParser.class.getResourceAsStream(SCHEMA_RESOURCE)) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("manifest schema " + SCHEMA_RESOURCE + " is missing from the classpath", e);
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "unreadable";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
