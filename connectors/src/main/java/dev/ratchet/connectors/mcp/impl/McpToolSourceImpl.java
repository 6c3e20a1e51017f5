package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.runtime.SourceHealth;

import dev.ratchet.connectors.mcp.McpHealth;
import dev.ratchet.connectors.mcp.McpServerConfig;
import dev.ratchet.connectors.mcp.McpToolPin;
import dev.ratchet.connectors.mcp.McpToolSource;
import dev.ratchet.connectors.mcp.McpTransportKind;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolResult;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/** See {@link McpToolSource}. */
public final class McpToolSourceImpl implements McpToolSource {

  static final String TASKS_REQUIRED = "the server runs it only as a task (execution.taskSupport: required),"
      + " which Ratchet does not support yet";

  private final Vertx vertx;
  private final McpServerConfig config;
  private final McpConnection connection;
  private final McpCall call;
  private final String source;
  private volatile List<Tool> lastTools;
  private volatile Map<String, String> withheld = Map.of();
  private final List<Consumer<List<Tool>>> changeListeners = new CopyOnWriteArrayList<>();
  private final long healthTimer;

  public McpToolSourceImpl(Vertx vertx, McpServerConfig config) {
    this.vertx = vertx;
    this.config = config;
    this.connection = new McpConnection(vertx, config, this::toolsChanged);
    this.call = new McpCall(vertx, connection, config.name(),
        config.transport() == McpTransportKind.STREAMABLE_HTTP && !config.inFlightCheck().isZero()
            ? config.inFlightCheck() : null);
    this.source = "mcp:" + config.name();
    // known to the redactor before the first connect: another server may print them before this one starts
    vertx.executeBlocking(() -> {
      config.env().values().forEach(Redaction::remember);
      config.headers().values().forEach(Redaction::remember);
      return null;
    }, false);
    long every = config.healthCheckInterval().toMillis();
    this.healthTimer = every > 0 ? vertx.setPeriodic(every, id -> pingIfConnected()) : -1;
  }

  /** Only a live session is pinged: while disconnected, the reconnect loop is already at work. */
  private void pingIfConnected() {
    McpAsyncClient client = connection.client();
    if (client != null) {
      Future.fromCompletionStage(client.ping().timeout(config.requestTimeout()).toFuture(), vertx.getOrCreateContext())
          .onFailure(err -> connection.lost(client, "ping failed: " + connection.describe(err)));
    }
  }

  @Override
  public String name() {
    return source;
  }

  @Override
  public McpServerConfig config() {
    return config;
  }

  @Override
  public Future<Void> connect() {
    return connection.connect();
  }

  @Override
  public Future<SourceHealth> sourceHealth() {
    return checkHealth().map(h -> h.healthy() ? healthyWithNotes()
        : SourceHealth.unhealthy(name(), h.lastError() == null ? "not connected" : h.lastError()));
  }

  /** Healthy, with the tools the server has that are not offered and why, for the catalogue. */
  private SourceHealth healthyWithNotes() {
    Map<String, String> notOffered = withheld;
    if (notOffered.isEmpty()) {
      return SourceHealth.healthy(name());
    }
    StringBuilder sb = new StringBuilder("not offered: ");
    notOffered.forEach((tool, why) -> sb.append(sb.length() > 13 ? "; " : "").append(tool).append(" (").append(why)
        .append(')'));
    return new SourceHealth(name(), "healthy", sb.toString());
  }

  @Override
  public McpHealth health() {
    return connection.health();
  }

  @Override
  public Future<McpHealth> checkHealth() {
    return connection.connect().compose(v -> {
      McpAsyncClient client = connection.client();
      if (client == null) {
        return Future.succeededFuture(connection.health());
      }
      return Future.fromCompletionStage(client.ping().timeout(config.requestTimeout()).toFuture(),
              vertx.getOrCreateContext())
          .transform(ar -> {
            if (ar.failed()) {
              connection.lost(client, "ping failed: " + connection.describe(ar.cause()));
            }
            return Future.succeededFuture(connection.health());
          });
    }, err -> Future.succeededFuture(connection.health()));
  }

  @Override
  public Future<Void> close() {
    if (healthTimer >= 0) {
      vertx.cancelTimer(healthTimer);
    }
    return connection.close();
  }

