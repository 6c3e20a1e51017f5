package dev.ratchet.server.config.impl;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.connectors.OpenApiWarning;
import dev.ratchet.connectors.openapi.OpenApiDocument;
import dev.ratchet.connectors.SlackConnector;
import dev.ratchet.connectors.mcp.McpServerConfig;
import dev.ratchet.connectors.mcp.McpToolPin;
import dev.ratchet.connectors.mcp.McpToolSource;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.ToolSource;
import dev.ratchet.server.config.AgentFileError;
import dev.ratchet.server.config.AgentFileError.Kind;
import dev.ratchet.server.config.AgentModels;
import dev.ratchet.server.config.ToolProviders;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Resolves one schema-valid agent file into an {@link AgentDefinition}: reads each OpenAPI document,
 * checks each operation and connection, starts each MCP server and lists its tools, lists each tool
 * provider's catalogue, builds each approval rule. Every problem is collected, with its line; what
 * was started is kept so that it can be closed when any file of the directory fails.
 */
public final class AgentFileResolver implements Findings {

  private static final List<String> SLACK_OPERATIONS = List.of("postChannelMessage", "postThreadReply", "addReaction",
      "listThreadMessages", "getThreadReply");
  private static final java.util.regex.Pattern CREDENTIAL_NAME = java.util.regex.Pattern.compile(
      "authorization|token|secret|password|api[-_]?key|credential|cookie");

  private final Vertx vertx;
  private final String file;
  private final LocatedDocument doc;
  private final Connections connections;
  private final AgentModels models;
  private final List<AgentFileError> errors = new ArrayList<>();
  private final List<AgentFileError> warnings = new ArrayList<>();
  private final List<Supplier<Future<?>>> opened = new ArrayList<>();

  public AgentFileResolver(Vertx vertx, String file, LocatedDocument doc, Connections connections, AgentModels models) {
    this.vertx = vertx;
    this.file = file;
    this.doc = doc;
    this.connections = connections;
    this.models = models;
  }

  public List<AgentFileError> errors() {
    return errors;
  }

  /** What is worth knowing about a file that loads: operations left out, a catalogue larger than models take. */
  public List<AgentFileError> warnings() {
    return warnings;
  }

  /** Closes what resolving started (MCP servers, HTTP clients). */
  public Future<Void> close() {
    List<Future<?>> closing = new ArrayList<>();
    opened.forEach(c -> {
      try {
        closing.add(c.get());
      } catch (RuntimeException e) {
        // closing anyway
      }
    });
    return Future.join(closing).mapEmpty();
  }

  /** The agent, or null when the file has a problem ({@link #errors()}). */
  public Future<AgentDefinition> resolve() {
    JsonObject root = doc.root();
    JsonArray tools = root.getJsonArray("tools", new JsonArray());
    List<Future<ToolSource>> sources = new ArrayList<>();
    for (int i = 0; i < tools.size(); i++) {
      JsonObject entry = tools.getJsonObject(i);
      String at = "/tools/" + i;
      Future<ToolSource> source;
      try {
        source = entry.containsKey("openapi") ? openApi(entry, at)
            : entry.containsKey("mcp") ? mcp(entry, at)
            : entry.containsKey("slack") ? slack(entry.getJsonObject("slack"), at + "/slack")
            : provider(entry.containsKey(ToolProviders.COMPOSIO) ? ToolProviders.COMPOSIO : ToolProviders.ARCADE,
                entry, at);
      } catch (RuntimeException e) {
        error(at, String.valueOf(e.getMessage()));
        source = Future.succeededFuture();
      }
      sources.add(source.otherwise(err -> {
        error(at, String.valueOf(err.getMessage()));
        return null;
      }));
    }
    return Future.join(sources).transform(ignored -> {
      AgentDefinition.Builder agent = AgentDefinition.builder(root.getString("agent")).origin(origin("/agent"))
          .maxTurns(root.getInteger("maxTurns", models.defaultMaxTurns()))
          .systemPrompt(root.getString("systemPrompt"))
          .askForOpenWorldTools("ask".equals(root.getJsonObject("policies", new JsonObject()).getString("openWorld")));
      String model = root.getString("model");
      if (model != null) {
        try {
          agent.model(models.model(model));
        } catch (RuntimeException e) {
          error("/model", String.valueOf(e.getMessage()));
        }
      }
      for (int i = 0; i < sources.size(); i++) {
        ToolSource source = sources.get(i).result();
        if (source != null) {
          agent.toolSource(source, origin("/tools/" + i));
        }
      }
      if (!errors.isEmpty()) {
        return Future.succeededFuture(null);
      }
      AgentDefinition definition = agent.build();
      return ToolCatalog.resolve(vertx, definition).map(c -> {
        CatalogueSize.check(c, this);
        return definition;
      }).otherwise(err -> {
        error("/tools", String.valueOf(err.getMessage()));
        return null;
      });
    });
  }

