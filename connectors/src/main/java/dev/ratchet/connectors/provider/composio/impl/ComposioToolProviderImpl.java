package dev.ratchet.connectors.provider.composio.impl;

import dev.ratchet.connectors.provider.AuthStatus;
import dev.ratchet.connectors.provider.Authorization;
import dev.ratchet.connectors.provider.AuthorizeOptions;
import dev.ratchet.connectors.provider.ConnectionField;
import dev.ratchet.connectors.provider.ConnectionRef;
import dev.ratchet.connectors.provider.ListConnectionsOptions;
import dev.ratchet.connectors.provider.ListToolsOptions;
import dev.ratchet.connectors.provider.ProviderCapabilities;
import dev.ratchet.connectors.provider.ProviderConnection;
import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.connectors.provider.ProviderHealth;
import dev.ratchet.connectors.provider.ProviderPage;
import dev.ratchet.connectors.provider.ProviderToolConfig;
import dev.ratchet.connectors.provider.ProviderToolInfo;
import dev.ratchet.connectors.provider.ProviderToolkit;
import dev.ratchet.connectors.provider.ResolveOptions;
import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.connectors.provider.composio.ComposioToolProvider;
import dev.ratchet.connectors.provider.impl.BaseToolProvider;
import dev.ratchet.connectors.provider.impl.EffectHints;
import dev.ratchet.connectors.provider.impl.HttpOutcomes;
import dev.ratchet.connectors.provider.impl.ProviderTool;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** See {@link ComposioToolProvider}. */
public final class ComposioToolProviderImpl extends BaseToolProvider implements ComposioToolProvider {

  private static final Kind KIND = new Kind("composio", "Composio",
      "Hundreds of integration tools with managed authentication", new ProviderCapabilities(true, true, true, true, true),
      DEFAULT_BASE_URL);

  private final ComposioMetaTools meta;
  private final ComposioReadiness readiness;

  public ComposioToolProviderImpl(Vertx vertx, ToolProviderOptions options) {
    super(vertx, KIND, options, (req, key) -> req.putHeader("x-api-key", key));
    this.meta = new ComposioMetaTools(vertx, this);
    this.readiness = new ComposioReadiness(http, this::authConfigs);
  }

  @Override
  public Future<ProviderPage<ProviderToolkit>> listToolkits() {
    return listToolkits(null);
  }

  @Override
  public Future<ProviderPage<ProviderToolkit>> listToolkits(String cursor) {
    List<ProviderToolkit> items = new ArrayList<>();
    if (cursor == null && allow.toolkitAllowed(META_TOOLKIT)) {
      items.add(new ProviderToolkit(META_TOOLKIT, "Composio", "Connect accounts from the conversation"));
    }
    return toolkitPages(cursor, 0, items).map(next -> new ProviderPage<>(items, next));
  }

  /** Reads pages until one has an allowed toolkit, so that a page is empty only at the end. */
  private Future<String> toolkitPages(String cursor, int pages, List<ProviderToolkit> into) {
    Map<String, String> query = new HashMap<>();
    query.put("cursor", cursor);
    return http.json(HttpMethod.GET, "/api/v3/toolkits", query, null).compose(json -> {
      for (JsonObject t : objects(json.getJsonArray("items"))) {
        String slug = t.getString("slug");
        if (allow.toolkitAllowed(slug) && !META_TOOLKIT.equalsIgnoreCase(slug)) {
          JsonObject m = t.getJsonObject("meta", new JsonObject());
          into.add(new ProviderToolkit(slug, t.getString("name", slug), m.getString("description")));
        }
      }
      String next = ComposioPages.cursor(json);
      return next == null || !into.isEmpty() || pages + 1 >= ComposioPages.MAX_PAGES ? Future.succeededFuture(next)
          : toolkitPages(next, pages + 1, into);
    });
  }