  /** While the server is away, the tools last listed stay offered: calling them fails as "did not run". */
  @Override
  public Future<List<Tool>> tools(Vertx ignored) {
    return connection.connect().compose(v -> listTools(), err -> {
      List<Tool> cached = lastTools;
      // never listed: the server may still be starting, and registration waits for it within startupTimeout
      return cached != null ? Future.succeededFuture(cached)
          : connection.connectWhileStarting(err).compose(v -> listTools());
    });
  }

  private Future<List<Tool>> listTools() {
    McpAsyncClient client = connection.client();
    if (client == null) {
      List<Tool> cached = lastTools;
      return cached != null ? Future.succeededFuture(cached)
          : Future.failedFuture("MCP server '" + config.name() + "' is not connected");
    }
    List<Tool> tools = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Map<String, String> notOffered = new LinkedHashMap<>();
    return page(client, null, tools, names, notOffered).compose(v -> {
      List<String> unknownPins = config.pins().keySet().stream().filter(p -> !names.contains(p)).toList();
      if (!unknownPins.isEmpty()) {
        // a misspelt pin would leave the tool it meant to restrict on its annotations, unnoticed
        return Future.failedFuture(new IllegalArgumentException("MCP server '" + config.name() + "' has no tool "
            + String.join(", ", unknownPins.stream().map(n -> "'" + n + "'").toList())
            + " named by a pin; its tools: " + names.stream().sorted().toList()));
      }
      return Future.succeededFuture();
    }).map(v -> {
      McpSchema.ServerCapabilities caps = client.getServerCapabilities();
      if (config.offerResources() && caps != null && caps.resources() != null) {
        tools.addAll(resourceTools());
      }
      if (config.offerPrompts() && caps != null && caps.prompts() != null) {
        tools.add(listPromptsTool());
        tools.add(promptTool());
      }
      withheld = Map.copyOf(notOffered);
      lastTools = List.copyOf(tools);
      return lastTools;
    });
  }

  @Override
  public void onToolsChanged(Consumer<List<Tool>> listener) {
    changeListeners.add(java.util.Objects.requireNonNull(listener));
  }

  @Override
  public void toolsChangedHandler(Runnable listener) {
    java.util.Objects.requireNonNull(listener);
    changeListeners.add(tools -> listener.run());
  }

  /** The server's tools changed: list them again (pins and task support checked anew) and tell the listeners. */
  private void toolsChanged() {
    vertx.runOnContext(v -> listTools().onSuccess(tools -> changeListeners.forEach(l -> {
      try {
        l.accept(tools);
      } catch (RuntimeException e) {
        // one listener's failure is not the source's
      }
    })));
  }

  @Override
  public Map<String, String> withheldTools() {
    return withheld;
  }

  private Future<Void> page(McpAsyncClient client, String cursor, List<Tool> into, Set<String> names,
                            Map<String, String> notOffered) {
    ObservedTransport transport = connection.transport();
    return Future.fromCompletionStage(client.listTools(cursor).timeout(config.requestTimeout()).toFuture(),
            vertx.getOrCreateContext())
        .compose(result -> {
          for (McpSchema.Tool remote : result.tools()) {
            names.add(remote.name());
            String taskSupport = transport == null ? null : transport.taskSupport(remote.name());
            if ("required".equals(taskSupport)) {
              notOffered.put(config.toolPrefix() + remote.name(), TASKS_REQUIRED);
            } else {
              into.add(toTool(remote));
            }
          }
          String next = result.nextCursor();
          return next == null || next.isEmpty() ? Future.succeededFuture()
              : page(client, next, into, names, notOffered);
        });
  }

  private Tool toTool(McpSchema.Tool remote) {
    McpToolPin pin = config.pins().get(remote.name());
    EffectClass effect = McpEffects.effectClass(remote.annotations(), pin);
    ApprovalRule approval = McpEffects.approval(remote.annotations(), pin, effect);
    return new McpTool(config.toolPrefix() + remote.name(), remote, effect, approval, config.requestTimeout(), source,
        call, this::checkCredentials);
  }

  /** Reading each header secret first turns a missing credential into "did not run" before anything is sent. */
  private void checkCredentials() {
    config.headers().values().forEach(Secret::reveal);
  }

  private String featureToolName(String suffix) {
    return config.toolPrefix() + config.name().replace('-', '_') + "_" + suffix;
  }

