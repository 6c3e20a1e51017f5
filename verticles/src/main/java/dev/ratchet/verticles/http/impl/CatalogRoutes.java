package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.List;

/** The tool catalogue: {@code GET /api/agents} and {@code GET /api/agents/:agent/tools}. */
public final class CatalogRoutes {

  private final Ratchet ratchet;

  public CatalogRoutes(Ratchet ratchet) {
    this.ratchet = ratchet;
  }

  public void mount(Router router) {
    router.get("/api/agents").handler(AuthHandler.require(Role.Permission.READ_CATALOG)).handler(this::agents);
    router.get("/api/agents/:agent/tools").handler(AuthHandler.require(Role.Permission.READ_CATALOG))
        .handler(this::tools);
  }

  private void agents(RoutingContext ctx) {
    JsonArray list = new JsonArray();
    List<String> names = ratchet.agents();
    names.sort(String::compareTo);
    for (String name : names) {
      ToolCatalog catalog = ratchet.catalog(name);
      list.add(new JsonObject().put("name", name).put("tools", catalog == null ? 0 : catalog.entries().size()));
    }
    Replies.json(ctx, 200, new JsonObject().put("agents", list));
  }

  private void tools(RoutingContext ctx) {
    String agent = ctx.pathParam("agent");
    ToolCatalog catalog = ratchet.catalog(agent);
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
