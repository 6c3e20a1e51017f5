package dev.ratchet.runtime.agent;

import dev.ratchet.runtime.ToolCatalog;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Objects;

/** A tool as a model is told about it: name, description and the JSON Schema of its arguments. */
public record ToolSpec(String name, String description, JsonObject inputSchema) {

  public ToolSpec {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    inputSchema = inputSchema == null ? new JsonObject().put("type", "object") : inputSchema;
  }

  /** The specifications of every tool in an agent's catalogue, in catalogue order. */
  public static List<ToolSpec> of(ToolCatalog catalog) {
    return catalog.entries().stream()
        .map(e -> new ToolSpec(e.tool().name(), e.tool().description(), e.tool().inputSchema()))
        .toList();
  }
}