  @Override
  public Future<ProviderPage<ProviderToolInfo>> listTools(ListToolsOptions o) {
    ListToolsOptions opts = o == null ? ListToolsOptions.all() : o;
    if (opts.toolkit() != null && !allow.toolkitAllowed(opts.toolkit())) {
      return Future.succeededFuture(new ProviderPage<>(List.of(), null));
    }
    List<ProviderToolInfo> items = new ArrayList<>();
    if (opts.cursor() == null && (opts.toolkit() == null || META_TOOLKIT.equalsIgnoreCase(opts.toolkit()))) {
      meta.infos().stream().filter(t -> allow.toolAllowed(META_TOOLKIT, t.slug()))
          .filter(t -> matches(t, opts.search())).forEach(items::add);
    }
    if (META_TOOLKIT.equalsIgnoreCase(opts.toolkit())) {
      return Future.succeededFuture(new ProviderPage<>(items, null));
    }
    return toolPages(opts, opts.cursor(), 0, items).map(next -> new ProviderPage<>(items, next));
  }

  /** Reads pages until one has an allowed tool, so that a page is empty only at the end. */
  private Future<String> toolPages(ListToolsOptions opts, String cursor, int pages, List<ProviderToolInfo> into) {
    Map<String, String> query = new HashMap<>();
    query.put("toolkit_slug", opts.toolkit());
    query.put("search", opts.search());
    query.put("cursor", cursor);
    query.put("limit", opts.pageSize() == null ? null : String.valueOf(opts.pageSize()));
    return http.json(HttpMethod.GET, "/api/v3/tools", query, null).compose(json -> {
      for (JsonObject t : objects(json.getJsonArray("items"))) {
        String toolkit = toolkitOf(t);
        if (allow.toolAllowed(toolkit, t.getString("slug"))) {
          EffectHints hints = hints(t);
          into.add(new ProviderToolInfo(t.getString("slug"), t.getString("name"), t.getString("description"),
              toolkit, hints.effectClass(), hints.approvalRecommended()));
        }
      }
      String next = ComposioPages.cursor(json);
      return next == null || !into.isEmpty() || pages + 1 >= ComposioPages.MAX_PAGES ? Future.succeededFuture(next)
          : toolPages(opts, next, pages + 1, into);
    });
  }

  @Override
  public Future<JsonObject> getToolSchema(String slug) {
    if (meta.handles(slug)) {
      return Future.succeededFuture(allow.toolAllowed(META_TOOLKIT, slug) ? meta.schema(slug) : null);
    }
    return fetchTool(slug).map(t -> t == null || !allow.toolAllowed(toolkitOf(t), slug) ? null : schemaOf(t));
  }

  private Future<JsonObject> fetchTool(String slug) {
    return http.json(HttpMethod.GET, "/api/v3/tools/" + slug, Map.of(), null)
        .recover(err -> RatchetException.is(err, ErrorCode.NOT_FOUND)
            ? Future.succeededFuture(null) : Future.failedFuture(err));
  }

  @Override
  protected Future<Tool> resolve(String slug, ProviderToolConfig config, String userId) {
    if (meta.handles(slug)) {
      return allow.toolAllowed(META_TOOLKIT, slug) ? Future.succeededFuture(meta.resolve(slug, userId, config))
          : Future.failedFuture(notAllowed("tool " + slug));
    }
    return fetchTool(slug).compose(t -> {
      if (t == null) {
        return Future.failedFuture(new ProviderException(ErrorCode.UNKNOWN_TOOL, "composio has no tool " + slug));
      }
      String toolkit = toolkitOf(t);
      if (!allow.toolAllowed(toolkit, slug)) {
        return Future.failedFuture(notAllowed("tool " + slug));
      }
      String connectionId = config == null ? null : config.connectionId();
      Future<Void> owned = connectionId == null ? Future.succeededFuture() : checkOwner(connectionId, toolkit, userId);
      return owned.map(v -> tool(t, toolkit, config, userId, connectionId));
    });
  }

