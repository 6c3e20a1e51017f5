package dev.ratchet.connectors.provider.composio.impl;

import dev.ratchet.connectors.provider.impl.ProviderHttp;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a Composio listing to its end by following {@code next_cursor}: a check that reads only the
 * first page would call a connection missing when it is on the second.
 */
final class ComposioPages {

  /** A bound on pages read for one listing; a listing that long is cut there. */
  static final int MAX_PAGES = 50;

  private ComposioPages() {
  }

  static Future<List<JsonObject>> all(ProviderHttp http, String path, Map<String, String> query) {
    List<JsonObject> out = new ArrayList<>();
    return next(http, path, query, null, 0, out).map(v -> out);
  }

  private static Future<Void> next(ProviderHttp http, String path, Map<String, String> query, String cursor, int pages,
                                   List<JsonObject> out) {
    Map<String, String> q = new HashMap<>(query);
    q.put("cursor", cursor);
    return http.json(HttpMethod.GET, path, q, null).compose(json -> {
      out.addAll(ComposioToolProviderImpl.objects(json.getJsonArray("items")));
      String next = cursor(json);
      return next == null || pages + 1 >= MAX_PAGES ? Future.succeededFuture()
          : next(http, path, query, next, pages + 1, out);
    });
  }

  /** The page's {@code next_cursor}, null on the last page. */
  static String cursor(JsonObject page) {
    Object next = page.getValue("next_cursor");
    return next == null || String.valueOf(next).isEmpty() ? null : String.valueOf(next);
  }
}
