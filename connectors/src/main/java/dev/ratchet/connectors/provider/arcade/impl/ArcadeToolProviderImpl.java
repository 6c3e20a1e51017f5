package dev.ratchet.connectors.provider.arcade.impl;

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
import dev.ratchet.connectors.provider.arcade.ArcadeToolProvider;
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

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** See {@link ArcadeToolProvider}. */
public final class ArcadeToolProviderImpl extends BaseToolProvider implements ArcadeToolProvider {

  private static final Kind KIND = new Kind("arcade", "Arcade", "Curated integration tools with built-in authorization",
      new ProviderCapabilities(true, false, true, true, true), DEFAULT_BASE_URL);
  private static final int PAGE = 100;
  /** Toolkits are gathered from tool pages; stop somewhere on a huge catalogue. */
  private static final int MAX_TOOLKIT_PAGES = 20;
  /** Pages of Arcade's listing read for one filtered page; past it the page comes back short, with a cursor. */
  private static final int MAX_SCAN_PAGES = 10;

  private final ArcadeConnections connections;

  public ArcadeToolProviderImpl(Vertx vertx, ToolProviderOptions options) {
    super(vertx, KIND, options, (req, key) -> req.putHeader("Authorization", "Bearer " + key));
    this.connections = new ArcadeConnections(http);
  }

  @Override
  public Future<ProviderPage<ProviderToolkit>> listToolkits() {
    Set<String> names = new LinkedHashSet<>();
    return toolkitPages(0, 0, names).map(v -> new ProviderPage<>(names.stream().filter(allow::toolkitAllowed)
        .map(n -> new ProviderToolkit(n, n, null)).toList(), null));
  }

  private Future<Void> toolkitPages(int offset, int pages, Set<String> into) {
    return page(null, offset, PAGE).compose(json -> {
      JsonArray items = json.getJsonArray("items", new JsonArray());
      items.forEach(i -> into.add(ArcadeSchemas.toolkit((JsonObject) i)));
      int next = offset + items.size();
      boolean more = !items.isEmpty() && next < json.getInteger("total_count", 0) && pages + 1 < MAX_TOOLKIT_PAGES;
      return more ? toolkitPages(next, pages + 1, into) : Future.succeededFuture();
    });
  }

  private Future<JsonObject> page(String toolkit, int offset, int limit) {
    Map<String, String> query = new HashMap<>();
    query.put("toolkit", toolkit);
    query.put("offset", String.valueOf(offset));
    query.put("limit", String.valueOf(limit));
    return http.json(HttpMethod.GET, "/v1/tools", query, null);
  }

  @Override
  public Future<ProviderPage<ProviderToolInfo>> listTools(ListToolsOptions o) {
    ListToolsOptions opts = o == null ? ListToolsOptions.all() : o;
    if (opts.toolkit() != null && !allow.toolkitAllowed(opts.toolkit())) {
      return Future.succeededFuture(new ProviderPage<>(List.of(), null));
    }
    int offset;
    try {
      offset = opts.cursor() == null ? 0 : Integer.parseInt(opts.cursor());
    } catch (NumberFormatException e) {
      return Future.failedFuture(new ProviderException(ErrorCode.INVALID_CURSOR, "not an Arcade cursor: " + opts.cursor()));
    }
    int limit = opts.pageSize() == null ? 25 : Math.max(1, Math.min(PAGE, opts.pageSize()));
    String search = opts.search() == null ? null : opts.search().toLowerCase(Locale.ROOT);
    List<ProviderToolInfo> out = new ArrayList<>();
    return fill(opts.toolkit(), search, offset, limit, 0, out).map(next -> new ProviderPage<>(out, next));
  }

