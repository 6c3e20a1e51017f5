package dev.ratchet.verticles.http.impl;

import dev.ratchet.connectors.provider.AuthorizeOptions;
import dev.ratchet.connectors.provider.ConnectionScope;
import dev.ratchet.connectors.provider.ListConnectionsOptions;
import dev.ratchet.connectors.provider.ListToolsOptions;
import dev.ratchet.connectors.provider.ProviderCapabilities;
import dev.ratchet.connectors.provider.ProviderConnection;
import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.connectors.provider.ProviderPage;
import dev.ratchet.connectors.provider.ResolveOptions;
import dev.ratchet.connectors.provider.ToolProvider;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Tool providers' connections, as the caller sees them: {@code /api/providers} (each provider's
 * capabilities and health), its toolkits, tools and tool schemas to browse and search, and the
 * caller's connections to list, authorize (with the connection-field values a toolkit asks for,
 * listed at {@code /api/providers/:provider/toolkits/:toolkit/fields}) and revoke. Every connection call names the caller's
 * identity (its resource id), so a caller sees and revokes only its own connections; another's
 * answers 404 like a missing one. An operator (tenants {@code "*"}) may name another caller with
 * {@code ?caller=}.
 */
public final class ConnectionRoutes {

  /** Connecting and revoking act for a caller: agents' tokens and people who may decide, not viewers. */
  private static final Handler<RoutingContext> MAY_CONNECT = AuthHandler.requireAny("connect or revoke connections",
      Role.Permission.SUBMIT, Role.Permission.DECIDE);

  private final Map<String, ToolProvider> providers;

  public ConnectionRoutes(Map<String, ToolProvider> providers) {
    this.providers = providers;
  }

  public void mount(Router router) {
    router.get("/api/providers").handler(AuthHandler.require(Role.Permission.READ_CATALOG)).handler(this::providers);
    router.get("/api/providers/:provider/toolkits").handler(AuthHandler.require(Role.Permission.READ_CATALOG))
        .handler(ctx -> withProvider(ctx, p -> p.listToolkits(ctx.queryParams().get("cursor")).map(found ->
            page(found, t -> new JsonObject().put("slug", t.slug()).put("name", t.name())
                .put("description", t.description())))));
    router.get("/api/providers/:provider/toolkits/:toolkit/fields").handler(AuthHandler.require(Role.Permission.READ_CATALOG))
        .handler(ctx -> withProvider(ctx, p -> p.listConnectionFields(ctx.pathParam("toolkit")).map(fields -> {
          JsonArray items = new JsonArray();
          fields.forEach(f -> items.add(new JsonObject().put("name", f.name()).put("displayName", f.displayName())
              .put("type", f.type()).put("description", f.description()).put("required", f.required())
              .put("secret", f.secret())));
          return new JsonObject().put("toolkit", ctx.pathParam("toolkit")).put("fields", items);
        })));
    router.get("/api/providers/:provider/tools").handler(AuthHandler.require(Role.Permission.READ_CATALOG))
        .handler(ctx -> withProvider(ctx, p -> p.listTools(new ListToolsOptions(ctx.queryParams().get("toolkit"),
            ctx.queryParams().get("search"), ctx.queryParams().get("cursor"), null)).map(found ->
            page(found, t -> new JsonObject().put("slug", t.slug()).put("name", t.name())
                .put("description", t.description()).put("toolkit", t.toolkit())
                .put("effectClass", t.effectClass() == null ? null : t.effectClass().wireName())
                .put("approvalRecommended", t.approvalRecommended())))));
    router.get("/api/providers/:provider/tools/:slug/schema").handler(AuthHandler.require(Role.Permission.READ_CATALOG))
        .handler(ctx -> withProvider(ctx, p -> p.getToolSchema(ctx.pathParam("slug"))
            .map(schema -> new JsonObject().put("slug", ctx.pathParam("slug")).put("inputSchema", schema))));
    router.get("/api/connections").handler(AuthHandler.require(Role.Permission.READ_CATALOG)).handler(this::list);
    router.post("/api/providers/:provider/authorizations").handler(MAY_CONNECT)
        .handler(ctx -> withProvider(ctx, p -> {
          JsonObject body = Replies.body(ctx);
          String toolkit = body.getValue("toolkit") instanceof String s && !s.isBlank() ? s : null;
          if (toolkit == null) {
            throw Replies.invalid("'toolkit' must name the provider's toolkit to connect, e.g. \"github\"");
          }
          return p.authorize(AuthorizeOptions.toolkit(toolkit, identity(ctx)).withFields(fieldValues(body)))
              .map(a -> new JsonObject().put("provider", ctx.pathParam("provider")).put("toolkit", toolkit)
                  .put("authId", a.authId()).put("url", a.url()));
        }));
    router.get("/api/providers/:provider/authorizations/:authId").handler(MAY_CONNECT)
        .handler(ctx -> withProvider(ctx, p -> p.getAuthStatus(ctx.pathParam("authId"))
            .map(s -> new JsonObject().put("authId", ctx.pathParam("authId")).put("state", s.state())
                .put("connectionId", s.connectionId()))));
    router.delete("/api/providers/:provider/connections/:connection").handler(MAY_CONNECT)
        .handler(ctx -> withProvider(ctx, p -> p.revokeConnection(ctx.pathParam("connection"), identity(ctx))
            .map(v -> new JsonObject().put("revoked", ctx.pathParam("connection")))));
  }