  private List<Tool> resourceTools() {
    Tool list = pagedList("list_resources",
        "List the resources of MCP server '" + config.name() + "' (uri, name, description, mimeType).",
        "resources/list", McpAsyncClient::listResources, "resources", result -> result.resources().stream()
            .map(r -> new JsonObject().put("uri", r.uri()).put("name", r.name()).put("description", r.description())
                .put("mimeType", r.mimeType())).toList(), McpSchema.ListResourcesResult::nextCursor);
    JsonObject readSchema = new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put("uri", new JsonObject().put("type", "string")))
        .put("required", new JsonArray().add("uri"));
    Tool read = new McpReadTool(featureToolName("read_resource"),
        "Read one resource of MCP server '" + config.name() + "' by its uri.",
        readSchema, source, inv -> call.run(inv, EffectClass.READ, "resources/read",
            client -> client.readResource(new McpSchema.ReadResourceRequest(inv.arguments().getString("uri"))),
            result -> {
              JsonArray contents = new JsonArray();
              for (McpSchema.ResourceContents c : result.contents()) {
                contents.add(JsonBridge.toJsonObject(c));
              }
              return ToolResult.success(Redaction.scrubValue(new JsonObject().put("contents", contents)));
            }));
    Tool templates = pagedList("list_resource_templates",
        "List the resource templates of MCP server '" + config.name() + "' (uriTemplate, name, description, mimeType):"
            + " fill one in to get a uri for " + featureToolName("read_resource") + ".",
        "resources/templates/list", McpAsyncClient::listResourceTemplates, "resourceTemplates",
        result -> result.resourceTemplates().stream().map(JsonBridge::toJsonObject).toList(),
        McpSchema.ListResourceTemplatesResult::nextCursor);
    return List.of(list, templates, read);
  }

  private Tool listPromptsTool() {
    return pagedList("list_prompts",
        "List the prompts of MCP server '" + config.name() + "' (name, description, arguments), for "
            + featureToolName("get_prompt") + ".",
        "prompts/list", McpAsyncClient::listPrompts, "prompts",
        result -> result.prompts().stream().map(JsonBridge::toJsonObject).toList(), McpSchema.ListPromptsResult::nextCursor);
  }

  /**
   * A read tool over an MCP listing that pages by cursor: the page's items under {@code field}, with
   * the {@code nextCursor} that asks for the next page.
   */
  private <R> Tool pagedList(String suffix, String description, String method,
                             BiFunction<McpAsyncClient, String, Mono<R>> list, String field,
                             Function<R, List<JsonObject>> items, Function<R, String> nextCursor) {
    JsonObject schema = new JsonObject().put("type", "object").put("properties", new JsonObject()
        .put("cursor", new JsonObject().put("type", "string").put("description", "nextCursor of a previous page")));
    return new McpReadTool(featureToolName(suffix), description, schema, source,
        inv -> call.run(inv, EffectClass.READ, method,
            client -> list.apply(client, inv.arguments() == null ? null : inv.arguments().getString("cursor")),
            result -> ToolResult.success(Redaction.scrubValue(new JsonObject()
                .put(field, new JsonArray(new ArrayList<Object>(items.apply(result))))
                .put("nextCursor", nextCursor.apply(result))))));
  }

  private Tool promptTool() {
    JsonObject schema = new JsonObject().put("type", "object")
        .put("properties", new JsonObject()
            .put("name", new JsonObject().put("type", "string"))
            .put("arguments", new JsonObject().put("type", "object")
                .put("additionalProperties", new JsonObject().put("type", "string"))))
        .put("required", new JsonArray().add("name"));
    return new McpReadTool(featureToolName("get_prompt"),
        "Get a prompt of MCP server '" + config.name() + "' by name, with its arguments filled in.",
        schema, source, inv -> call.run(inv, EffectClass.READ, "prompts/get", client -> {
          JsonObject args = inv.arguments().getJsonObject("arguments", new JsonObject());
          return client.getPrompt(new McpSchema.GetPromptRequest(inv.arguments().getString("name"),
              JsonBridge.toMap(args)));
        }, result -> ToolResult.success(Redaction.scrubValue(JsonBridge.toJsonObject(result)))));
  }

  @Override
  public String toString() {
    return "McpToolSource{" + config + "}";
  }
}