  /** A configured connection must be the caller's own: a tenant never runs a tool with another's account. */
  private Future<Void> checkOwner(String connectionId, String toolkit, String userId) {
    return ownAccount(connectionId, userId).compose(acc -> {
      String accToolkit = acc == null ? null : toolkitOf(acc);
      if (acc == null || (accToolkit != null && !accToolkit.equalsIgnoreCase(toolkit))) {
        return Future.failedFuture(new ProviderException(ErrorCode.CONNECTION_NOT_OWNED,
            "connection " + connectionId + " does not belong to this caller for toolkit " + toolkit));
      }
      return Future.succeededFuture();
    });
  }

  private Tool tool(JsonObject t, String toolkit, ProviderToolConfig config, String userId, String connectionId) {
    String slug = t.getString("slug");
    EffectHints hints = hints(t);
    EffectClass effect = hints.effectClass(config);
    return new ProviderTool(ProviderTool.toolName(slug), t.getString("description"), schemaOf(t), effect,
        hints.approval(config), options.requestTimeout(), source(), userId,
        inv -> execute(slug, t.getString("version"), effect, userId, connectionId, inv),
        inv -> readiness.whyNot(toolkit, userId, connectionId));
  }

  /** Runs the version whose schema the model saw: a newer release may expect other arguments. */
  private Future<ToolResult> execute(String slug, String version, EffectClass effect, String userId,
                                     String connectionId, ToolInvocation inv) {
    JsonObject body = new JsonObject().put("arguments", inv.arguments() == null ? new JsonObject() : inv.arguments())
        .put("user_id", userId);
    if (version != null) {
      body.put("version", version);
    }
    if (connectionId != null) {
      body.put("connected_account_id", connectionId);
    }
    return http.send(HttpMethod.POST, "/api/v3/tools/execute/" + slug, Map.of(), body).map(resp -> {
      ToolResult byStatus = HttpOutcomes.forStatus(resp, effect, "composio answered " + resp.statusCode() + ": "
          + http.errorText(resp));
      if (byStatus != null) {
        return byStatus;
      }
      JsonObject json = resp.bodyAsJsonObject();
      if (json != null && json.getBoolean("successful", false)) {
        return ToolResult.success(Redaction.scrubValue(json.getValue("data")));
      }
      Object error = json == null ? "empty answer" : json.getValue("error");
      return ToolResult.rejected(Redaction.scrub("composio reported an error: " + error));
    });
  }

  // --- authorization and connections ---

  @Override
  public Future<Authorization> authorize(AuthorizeOptions o) {
    if (o.toolkit() == null || !allow.toolkitAllowed(o.toolkit())) {
      return Future.failedFuture(notAllowed("toolkit " + o.toolkit()));
    }
    return userId(o.identity()).compose(userId -> connectionState(o.toolkit(), o.fields())
            .compose(state -> createLink(o.toolkit(), userId, o.callbackUrl(), state)))
        .map(acc -> new Authorization(redirectUrl(acc), acc.getString("id")));
  }

  /** The field values as Composio's {@code connection.state}, checked against the toolkit's fields; null for none. */
  private Future<JsonObject> connectionState(String toolkit, Map<String, String> values) {
    if (values.isEmpty()) {
      return Future.succeededFuture(null);
    }
    return toolkitDetails(toolkit).map(details -> ComposioConnectionFields.state(toolkit, details, values));
  }

  private Future<JsonObject> toolkitDetails(String toolkit) {
    return http.json(HttpMethod.GET, "/api/v3/toolkits/" + toolkit, Map.of(), null);
  }

  Future<JsonObject> createLink(String toolkit, String userId, String callbackUrl) {
    return createLink(toolkit, userId, callbackUrl, null);
  }