  /** The body's {@code fields}: the connection-field values, each a string; none when it has none. */
  private static Map<String, String> fieldValues(JsonObject body) {
    Object fields = body.getValue("fields");
    if (fields == null) {
      return Map.of();
    }
    if (!(fields instanceof JsonObject json)) {
      throw Replies.invalid("'fields' must be an object of connection-field values, e.g. {\"api_key\": \"...\"}");
    }
    Map<String, String> values = new java.util.LinkedHashMap<>();
    for (String name : json.fieldNames()) {
      if (!(json.getValue(name) instanceof String value)) {
        throw Replies.invalid("'fields." + name + "' must be a string");
      }
      values.put(name, value);
    }
    return values;
  }

  /** The caller the request acts for: the principal's own, or for an operator the one it names. */
  private static ResolveOptions identity(RoutingContext ctx) {
    Principal p = AuthHandler.principal(ctx);
    String named = ctx.queryParams().get("caller");
    if (named != null && !named.equals(p.callerId())) {
      if (!p.tenants().all()) {
        throw new RatchetException(ErrorCode.FORBIDDEN, "only an operator (tenants \"*\") may act for another caller");
      }
      return ResolveOptions.caller(p.name(), named).withScope(ConnectionScope.CALLER_SUPPLIED);
    }
    // the caller's own connections, whatever the provider's default scope for agents' tools
    return ResolveOptions.caller(p.name(), p.callerId()).withScope(ConnectionScope.CALLER_SUPPLIED);
  }

  private void providers(RoutingContext ctx) {
    List<String> names = new ArrayList<>(providers.keySet());
    names.sort(String::compareTo);
    List<Future<JsonObject>> all = new ArrayList<>();
    for (String name : names) {
      ToolProvider p = providers.get(name);
      ProviderCapabilities caps = p.capabilities();
      JsonObject json = new JsonObject().put("name", name).put("displayName", p.info().displayName())
          .put("capabilities", new JsonObject().put("authorize", caps.authorize())
              .put("listConnections", caps.listConnections()).put("revokeConnection", caps.revokeConnection())
              .put("connectionStatus", caps.connectionStatus()));
      all.add(p.getHealth().map(h -> json.put("health", new JsonObject().put("configured", h.configured())
              .put("healthy", h.healthy()).put("message", h.message())))
          .otherwise(err -> json.put("health", new JsonObject().put("healthy", false)
              .put("message", err.getMessage()))));
    }
    Future.all(all).onComplete(ar -> {
      JsonArray list = new JsonArray();
      all.forEach(f -> list.add(f.result()));
      Replies.json(ctx, 200, new JsonObject().put("providers", list));
    });
  }