  /**
   * Arcade's listing has no search parameter and knows nothing of the allow-list, so both filter
   * here; pages of Arcade's listing are read until {@code limit} tools match, and the cursor points
   * just past the last tool read, so no tool is skipped or repeated.
   *
   * @return the next cursor, null when the listing is exhausted
   */
  private Future<String> fill(String toolkit, String search, int offset, int limit, int pages,
                              List<ProviderToolInfo> out) {
    return page(toolkit, offset, PAGE).compose(json -> {
      JsonArray items = json.getJsonArray("items", new JsonArray());
      int read = 0;
      for (Object i : items) {
        read++;
        JsonObject def = (JsonObject) i;
        if (matches(def, search)) {
          EffectHints hints = ArcadeSchemas.hints(def);
          out.add(new ProviderToolInfo(ArcadeSchemas.slug(def), def.getString("name"), def.getString("description", ""),
              ArcadeSchemas.toolkit(def), hints.effectClass(), hints.approvalRecommended()));
          if (out.size() == limit) {
            break;
          }
        }
      }
      int next = offset + read;
      boolean more = read > 0 && next < json.getInteger("total_count", 0);
      if (!more) {
        return Future.succeededFuture(null);
      }
      if (out.size() == limit || pages + 1 >= MAX_SCAN_PAGES) {
        return Future.succeededFuture(String.valueOf(next));
      }
      return fill(toolkit, search, next, limit, pages + 1, out);
    });
  }

  private boolean matches(JsonObject def, String search) {
    String slug = ArcadeSchemas.slug(def);
    if (!allow.toolAllowed(ArcadeSchemas.toolkit(def), slug)) {
      return false;
    }
    return search == null || slug.toLowerCase(Locale.ROOT).contains(search)
        || def.getString("description", "").toLowerCase(Locale.ROOT).contains(search);
  }

  private Future<JsonObject> definition(String slug) {
    return http.json(HttpMethod.GET, "/v1/tools/" + URLEncoder.encode(slug, StandardCharsets.UTF_8), Map.of(), null)
        .recover(err -> RatchetException.is(err, ErrorCode.NOT_FOUND)
            ? Future.succeededFuture(null) : Future.failedFuture(err));
  }

  @Override
  public Future<JsonObject> getToolSchema(String slug) {
    return definition(slug).map(def -> def == null || !allow.toolAllowed(ArcadeSchemas.toolkit(def), slug) ? null
        : ArcadeSchemas.inputSchema(def));
  }

  @Override
  protected Future<Tool> resolve(String slug, ProviderToolConfig config, String userId) {
    return definition(slug).compose(def -> {
      if (def == null) {
        return Future.failedFuture(new ProviderException(ErrorCode.UNKNOWN_TOOL, "arcade has no tool " + slug));
      }
      if (!allow.toolAllowed(ArcadeSchemas.toolkit(def), slug)) {
        return Future.failedFuture(notAllowed("tool " + slug));
      }
      Future<Void> owned = config == null || config.connectionId() == null ? Future.succeededFuture()
          : checkConnection(config.connectionId(), ArcadeSchemas.authProvider(def), userId);
      return owned.map(ok -> tool(slug, def, config, userId));
    });
  }

  /**
   * Arcade runs a tool with the user's connection to the tool's auth provider and takes no
   * connection id, so a configured connection is held to be exactly that one: the identity's own,
   * for that provider. Anything else is refused rather than ignored.
   */
  private Future<Void> checkConnection(String connectionId, String authProvider, String userId) {
    return connections.all(userId, authProvider).compose(own -> own.stream()
        .anyMatch(c -> c.id().equals(connectionId) && (authProvider == null || authProvider.equals(c.toolkit())))
        ? Future.succeededFuture()
        : Future.failedFuture(new ProviderException(ErrorCode.CONNECTION_NOT_OWNED, "connection '" + connectionId
            + "' is not this caller's connection to " + (authProvider == null ? "arcade" : authProvider)
            + ", which the tool runs with")));
  }

