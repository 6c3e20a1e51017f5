package dev.ratchet.connectors.provider.arcade.impl;

import dev.ratchet.connectors.provider.ProviderConnection;
import dev.ratchet.connectors.provider.ProviderPage;
import dev.ratchet.connectors.provider.impl.ProviderHttp;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Arcade's user connections. A connection belongs to an auth provider ({@code google}), not to a
 * toolkit ({@code Gmail}): a toolkit is mapped to the providers its tools require. Listings are
 * asked for one user and read in offset pages to their end; every item is checked again to be that
 * user's.
 */
final class ArcadeConnections {

  private static final int PAGE = 100;
  /** A bound on pages read for one listing. */
  private static final int MAX_PAGES = 50;

  private final ProviderHttp http;

  ArcadeConnections(ProviderHttp http) {
    this.http = http;
  }

  /**
   * The auth providers that the toolkit's tools require. A name that is no toolkit at Arcade is
   * taken as a provider id, so {@code google} names Google connections directly.
   */
  Future<Set<String>> providersOf(String toolkit) {
    Map<String, String> query = new HashMap<>();
    query.put("toolkit", toolkit);
    query.put("limit", String.valueOf(PAGE));
    return http.json(HttpMethod.GET, "/v1/tools", query, null).map(json -> {
      JsonArray items = json.getJsonArray("items", new JsonArray());
      Set<String> providers = new LinkedHashSet<>();
      for (Object i : items) {
        JsonObject auth = ((JsonObject) i).getJsonObject("requirements", new JsonObject()).getJsonObject("authorization");
        if (auth != null && auth.getString("provider_id") != null) {
          providers.add(auth.getString("provider_id").toLowerCase(Locale.ROOT));
        }
      }
      return items.isEmpty() ? Set.of(toolkit.toLowerCase(Locale.ROOT)) : providers;
    });
  }

  /** One page of the user's connections, optionally for one auth provider; the cursor is an offset. */
  Future<ProviderPage<ProviderConnection>> page(String userId, String providerId, int offset, int limit) {
    Map<String, String> query = new HashMap<>();
    query.put("user_id", userId);
    query.put("provider_id", providerId);
    query.put("offset", String.valueOf(offset));
    query.put("limit", String.valueOf(limit));
    return http.json(HttpMethod.GET, "/v1/admin/user_connections", query, null).map(json -> {
      JsonArray items = json.getJsonArray("items", new JsonArray());
      List<ProviderConnection> out = new ArrayList<>();
      for (Object i : items) {
        JsonObject c = (JsonObject) i;
        if (userId.equals(c.getString("user_id"))) {
          String status = c.getString("connection_status", "active");
          out.add(new ProviderConnection(c.getString("id"), c.getString("provider_id"), userId, status,
              "active".equalsIgnoreCase(status)));
        }
      }
      int next = offset + items.size();
      boolean more = !items.isEmpty() && next < json.getInteger("total_count", 0);
      return new ProviderPage<>(out, more ? String.valueOf(next) : null);
    });
  }

  /** All of the user's connections, optionally for one auth provider. */
  Future<List<ProviderConnection>> all(String userId, String providerId) {
    List<ProviderConnection> out = new ArrayList<>();
    return pages(userId, providerId, 0, 0, out).map(v -> out);
  }

  private Future<Void> pages(String userId, String providerId, int offset, int pages, List<ProviderConnection> into) {
    return page(userId, providerId, offset, PAGE).compose(p -> {
      into.addAll(p.items());
      return p.nextCursor() == null || pages + 1 >= MAX_PAGES ? Future.succeededFuture()
          : pages(userId, providerId, Integer.parseInt(p.nextCursor()), pages + 1, into);
    });
  }
}
