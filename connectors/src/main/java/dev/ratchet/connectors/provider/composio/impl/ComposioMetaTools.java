package dev.ratchet.connectors.provider.composio.impl;

import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.connectors.provider.ProviderToolConfig;
import dev.ratchet.connectors.provider.ProviderToolInfo;
import dev.ratchet.connectors.provider.composio.ComposioToolProvider;
import dev.ratchet.connectors.provider.impl.EffectHints;
import dev.ratchet.connectors.provider.impl.ProviderTool;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The connection-management tools offered when the {@code composio} toolkit is allowed. Both act
 * only for the identity the tools were resolved for, so a caller can neither create nor watch
 * another caller's connections.
 */
final class ComposioMetaTools {

  private static final long POLL_MILLIS = 250;
  /** Answer a little before the runtime stops waiting, so the caller gets "not yet" instead of a timeout. */
  private static final long DEADLINE_MARGIN_MILLIS = 500;

  private static final String MANAGE = ComposioToolProvider.MANAGE_CONNECTIONS;
  private static final String WAIT = ComposioToolProvider.WAIT_FOR_CONNECTIONS;

  private final Vertx vertx;
  private final ComposioToolProviderImpl provider;

  ComposioMetaTools(Vertx vertx, ComposioToolProviderImpl provider) {
    this.vertx = vertx;
    this.provider = provider;
  }

  boolean handles(String slug) {
    return MANAGE.equals(slug) || WAIT.equals(slug);
  }

  List<ProviderToolInfo> infos() {
    return List.of(
        new ProviderToolInfo(MANAGE, "Manage connections", manageDescription(), ComposioToolProvider.META_TOOLKIT,
            EffectClass.IDEMPOTENT_WRITE, false),
        new ProviderToolInfo(WAIT, "Wait for connections", waitDescription(), ComposioToolProvider.META_TOOLKIT,
            EffectClass.READ, false));
  }

  JsonObject schema(String slug) {
    if (MANAGE.equals(slug)) {
      return new JsonObject().put("type", "object")
          .put("properties", new JsonObject().put("toolkit", new JsonObject().put("type", "string")
              .put("description", "toolkit to connect, for example gmail")))
          .put("required", new JsonArray().add("toolkit"));
    }
    return new JsonObject().put("type", "object")
        .put("properties", new JsonObject()
            .put("toolkits", new JsonObject().put("type", "array").put("items", new JsonObject().put("type", "string")))
            .put("timeout_seconds", new JsonObject().put("type", "integer").put("minimum", 1)))
        .put("required", new JsonArray().add("toolkits"));
  }

  Tool resolve(String slug, String userId, ProviderToolConfig config) {
    // a link changes nothing until the user acts on it, so it needs no approval by default; asking
    // again answers with the same pending link, so the tool is an idempotent write
    EffectHints hints = MANAGE.equals(slug) ? new EffectHints(false, true, false) : new EffectHints(true, null, false);
    String description = MANAGE.equals(slug) ? manageDescription() : waitDescription();
    return new ProviderTool(slug, description, schema(slug), hints.effectClass(config), hints.approval(config),
        provider.timeout(), provider.sourceName(), userId,
        inv -> MANAGE.equals(slug) ? manage(userId, inv) : await(userId, inv));
  }

  private Future<ToolResult> manage(String userId, ToolInvocation inv) {
    String toolkit = inv.arguments().getString("toolkit");
    if (toolkit == null || !provider.toolkitAllowed(toolkit)
        || ComposioToolProvider.META_TOOLKIT.equalsIgnoreCase(toolkit)) {
      return Future.succeededFuture(ToolResult.rejected("toolkit '" + toolkit + "' is not available to connect"));
    }
    String slug = toolkit.toLowerCase(Locale.ROOT);
    return provider.accountsOf(userId, List.of(slug)).compose(accounts -> {
      JsonObject active = accounts.stream().filter(a -> "ACTIVE".equalsIgnoreCase(a.getString("status")))
          .findFirst().orElse(null);
      if (active != null) {
        return Future.succeededFuture(ToolResult.success(new JsonObject().put("toolkit", toolkit)
            .put("connection_id", active.getString("id")).put("status", "ACTIVE")
            .put("instructions", "The user has already connected " + toolkit + ".")));
      }
      // a pending link of this user is handed out again rather than piling up pending accounts
      JsonObject pending = accounts.stream().filter(a -> "INITIATED".equalsIgnoreCase(a.getString("status")))
          .filter(a -> ComposioToolProviderImpl.redirectUrl(a) != null).findFirst().orElse(null);
      return (pending != null ? Future.succeededFuture(pending) : provider.createLink(slug, userId, null))
          .map(acc -> ToolResult.success(new JsonObject()
              .put("toolkit", toolkit)
              .put("redirect_url", ComposioToolProviderImpl.redirectUrl(acc))
              .put("connection_id", acc.getString("id"))
              .put("status", acc.getString("status", "INITIATED"))
              .put("instructions", "Ask the user to open redirect_url and finish connecting " + toolkit + ".")));
    }).recover(err -> err instanceof ProviderException p
        ? Future.succeededFuture(ToolResult.rejected(p.getMessage())) : Future.failedFuture(err));
  }

  private Future<ToolResult> await(String userId, ToolInvocation inv) {
    List<String> toolkits = new ArrayList<>();
    inv.arguments().getJsonArray("toolkits", new JsonArray()).forEach(t -> toolkits.add(String.valueOf(t)));
    long wanted = inv.arguments().getLong("timeout_seconds", 60L) * 1000;
    long budget = Math.min(wanted, Math.max(0, inv.remainingMillis() - DEADLINE_MARGIN_MILLIS));
    long until = System.currentTimeMillis() + budget;
    Promise<ToolResult> result = Promise.promise();
    poll(userId, toolkits, until, result);
    return result.future();
  }

  private void poll(String userId, List<String> toolkits, long until, Promise<ToolResult> result) {
    provider.connectionsOf(userId, toolkits).onFailure(result::fail).onSuccess(conns -> {
      JsonObject connected = new JsonObject();
      boolean all = true;
      for (String t : toolkits) {
        boolean active = conns.stream().anyMatch(c -> c.active() && t.equalsIgnoreCase(c.toolkit()));
        connected.put(t, active);
        all &= active;
      }
      if (all || System.currentTimeMillis() + POLL_MILLIS > until) {
        result.complete(ToolResult.success(new JsonObject().put("connected", connected).put("all_connected", all)));
      } else {
        vertx.setTimer(POLL_MILLIS, id -> poll(userId, toolkits, until, result));
      }
    });
  }

  private static String manageDescription() {
    return "Create an authorization link so the user can connect a toolkit account for this conversation.";
  }

  private static String waitDescription() {
    return "Wait until the user has finished connecting the given toolkits.";
  }

}