  private Tool tool(String slug, JsonObject def, ProviderToolConfig config, String userId) {
    EffectHints hints = ArcadeSchemas.hints(def);
    EffectClass effect = hints.effectClass(config);
    return new ProviderTool(ProviderTool.toolName(slug), def.getString("description"), ArcadeSchemas.inputSchema(def),
        effect, hints.approval(config), options.requestTimeout(), source(), userId,
        inv -> execute(slug, effect, userId, inv));
  }

  private Future<ToolResult> execute(String slug, EffectClass effect, String userId, ToolInvocation inv) {
    JsonObject body = new JsonObject().put("tool_name", slug)
        .put("input", inv.arguments() == null ? new JsonObject() : inv.arguments())
        .put("user_id", userId);
    Map<String, String> headers = inv.idempotencyKey() == null ? Map.of()
        : Map.of("Idempotency-Key", inv.idempotencyKey().value());
    return http.send(HttpMethod.POST, "/v1/tools/execute", Map.of(), body, headers).compose(resp -> {
      if (resp.statusCode() == 403) {
        return authorizationNeeded(slug, userId, "arcade answered 403: " + http.errorText(resp));
      }
      ToolResult byStatus = HttpOutcomes.forStatus(resp, effect, "arcade answered " + resp.statusCode() + ": "
          + http.errorText(resp));
      if (byStatus != null) {
        return Future.succeededFuture(byStatus);
      }
      JsonObject json = resp.bodyAsJsonObject();
      JsonObject output = json == null ? new JsonObject() : json.getJsonObject("output", new JsonObject());
      if (json != null && json.getBoolean("success", false)) {
        return Future.succeededFuture(ToolResult.success(Redaction.scrubValue(output.getValue("value"))));
      }
      JsonObject auth = output.getJsonObject("authorization");
      if (auth != null && !"completed".equals(auth.getString("status")) && auth.getString("url") != null) {
        return Future.succeededFuture(notAuthorized(auth.getString("url")));
      }
      JsonObject error = output.getJsonObject("error", new JsonObject());
      if (ArcadeErrors.needsAuthorization(error.getString("kind"))) {
        return authorizationNeeded(slug, userId, ArcadeErrors.result(error, effect).error());
      }
      return Future.succeededFuture(ArcadeErrors.result(error, effect));
    });
  }

  /**
   * The call was refused for want of the user's authorization: starts the flow, so that the result
   * carries the link the user must open. Nothing ran, whatever the flow answers.
   */
  private Future<ToolResult> authorizationNeeded(String slug, String userId, String refusal) {
    JsonObject body = new JsonObject().put("tool_name", slug).put("user_id", userId);
    return http.json(HttpMethod.POST, "/v1/tools/authorize", Map.of(), body)
        .map(json -> json.getString("url") != null && !"completed".equals(json.getString("status"))
            ? notAuthorized(json.getString("url")) : ToolResult.rejected(refusal))
        .otherwise(err -> ToolResult.rejected(refusal + " (authorization could not be started: "
            + Redaction.scrub(String.valueOf(err.getMessage())) + ")"));
  }

  private static ToolResult notAuthorized(String url) {
    return ToolResult.rejected("the user has not authorized this tool yet: ask them to open " + url);
  }

  @Override
  public Future<Authorization> authorize(AuthorizeOptions o) {
    if (o.tool() == null) {
      return Future.failedFuture(new ProviderException(ErrorCode.UNSUPPORTED, "arcade authorizes per tool: name a tool"));
    }
    if (!o.fields().isEmpty()) {
      return Future.failedFuture(new ProviderException(ErrorCode.INVALID_REQUEST, "arcade asks for no connection"
          + " fields (its tools' own providers authorize the user); not " + new java.util.TreeSet<>(o.fields().keySet())));
    }
    String toolkit = o.tool().contains(".") ? o.tool().substring(0, o.tool().indexOf('.')) : null;
    if (!allow.toolAllowed(toolkit, o.tool())) {
      return Future.failedFuture(notAllowed("tool " + o.tool()));
    }
    return userId(o.identity()).compose(userId -> {
      JsonObject body = new JsonObject().put("tool_name", o.tool()).put("user_id", userId);
      if (o.callbackUrl() != null) {
        body.put("next_uri", o.callbackUrl());
      }
      return http.json(HttpMethod.POST, "/v1/tools/authorize", Map.of(), body);
    }).map(json -> new Authorization(json.getString("url"), json.getString("id")));
  }