  private Future<ToolSource> openApi(JsonObject entry, String at) {
    String spec = entry.getString("openapi");
    Connection connection = connection(entry.getString("connection"), at + "/connection");
    boolean remote = spec.startsWith("https://") || spec.startsWith("http://");
    Future<String> text = remote ? fetch(spec) : Future.succeededFuture();
    return text.transform(ar -> {
      if (ar.failed()) {
        error(Kind.SOURCE, at + "/openapi", "cannot read " + spec + " (" + reason(ar.cause()) + ")");
        return Future.succeededFuture();
      }
      if (connection == null) {
        // the operations are checked all the same, so that one run reports every problem of the file
        return vertx.executeBlocking(() -> remote ? OpenApiDocument.parse("api", ar.result(), spec)
            : OpenApiDocument.load("api", Path.of(spec))).transform(read -> {
              if (read.succeeded()) {
                OperationSelection.select(entry, at, spec, read.result().operationIds(), read.result()::tags, this);
              } else {
                error(Kind.SOURCE, at + "/openapi", reason(read.cause()));
              }
              return Future.succeededFuture();
            });
      }
      String connectorId = connection.configString("connectorId",
          connection.name().replace('-', '_').toLowerCase(Locale.ROOT));
      return vertx.executeBlocking(() -> remote
              ? OpenApiConnector.parse(vertx, connectorId, ar.result(), spec, connection)
              : OpenApiConnector.load(vertx, connectorId, Path.of(spec), connection))
          .transform(parsed -> {
            if (parsed.failed()) {
              error(Kind.SOURCE, at + "/openapi", reason(parsed.cause()));
              return Future.succeededFuture();
            }
            OpenApiConnector connector = parsed.result();
            opened.add(() -> {
              connector.close();
              return Future.succeededFuture();
            });
            OpenApiDocument document = connector.document();
            return Future.succeededFuture(ConnectorEntry.tools(entry, at, new ConnectorEntry.Connector(spec,
                connector.operationIds(), document::tags, id -> refusal(document, id), connector::operation,
                connection.name()), this));
          });
    });
  }

  private static String refusal(OpenApiDocument document, String operationId) {
    List<OpenApiWarning> problems = document.problems(operationId);
    return problems.isEmpty() ? null : "operation '" + operationId + "' cannot be offered because it depends on what"
        + " is not supported: " + String.join("; ", problems.stream().map(OpenApiWarning::toString).toList());
  }

  private Future<ToolSource> slack(JsonObject entry, String at) {
    Connection connection = connection(entry.getString("connection"), at + "/connection");
    if (connection == null) {
      return Future.succeededFuture();
    }
    SlackConnector slack;
    try {
      slack = SlackConnector.connect(vertx, connection);
    } catch (RuntimeException e) {
      error(Kind.SOURCE, at + "/connection", reason(e));
      return Future.succeededFuture();
    }
    opened.add(() -> {
      slack.close();
      return Future.succeededFuture();
    });
    return Future.succeededFuture(ConnectorEntry.tools(entry, at, new ConnectorEntry.Connector("the Slack connector",
        SLACK_OPERATIONS, id -> List.of(), id -> null, (id, override) -> slack.operation(id), connection.name()), this));
  }

