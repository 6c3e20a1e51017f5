package dev.ratchet.server.config.impl;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.provider.AllowList;
import dev.ratchet.connectors.provider.ConnectionScope;
import dev.ratchet.connectors.provider.ListToolsOptions;
import dev.ratchet.connectors.provider.ProviderPage;
import dev.ratchet.connectors.provider.ProviderToolConfig;
import dev.ratchet.connectors.provider.ProviderToolInfo;
import dev.ratchet.connectors.provider.ProviderToolSource;
import dev.ratchet.connectors.provider.ResolveOptions;
import dev.ratchet.connectors.provider.ToolProvider;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ToolSource;
import dev.ratchet.server.config.ToolProviders;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * One {@code composio:} or {@code arcade:} entry of an agent file: the provider built from its
 * connection with the entry's toolkits and allow-list, the allowed slugs found by listing the
 * provider's catalogue (each pattern must match a tool, each pin must name an offered one), and the
 * scope the tools run with. Resolving lists the catalogue once, at load; the tools themselves are
 * resolved per caller when a turn needs them.
 */
final class ProviderEntry {

  /** Pages of a toolkit's catalogue read at most; a larger catalogue needs narrower toolkits. */
  private static final int MAX_PAGES = 50;

  private final Vertx vertx;
  private final String kind;
  private final JsonObject entry;
  private final String at;
  private final BiConsumer<String, String> error;

  ProviderEntry(Vertx vertx, String kind, JsonObject entry, String at, BiConsumer<String, String> error) {
    this.vertx = vertx;
    this.kind = kind;
    this.entry = entry;
    this.at = at;
    this.error = error;
  }

  /** The entry's tool source, or null after reporting what is wrong. */
  Future<ToolSource> resolve(Connection connection) {
    JsonObject selection = entry.getJsonObject(kind);
    String where = at + "/" + kind;
    ConnectionScope scope = ConnectionScope.fromWireName(selection.getString("scope", "caller-supplied"));
    String user = selection.getString("user");
    if (scope == ConnectionScope.PER_AUTHOR && user == null) {
      error.accept(where + "/scope", "scope per-author runs every call as one provider user: name it with 'user'");
      return Future.succeededFuture();
    }
    if (scope == ConnectionScope.CALLER_SUPPLIED && user != null) {
      error.accept(where + "/user", "'user' is for scope per-author; with caller-supplied each call runs as its"
          + " session's caller");
      return Future.succeededFuture();
    }
    List<String> toolkits = strings(selection.getJsonArray("toolkits"));
    List<String> allow = strings(selection.getJsonArray("allow"));
    ToolProvider provider;
    try {
      provider = ToolProviders.create(vertx, connection, toolkits, allow);
    } catch (IllegalArgumentException e) {
      error.accept(where + "/connection", e.getMessage());
      return Future.succeededFuture();
    }
    return catalogue(provider, toolkits).transform(ar -> {
      if (ar.failed()) {
        error.accept(where, "the " + kind + " catalogue of connection '" + connection.name()
            + "' could not be listed (" + reason(ar.cause()) + ")");
        return Future.succeededFuture();
      }
      return Future.succeededFuture(source(provider, ar.result(), allow, where, scope, user));
    });
  }

  private ToolSource source(ToolProvider provider, List<ProviderToolInfo> listed, List<String> allow, String where,
                            ConnectionScope scope, String user) {
    Set<String> slugs = new LinkedHashSet<>();
    boolean ok = true;
    for (int j = 0; j < allow.size(); j++) {
      AllowList pattern = AllowList.of(null, Map.of("*", List.of(allow.get(j))));
      List<String> matched = listed.stream().filter(t -> pattern.toolAllowed(t.toolkit(), t.slug()))
          .map(ProviderToolInfo::slug).toList();
      if (matched.isEmpty()) {
        error.accept(where + "/allow/" + j, "'" + allow.get(j) + "' matches no tool of the " + kind + " catalogue"
            + toolkitsSaid());
        ok = false;
      }
      slugs.addAll(matched);
    }
    Map<String, ProviderToolConfig> configs = new LinkedHashMap<>();
    JsonObject pins = entry.getJsonObject("pin", new JsonObject());
    for (String slug : pins.fieldNames()) {
      JsonObject pin = pins.getJsonObject(slug);
      if (!slugs.contains(slug)) {
        error.accept(LocatedDocument.pointer(at + "/pin", slug), "'" + slug + "' is not among the tools this entry"
            + " offers (" + String.join(", ", slugs) + ")");
        ok = false;
        continue;
      }
      EffectClass effect = pin.containsKey("effect") ? EffectClass.fromWireName(pin.getString("effect")) : null;
      Boolean approval = pin.containsKey("approval") ? "always".equals(pin.getString("approval")) : null;
      configs.put(slug, new ProviderToolConfig(null, effect, approval));
    }
    if (!ok) {
      return null;
    }
    return ProviderToolSource.create(provider, List.copyOf(slugs), configs,
        new ResolveOptions(user, null, scope));
  }

  /** Every tool of the allowed toolkits (every toolkit when none is named), page by page. */
  private Future<List<ProviderToolInfo>> catalogue(ToolProvider provider, List<String> toolkits) {
    List<ProviderToolInfo> all = new ArrayList<>();
    if (toolkits.isEmpty() || toolkits.stream().anyMatch(t -> t.contains("*"))) {
      return pages(provider, ListToolsOptions.all(), all, 0).map(v -> all);
    }
    Future<Void> chain = Future.succeededFuture();
    for (String toolkit : toolkits) {
      chain = chain.compose(v -> pages(provider, ListToolsOptions.toolkit(toolkit), all, 0));
    }
    return chain.map(v -> all);
  }

  private Future<Void> pages(ToolProvider provider, ListToolsOptions options, List<ProviderToolInfo> into, int page) {
    return provider.listTools(options).compose((ProviderPage<ProviderToolInfo> listed) -> {
      into.addAll(listed.items());
      if (listed.nextCursor() == null || page + 1 >= MAX_PAGES) {
        return Future.succeededFuture();
      }
      return pages(provider, options.withCursor(listed.nextCursor()), into, page + 1);
    });
  }

  private String toolkitsSaid() {
    JsonArray toolkits = entry.getJsonObject(kind).getJsonArray("toolkits");
    return toolkits == null ? "" : " for toolkits " + String.join(", ", strings(toolkits));
  }

  private static List<String> strings(JsonArray array) {
    List<String> list = new ArrayList<>();
    if (array != null) {
      array.forEach(v -> list.add(String.valueOf(v)));
    }
    return list;
  }

  private static String reason(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }
}
