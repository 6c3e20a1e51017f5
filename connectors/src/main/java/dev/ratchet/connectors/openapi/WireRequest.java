package dev.ratchet.connectors.openapi;

import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The request target and the parameter headers of one call, built from its arguments as the
 * document says: each parameter read from its property ({@link OpenApiParameter#argument()}) and
 * written under its own name in its location and style. Fails with
 * {@link IllegalArgumentException} when the request cannot be built as the document says (a path
 * parameter without a value, a header name HTTP cannot carry): such a request is never sent.
 *
 * @param query the query pairs, percent-encoded: the path key's fixed query first, then the parameters
 */
record WireRequest(String path, List<String> query, MultiMap headers) {

  private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";

  static WireRequest build(OpenApiOperationSpec spec, JsonObject args) {
    PathKey key = PathKey.of(spec.path());
    String path = key.encodedTemplate();
    List<String> query = new ArrayList<>();
    if (key.fixedQuery() != null) {
      query.add(key.fixedQuery());
    }
    List<String> cookies = new ArrayList<>();
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    for (OpenApiParameter p : spec.parameters()) {
      Object value = args.getValue(p.argument());
      if (p.in().equals("path")) {
        if (value == null) {
          throw new IllegalArgumentException("argument '" + p.argument() + "' is required (path parameter '"
              + p.name() + "')");
        }
        path = path.replace("{" + p.name() + "}", PathStyles.expand(p, value));
      } else if (value != null) {
        switch (p.in()) {
          case "query" -> query.addAll(QueryStyles.pairs(p, value));
          case "header" -> {
            if (!p.name().matches(TOKEN)) {
              throw new IllegalArgumentException("header parameter '" + p.name() + "' has a name HTTP cannot carry");
            }
            headers.add(p.name(), HeaderStyles.header(p, value));
          }
          case "cookie" -> cookies.addAll(HeaderStyles.cookies(p, value));
          default -> throw new IllegalArgumentException("parameter '" + p.name() + "' is in '" + p.in()
              + "', which OpenAPI does not define");
        }
      }
    }
    if (path.matches(".*\\{[^{}]*}.*")) {
      throw new IllegalArgumentException("the path " + spec.path() + " keeps a template part no parameter fills");
    }
    if (!cookies.isEmpty()) {
      headers.add("Cookie", String.join("; ", cookies));
    }
    return new WireRequest(path, query, headers);
  }

  /** The absolute URI under {@code baseUrl}, with {@code extra} pairs (authentication) after the others. */
  String uri(String baseUrl, List<String> extra) {
    List<String> all = new ArrayList<>(query);
    all.addAll(extra);
    return baseUrl + path + (all.isEmpty() ? "" : "?" + String.join("&", all));
  }
}