  private Future<ToolSource> provider(String kind, JsonObject entry, String at) {
    Connection connection = connection(entry.getJsonObject(kind).getString("connection"), at + "/" + kind
        + "/connection");
    if (connection == null) {
      return Future.succeededFuture();
    }
    return new ProviderEntry(vertx, kind, entry, at, this::error).resolve(connection);
  }

  private Future<ToolSource> mcp(JsonObject entry, String at) {
    JsonObject server = entry.getJsonObject("mcp");
    JsonArray command = server.getJsonArray("command");
    String name = server.getString("name", defaultMcpName(server));
    McpServerConfig.Builder config;
    if (command != null) {
      List<String> args = new ArrayList<>();
      command.forEach(a -> args.add(String.valueOf(a)));
      config = McpServerConfig.stdio(name, args.get(0), args.subList(1, args.size()).toArray(String[]::new));
    } else {
      config = McpServerConfig.http(name, server.getString("url"));
    }
    int before = errors.size();
    for (Map.Entry<String, Object> e : server.getJsonObject("env", new JsonObject())) {
      String value = secretOrPlain(String.valueOf(e.getValue()), LocatedDocument.pointer(at + "/mcp/env", e.getKey()));
      if (value == null) {
        config.env(e.getKey(), SecretReferences.secret(String.valueOf(e.getValue()), connections));
      } else {
        config.env(e.getKey(), value);
      }
    }
    for (Map.Entry<String, Object> e : server.getJsonObject("headers", new JsonObject())) {
      String value = secretOrPlain(String.valueOf(e.getValue()),
          LocatedDocument.pointer(at + "/mcp/headers", e.getKey()));
      if (value == null) {
        config.header(e.getKey(), SecretReferences.secret(String.valueOf(e.getValue()), connections));
      } else {
        config.header(e.getKey(), value);
      }
    }
    JsonObject pins = entry.getJsonObject("pin", new JsonObject());
    for (Map.Entry<String, Object> e : pins) {
      JsonObject pin = (JsonObject) e.getValue();
      String pinAt = LocatedDocument.pointer(at + "/pin", e.getKey());
      EffectClass effect = pin.containsKey("effect") ? EffectClass.fromWireName(pin.getString("effect")) : null;
      ApprovalRule rule = pin.containsKey("approval") ? ApprovalRules.of(pin.getValue("approval"), pinAt + "/approval", this)
          : null;
      config.pin(e.getKey(), new McpToolPin(effect, rule));
    }
    if (errors.size() > before) {
      return Future.succeededFuture();
    }
    McpToolSource source = McpToolSource.create(vertx, config.build());
    opened.add(source::close);
    String described = command != null ? String.join(" ", command.getList()) : server.getString("url");
    return source.connect().compose(v -> source.tools(vertx)).transform(ar -> {
      if (ar.failed()) {
        error(Kind.SOURCE, at + "/mcp", "the MCP server '" + described + "' did not start or list its tools ("
            + reason(ar.cause()) + ")");
        return Future.succeededFuture();
      }
      List<String> offered = ar.result().stream().map(Tool::name).toList();
      String list = " (tools: " + String.join(", ", offered) + ")";
      for (String pinned : pins.fieldNames()) {
        if (!offered.contains(pinned)) {
          error(Kind.REFERENCE, LocatedDocument.pointer(at + "/pin", pinned), "the MCP server offers no tool '" + pinned
              + "'" + list);
        }
      }
      JsonArray allow = entry.getJsonArray("allow");
      if (allow == null) {
        return Future.succeededFuture(source);
      }
      List<String> patterns = new ArrayList<>();
      for (int j = 0; j < allow.size(); j++) {
        String pattern = allow.getString(j);
        patterns.add(pattern);
        if (offered.stream().noneMatch(t -> AllowedTools.matches(pattern, t))) {
          error(Kind.REFERENCE, at + "/allow/" + j, "'" + pattern + "' matches no tool of the MCP server" + list);
        }
      }
      return Future.succeededFuture(new AllowedTools(source, patterns));
    });
  }