  @Override
  public Future<List<ConnectionField>> listConnectionFields(String toolkit) {
    // Arcade's authorization is driven by the tool's provider (OAuth); it asks for no values up front
    return Future.succeededFuture(List.of());
  }

  @Override
  public Future<AuthStatus> getAuthStatus(String authId) {
    return http.json(HttpMethod.GET, "/v1/auth/status", Map.of("id", authId), null).map(json -> {
      String status = json.getString("status", "");
      String state = switch (status) {
        case "completed" -> AuthStatus.COMPLETED;
        case "pending", "not_started" -> AuthStatus.PENDING;
        default -> AuthStatus.FAILED;
      };
      return new AuthStatus(state, null);
    });
  }

  @Override
  public Future<Map<String, Boolean>> getConnectionStatus(List<ConnectionRef> items, ResolveOptions identity) {
    return userId(identity).compose(userId -> connections.all(userId, null)).compose(all -> {
      Map<String, Set<String>> providers = new HashMap<>();
      Future<Void> chain = Future.succeededFuture();
      for (String toolkit : items.stream().map(ConnectionRef::toolkit).filter(t -> t != null).distinct().toList()) {
        chain = chain.compose(v -> connections.providersOf(toolkit).map(p -> {
          providers.put(toolkit, p);
          return null;
        }));
      }
      return chain.map(v -> {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (ConnectionRef ref : items) {
          out.put(ref.connectionId(), all.stream().anyMatch(c -> c.id().equals(ref.connectionId()) && c.active()
              && (ref.toolkit() == null || providers.get(ref.toolkit()).contains(c.toolkit()))));
        }
        return out;
      });
    });
  }

  /**
   * The identity's connections; for a toolkit, those of the auth provider its tools require. The
   * connections' {@code toolkit} is that auth provider. A toolkit whose tools require several
   * providers is listed in one page.
   */
  @Override
  public Future<ProviderPage<ProviderConnection>> listConnections(ListConnectionsOptions o) {
    int offset;
    try {
      offset = o.cursor() == null ? 0 : Integer.parseInt(o.cursor());
    } catch (NumberFormatException e) {
      return Future.failedFuture(new ProviderException(ErrorCode.INVALID_CURSOR, "not an Arcade cursor: " + o.cursor()));
    }
    return userId(o.identity()).compose(userId -> {
      if (o.toolkit() == null) {
        return connections.page(userId, null, offset, PAGE);
      }
      return connections.providersOf(o.toolkit()).compose(providers -> {
        if (providers.size() == 1) {
          return connections.page(userId, providers.iterator().next(), offset, PAGE);
        }
        List<ProviderConnection> all = new ArrayList<>();
        Future<Void> chain = Future.succeededFuture();
        for (String provider : providers) {
          chain = chain.compose(v -> connections.all(userId, provider).map(all::addAll).mapEmpty());
        }
        return chain.map(v -> new ProviderPage<>(all, null));
      });
    });
  }

  @Override
  public Future<ProviderHealth> getHealth() {
    return health("/v1/health", Map.of());
  }

  @Override
  public Future<Void> revokeConnection(String connectionId, ResolveOptions identity) {
    return userId(identity).compose(userId -> connections.all(userId, null))
        .compose(own -> own.stream().noneMatch(c -> connectionId.equals(c.id()))
        ? Future.failedFuture(notOwned(connectionId))
        : http.json(HttpMethod.DELETE, "/v1/admin/user_connections/" + connectionId, Map.of(), null).mapEmpty());
  }
}