  /**
   * Creates a pending connected account for {@code userId} with the toolkit's first auth config,
   * initiated with {@code state} (the connection-field values) when there is one.
   */
  Future<JsonObject> createLink(String toolkit, String userId, String callbackUrl, JsonObject state) {
    return authConfigs(toolkit).compose(items -> {
      if (items.isEmpty()) {
        return Future.failedFuture(new ProviderException(ErrorCode.PROVIDER_ERROR,
            "composio has no auth config for toolkit " + toolkit + ": create one in the Composio dashboard"));
      }
      JsonObject connection = new JsonObject().put("user_id", userId);
      if (callbackUrl != null) {
        connection.put("callback_url", callbackUrl);
      }
      if (state != null) {
        connection.put("state", state);
      }
      JsonObject body = new JsonObject().put("auth_config", new JsonObject().put("id", items.get(0).getString("id")))
          .put("connection", connection);
      return http.json(HttpMethod.POST, "/api/v3/connected_accounts", Map.of(), body);
    });
  }

  Future<List<JsonObject>> authConfigs(String toolkit) {
    return ComposioPages.all(http, "/api/v3/auth_configs", Map.of("toolkit_slug", toolkit));
  }

  /**
   * Where the user goes to connect: {@code connectionData.val.redirectUrl} of a new account,
   * {@code state.val.redirectUrl} of a listed one; the older top-level fields only when those are absent.
   */
  static String redirectUrl(JsonObject acc) {
    for (String holder : List.of("connectionData", "state")) {
      JsonObject val = acc.getJsonObject(holder, new JsonObject()).getJsonObject("val", new JsonObject());
      if (val.getString("redirectUrl") != null) {
        return val.getString("redirectUrl");
      }
    }
    return acc.getString("redirect_url", acc.getString("redirect_uri"));
  }

  @Override
  public Future<List<ConnectionField>> listConnectionFields(String toolkit) {
    if (!allow.toolkitAllowed(toolkit)) {
      return Future.failedFuture(notAllowed("toolkit " + toolkit));
    }
    return toolkitDetails(toolkit).map(ComposioConnectionFields::of);
  }

  @Override
  public Future<AuthStatus> getAuthStatus(String authId) {
    return http.json(HttpMethod.GET, "/api/v3/connected_accounts/" + authId, Map.of(), null).map(acc -> {
      String status = acc.getString("status", "").toUpperCase(Locale.ROOT);
      String state = switch (status) {
        case "ACTIVE" -> AuthStatus.COMPLETED;
        case "INITIATED", "INITIALIZING" -> AuthStatus.PENDING;
        default -> AuthStatus.FAILED;
      };
      return new AuthStatus(state, AuthStatus.COMPLETED.equals(state) ? acc.getString("id") : null);
    });
  }

  @Override
  public Future<Map<String, Boolean>> getConnectionStatus(List<ConnectionRef> items, ResolveOptions identity) {
    return userId(identity).compose(userId -> {
      Map<String, Boolean> out = new LinkedHashMap<>();
      Future<Void> chain = Future.succeededFuture();
      for (ConnectionRef ref : items) {
        chain = chain.compose(v -> ownAccount(ref.connectionId(), userId)
            .map(acc -> acc != null && "ACTIVE".equalsIgnoreCase(acc.getString("status"))
                && (ref.toolkit() == null || ref.toolkit().equalsIgnoreCase(toolkitOf(acc))))
            .map(connected -> {
              out.put(ref.connectionId(), connected);
              return null;
            }));
      }
      return chain.map(v -> out);
    });
  }

  /** The connected account when it belongs to {@code userId}; null when it is someone else's or missing. */
  private Future<JsonObject> ownAccount(String connectionId, String userId) {
    // Composio filters by owner: the account's own fields do not say reliably whose it is
    return ComposioPages.all(http, "/api/v3/connected_accounts",
            Map.of("user_ids", userId, "connected_account_ids", connectionId))
        .map(items -> items.stream().filter(a -> connectionId.equals(a.getString("id"))).findFirst().orElse(null));
  }