  /** The value when it holds no secret reference; null when it does (and its references resolve). */
  private String secretOrPlain(String value, String at) {
    if (!SecretReferences.hasReference(value)) {
      String name = at.substring(at.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
      if (!value.isEmpty() && CREDENTIAL_NAME.matcher(name).find()) {
        // the value is not repeated: it may be the very secret that must not be in the file
        error(at, "holds a credential written in the file; write ${secret:NAME} and configure the connection NAME"
            + " in the connections file or RATCHET_CONNECTION_* variables");
      }
      return value;
    }
    SecretReferences.problems(value, connections).forEach(p -> error(at, p));
    return null;
  }

  private static String defaultMcpName(JsonObject server) {
    String basis;
    JsonArray command = server.getJsonArray("command");
    if (command != null) {
      String last = String.valueOf(command.getValue(command.size() - 1));
      String first = String.valueOf(command.getValue(0));
      List<String> args = new ArrayList<>();
      command.forEach(a -> args.add(String.valueOf(a)));
      basis = args.stream().filter(a -> a.contains("server")).findFirst().orElse(last.startsWith("/") ? first : last);
    } else {
      try {
        basis = URI.create(server.getString("url")).getHost();
      } catch (RuntimeException e) {
        basis = "mcp";
      }
    }
    basis = basis.substring(basis.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9_-]", "-");
    basis = basis.isEmpty() ? "mcp" : basis;
    return basis.length() > 40 ? basis.substring(0, 40) : basis;
  }

  private Connection connection(String name, String at) {
    Optional<Connection> found = connections.find(name);
    if (found.isEmpty()) {
      error(Kind.REFERENCE, at, "connection '" + name + "' is not configured in the connections file or RATCHET_CONNECTION_*"
          + " variables (configured: " + (connections.isEmpty() ? "none" : String.join(", ", connections.names()))
          + ")");
      return null;
    }
    return found.get();
  }

  private Future<String> fetch(String url) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(new IllegalArgumentException("not a URL"));
    }
    String host = uri.getHost() == null ? "" : uri.getHost();
    if (url.startsWith("http://") && !(host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]"))) {
      return Future.failedFuture(new IllegalArgumentException("a document on another host is read over https only"));
    }
    WebClient client = WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false)
        .setConnectTimeout(10_000));
    return client.getAbs(url).timeout(30_000).send().transform(ar -> {
      client.close();
      if (ar.failed()) {
        return Future.failedFuture(ar.cause());
      }
      if (ar.result().statusCode() != 200) {
        return Future.failedFuture(new IllegalStateException("HTTP " + ar.result().statusCode()));
      }
      return Future.succeededFuture(ar.result().bodyAsString(StandardCharsets.UTF_8.name()));
    });
  }

  private static String reason(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  private String origin(String pointer) {
    return file + ":" + doc.line(pointer);
  }

  private void error(String pointer, String message) {
    error(Kind.OTHER, pointer, message);
  }

  @Override
  public synchronized void error(String kind, String pointer, String message) {
    errors.add(new AgentFileError(file, doc.line(pointer), LocatedDocument.field(pointer), message, kind));
  }

  @Override
  public synchronized int errorCount() {
    return errors.size();
  }

  @Override
  public synchronized void warning(String pointer, String message) {
    warnings.add(new AgentFileError(file, doc.line(pointer), LocatedDocument.field(pointer), message, Kind.WARNING));
  }
}
