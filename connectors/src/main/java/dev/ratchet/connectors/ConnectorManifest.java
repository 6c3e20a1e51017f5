package dev.ratchet.connectors;

import dev.ratchet.connectors.impl.ManifestParser;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A connector's {@code ratchet-connector.json}: its id, version and operations. Manifests are
 * validated against {@code /dev/ratchet/connectors/ratchet-connector.schema.json} when loaded.
 * Loading reads a small file and should run at start-up, not on an event loop.
 */
public final class ConnectorManifest {

  /** The file name a connector ships its manifest under. */
  public static final String FILE_NAME = "ratchet-connector.json";

  private final String connectorId;
  private final String version;
  private final String description;
  private final Map<String, OperationDefinition> operations;
  private final String origin;

  public ConnectorManifest(String connectorId, String version, String description,
                           List<OperationDefinition> operations, String origin) {
    this.connectorId = Objects.requireNonNull(connectorId, "connectorId");
    this.version = Objects.requireNonNull(version, "version");
    this.description = description == null ? "" : description;
    this.origin = origin == null ? "manifest of " + connectorId : origin;
    Map<String, OperationDefinition> byName = new LinkedHashMap<>();
    for (OperationDefinition op : operations) {
      if (byName.putIfAbsent(op.name(), op) != null) {
        throw new ManifestException(this.origin + ": operation '" + op.name() + "' is defined twice");
      }
    }
    this.operations = java.util.Collections.unmodifiableMap(byName);
  }

  public static ConnectorManifest load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ManifestException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")", e);
    }
    return ManifestParser.parse(text, file.toString());
  }

  /** Loads a manifest shipped on the classpath, for example {@code /dev/ratchet/connectors/slack/ratchet-connector.json}. */
  public static ConnectorManifest loadResource(String resource) {
    String name = resource.startsWith("/") ? resource : "/" + resource;
    try (InputStream in = ConnectorManifest.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new ManifestException("classpath:" + name + ": not found");
      }
      return ManifestParser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "classpath:" + name);
    } catch (IOException e) {
      throw new ManifestException("classpath:" + name + ": cannot be read", e);
    }
  }

  /** Validates and reads a manifest already parsed as JSON; {@code origin} names it in errors. */
  public static ConnectorManifest fromJson(JsonObject json, String origin) {
    return ManifestParser.parse(json, origin);
  }

  public String connectorId() {
    return connectorId;
  }

  public String version() {
    return version;
  }

  public String description() {
    return description;
  }

  /** Where the manifest came from (a file path or {@code classpath:...}); used in error messages. */
  public String origin() {
    return origin;
  }

  public List<OperationDefinition> operations() {
    return List.copyOf(operations.values());
  }

  /** The named operation; an unknown name fails with a message listing the known ones. */
  public OperationDefinition operation(String name) {
    OperationDefinition op = operations.get(name);
    if (op == null) {
      throw new IllegalArgumentException("connector '" + connectorId + "' has no operation '" + name
          + "' (known: " + String.join(", ", operations.keySet()) + ")");
    }
    return op;
  }

  @Override
  public String toString() {
    return "ConnectorManifest[" + connectorId + " " + version + ", " + operations.size() + " operations]";
  }
}