  @Override
  public Future<ProviderPage<ProviderConnection>> listConnections(ListConnectionsOptions o) {
    return userId(o.identity()).compose(userId -> {
      Map<String, String> query = new HashMap<>();
      query.put("user_ids", userId);
      query.put("toolkit_slugs", o.toolkit());
      query.put("cursor", o.cursor());
      return http.json(HttpMethod.GET, "/api/v3/connected_accounts", query, null).map(json -> new ProviderPage<>(
          connections(objects(json.getJsonArray("items")), userId), ComposioPages.cursor(json)));
    });
  }

  /** All of {@code userId}'s accounts for the toolkits (all toolkits when null), filtered by Composio by owner. */
  Future<List<JsonObject>> accountsOf(String userId, List<String> toolkits) {
    Map<String, String> query = new HashMap<>();
    query.put("user_ids", userId);
    query.put("toolkit_slugs", toolkits == null ? null : String.join(",", toolkits));
    return ComposioPages.all(http, "/api/v3/connected_accounts", query);
  }

  Future<List<ProviderConnection>> connectionsOf(String userId, List<String> toolkits) {
    return accountsOf(userId, toolkits).map(items -> connections(items, userId));
  }

  private List<ProviderConnection> connections(List<JsonObject> accounts, String userId) {
    List<ProviderConnection> items = new ArrayList<>();
    for (JsonObject acc : accounts) {
      if (allow.toolkitAllowed(toolkitOf(acc))) {
        String status = acc.getString("status");
        items.add(new ProviderConnection(acc.getString("id"), toolkitOf(acc), userId, status,
            "ACTIVE".equalsIgnoreCase(status)));
      }
    }
    return items;
  }

  @Override
  public Future<ProviderHealth> getHealth() {
    return health("/api/v3/toolkits", Map.of("limit", "1"));
  }

  @Override
  public Future<Void> revokeConnection(String connectionId, ResolveOptions identity) {
    return userId(identity).compose(userId -> ownAccount(connectionId, userId)).compose(acc -> acc == null
        ? Future.failedFuture(notOwned(connectionId))
        : http.json(HttpMethod.DELETE, "/api/v3/connected_accounts/" + connectionId, Map.of(), null).mapEmpty());
  }

  // --- helpers ---

  java.time.Duration timeout() {
    return options.requestTimeout();
  }

  String sourceName() {
    return source();
  }

  boolean toolkitAllowed(String toolkit) {
    return allow.toolkitAllowed(toolkit);
  }

  static List<JsonObject> objects(JsonArray array) {
    List<JsonObject> out = new ArrayList<>();
    if (array != null) {
      for (Object o : array) {
        if (o instanceof JsonObject j) {
          out.add(j);
        }
      }
    }
    return out;
  }

  static String toolkitOf(JsonObject json) {
    JsonObject toolkit = json.getJsonObject("toolkit");
    return toolkit != null ? toolkit.getString("slug") : json.getString("toolkit_slug");
  }

  private static JsonObject schemaOf(JsonObject tool) {
    JsonObject schema = tool.getJsonObject("input_parameters", new JsonObject()).copy();
    return schema.containsKey("type") ? schema : schema.put("type", "object");
  }

  /** Composio tags carry MCP-style hints; when any hint is present, a missing destructive hint means "not destructive". */
  private static EffectHints hints(JsonObject tool) {
    JsonArray tags = tool.getJsonArray("tags", new JsonArray());
    boolean readOnly = tags.contains("readOnlyHint");
    boolean idempotent = tags.contains("idempotentHint");
    boolean destructive = tags.contains("destructiveHint");
    if (!readOnly && !idempotent && !destructive) {
      return EffectHints.NONE;
    }
    return new EffectHints(readOnly, idempotent, destructive);
  }

  private static boolean matches(ProviderToolInfo t, String search) {
    if (search == null || search.isBlank()) {
      return true;
    }
    String s = search.toLowerCase(Locale.ROOT);
    return t.slug().toLowerCase(Locale.ROOT).contains(s) || t.description().toLowerCase(Locale.ROOT).contains(s);
  }
}