  /** Every provider's connections of the caller, each with its provider; a provider that cannot list them says why. */
  private void list(RoutingContext ctx) {
    ResolveOptions identity;
    try {
      identity = identity(ctx);
    } catch (RatchetException e) {
      Replies.fail(ctx, e);
      return;
    }
    List<String> names = new ArrayList<>(providers.keySet());
    names.sort(String::compareTo);
    List<Future<JsonObject>> all = new ArrayList<>();
    for (String name : names) {
      ToolProvider p = providers.get(name);
      if (!p.capabilities().listConnections()) {
        continue;
      }
      all.add(allConnections(p, new ListConnectionsOptions(identity, ctx.queryParams().get("toolkit")),
          new ArrayList<>()).map(list -> {
            JsonArray items = new JsonArray();
            list.forEach(c -> items.add(new JsonObject().put("provider", name).put("id", c.id())
                .put("toolkit", c.toolkit()).put("status", c.status()).put("active", c.active())));
            return new JsonObject().put("provider", name).put("connections", items);
          }).otherwise(err -> new JsonObject().put("provider", name).put("connections", new JsonArray())
              .put("error", err.getMessage())));
    }
    Future.all(all).onComplete(ar -> {
      JsonArray connections = new JsonArray();
      JsonArray errors = new JsonArray();
      all.forEach(f -> {
        connections.addAll(f.result().getJsonArray("connections"));
        if (f.result().getString("error") != null) {
          errors.add(new JsonObject().put("provider", f.result().getString("provider"))
              .put("message", f.result().getString("error")));
        }
      });
      Replies.json(ctx, 200, new JsonObject().put("caller", identity.resourceId()).put("connections", connections)
          .put("errors", errors));
    });
  }

  private static Future<List<ProviderConnection>> allConnections(ToolProvider p, ListConnectionsOptions options,
                                                                 List<ProviderConnection> into) {
    return p.listConnections(options).compose(page -> {
      into.addAll(page.items());
      return page.nextCursor() == null || page.nextCursor().isEmpty() || into.size() > 10_000
          ? Future.succeededFuture(into) : allConnections(p, options.withCursor(page.nextCursor()), into);
    });
  }

  private static <T> JsonObject page(ProviderPage<T> page, Function<T, JsonObject> item) {
    JsonArray items = new JsonArray();
    page.items().forEach(i -> items.add(item.apply(i)));
    return new JsonObject().put("items", items).put("nextCursor", page.nextCursor());
  }

  private void withProvider(RoutingContext ctx, Function<ToolProvider, Future<JsonObject>> action) {
    ToolProvider p = providers.get(ctx.pathParam("provider"));
    if (p == null) {
      Replies.error(ctx, ErrorCode.NOT_FOUND, "no tool provider named '" + ctx.pathParam("provider") + "'; providers: "
          + providers.keySet().stream().sorted().toList());
      return;
    }
    Future<JsonObject> answer;
    try {
      answer = action.apply(p);
    } catch (RuntimeException e) {
      answer = Future.failedFuture(e);
    }
    answer.onSuccess(json -> Replies.json(ctx, 200, json)).onFailure(err -> failed(ctx, err));
  }

  private static void failed(RoutingContext ctx, Throwable err) {
    if (err instanceof ProviderException pe) {
      switch (pe.errorCode()) {
        case CONNECTION_NOT_OWNED, NOT_FOUND -> Replies.error(ctx, ErrorCode.UNKNOWN_CONNECTION,
            "no such connection of this caller");
        case UNSUPPORTED -> reply(ctx, 501, pe);
        case INVALID_CURSOR, INVALID_REQUEST, NO_IDENTITY, UNKNOWN_TOOL, NOT_ALLOWED -> reply(ctx, 400, pe);
        default -> reply(ctx, 502, pe);
      }
      return;
    }
    Replies.fail(ctx, err);
  }

  /**
   * A provider's refusal with the status that says whose fault it is here (the request's, an
   * unsupported operation, the provider's), rather than the code's own status inside the runtime.
   */
  private static void reply(RoutingContext ctx, int status, ProviderException pe) {
    Replies.json(ctx, status, new JsonObject().put("code", pe.code()).put("message", pe.getMessage()));
  }
}
