package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/** The tool catalogue: {@code GET /api/agents} and {@code GET /api/agents/:agent/tools}. */
public record CatalogRoutes(RatchetNode ratchet) {

  public void mount(Router router) {
    router.get("/api/agents").handler(AuthHandler.require(Role.Permission.READ_CATALOG)).handler(this::agents);
    router.get("/api/agents/:agent/tools").handler(AuthHandler.require(Role.Permission.READ_CATALOG))
        .handler(this::tools);
  }

  private void agents(RoutingContext ctx) {
    List<String> names = ratchet.queries().agents();
    names.sort(String::compareTo);
    List<Future<JsonObject>> described = new ArrayList<>();
    for (String name : names) {
      ToolCatalog catalog = ratchet.queries().catalog(name);
      described.add(catalog == null ? Future.succeededFuture(new JsonObject().put("name", name).put("tools", 0))
          : describe(ctx.vertx(), name, catalog));
    }
    Future.join(described).onComplete(ar -> {
      JsonArray list = new JsonArray();
      described.forEach(f -> list.add(f.succeeded() ? f.result() : new JsonObject()));
      Replies.json(ctx, 200, new JsonObject().put("agents", list));
    });
  }

  /** An agent as catalogue data only: where it was declared, its sources with health, its tools' rules. */
  private static Future<JsonObject> describe(io.vertx.core.Vertx vertx, String name, ToolCatalog catalog) {
    JsonArray tools = new JsonArray();
    for (ToolCatalog.Entry e : catalog.entries()) {
      JsonObject tool = new JsonObject().put("name", e.tool().name()).put("toolSource", e.sourceName())
          .put("effectClass", e.tool().effectClass().wireName()).put("approval", e.approval().describe())
          .put("origin", catalog.origin(e.sourceName()));
      if (e.approval().condition() != null) {
        tool.put("approvalCondition", e.approval().condition());
      }
      tools.add(tool);
    }
    return catalog.sourcesHealth(vertx, 2_000).map(health -> {
      JsonArray sources = new JsonArray();
      health.forEach(h -> sources.add(h.toJson().put("origin", catalog.origin(h.source()))));
      return new JsonObject().put("name", name).put("tools", catalog.entries().size()).put("origin", catalog.origin())
          .put("sources", sources).put("catalogue", tools);
    });
  }

  private void tools(RoutingContext ctx) {
    String agent = ctx.pathParam("agent");
    ToolCatalog catalog = ratchet.queries().catalog(agent);
    if (catalog == null && !ratchet.ready()) {
      Replies.error(ctx, ErrorCode.NOT_READY, "this member is still loading its agents; try again shortly");
      return;
    }
    if (catalog == null) {
      Replies.error(ctx, ErrorCode.UNKNOWN_AGENT, "no agent named '" + agent + "'");
      return;
    }
    catalog.sourcesHealth(ctx.vertx(), 2_000).onComplete(ar -> {
      JsonArray sources = new JsonArray();
      if (ar.succeeded()) {
        ar.result().forEach(h -> sources.add(h.toJson()));
      }
      Replies.json(ctx, 200, new JsonObject().put("agent", agent).put("tools", catalog.toJson())
          .put("sources", sources));
    });
  }
}
