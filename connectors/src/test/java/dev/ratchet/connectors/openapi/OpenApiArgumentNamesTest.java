package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.runtime.Outcome;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.ratchet.connectors.testing.Invocations.await;
import static dev.ratchet.connectors.testing.Invocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parameter names that model APIs refuse as property keys get safe, stable, distinct names in the
 * tool's input, and each is still sent under its own name.
 */
class OpenApiArgumentNamesTest {

  private static final String LONG = "x".repeat(70);
  private static final String DOCUMENT = """
      {"openapi": "3.1.0", "info": {"title": "Names", "version": "1"},
       "paths": {"/things/{id}": {"post": {"operationId": "clash",
         "parameters": [
           {"name": "filter[]", "in": "query", "schema": {"type": "string"}},
           {"name": "filter", "in": "query", "schema": {"type": "string"}},
           {"name": "filter[status]", "in": "query", "schema": {"type": "string"}},
           {"name": "id", "in": "query", "schema": {"type": "string"}},
           {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
           {"name": "body", "in": "header", "schema": {"type": "string"}},
           {"name": "%s", "in": "query", "schema": {"type": "string"}},
           {"name": "%s", "in": "cookie", "schema": {"type": "string"}}],
         "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
         "responses": {"200": {"description": "ok"}}}}}}
      """.formatted(LONG, LONG + "y");

  private Vertx vertx;
  private ValidatingProvider provider;

  @BeforeEach
  void setUp() throws Exception {
    vertx = Vertx.vertx();
    provider = new ValidatingProvider(vertx, null);
  }

  @AfterEach
  void tearDown() {
    provider.close();
    await(vertx.close());
  }

  private OpenApiConnector load() {
    return OpenApiConnector.parse(vertx, "names", DOCUMENT, "names.json", Connection.of("names", "openapi",
        new JsonObject().put("baseUrl", provider.baseUrl()), Map.of()));
  }

  @Test
  void unsafeAndClashingNamesGetDistinctSafeNamesThatStayTheSameAcrossLoads() {
    try (OpenApiConnector first = load(); OpenApiConnector second = load()) {
      JsonObject props = first.operation("clash").definition().inputSchema().getJsonObject("properties");
      assertThat(props.fieldNames()).allMatch(k -> k.matches("^[a-zA-Z0-9_.-]{1,64}$")).hasSize(9)
          .contains("filter", "filter_query", "filter.status", "id", "id_query", "body", "body_header");
      assertThat(props.getJsonObject("filter_query").getString("description")).contains("'filter[]'");
      assertThat(second.operation("clash").definition().inputSchema()).isEqualTo(first.operation("clash")
          .definition().inputSchema());
    }
  }

  @Test
  void eachArgumentIsSentUnderItsOwnWireName() {
    try (OpenApiConnector names = load()) {
      JsonObject props = names.operation("clash").definition().inputSchema().getJsonObject("properties");
      String longQuery = props.fieldNames().stream().filter(k -> k.startsWith("xxx") && !k.endsWith("cookie"))
          .sorted().findFirst().orElseThrow();
      String longCookie = props.fieldNames().stream().filter(k -> k.startsWith("xxx") && !k.equals(longQuery))
          .findFirst().orElseThrow();
      assertThat(longQuery).hasSizeLessThanOrEqualTo(64);
      JsonObject args = new JsonObject().put("filter_query", "a").put("filter", "b").put("filter.status", "open")
          .put("id", "p").put("id_query", "q").put("body_header", "h").put(longQuery, "l").put(longCookie, "c")
          .put("body", new JsonObject().put("k", 1));
      assertThat(await(names.operation("clash").execute(invocation("t1", 0, args))).outcome())
          .isEqualTo(Outcome.SUCCEEDED);
      ValidatingProvider.Received r = provider.last();
      assertThat(r.uri()).isEqualTo("/things/p?filter%5B%5D=a&filter=b&filter%5Bstatus%5D=open&id=q&" + LONG + "=l");
      assertThat(r.headers().get("body")).isEqualTo("h");
      assertThat(r.headers().get("Cookie")).isEqualTo(LONG + "y=c");
      assertThat(r.body().toJsonObject()).isEqualTo(new JsonObject().put("k", 1));
    }
  }

  @Test
  void valuesArePercentEncodedAsRfc3986SaysAndAllowReservedKeepsOnlyWhatAQueryMayCarry() {
    assertThat(UriEncoding.encode("é a/b~")).isEqualTo("%C3%A9%20a%2Fb~");
    assertThat(UriEncoding.encode("/a?b=c&d#e%2Fx%zz", true)).isEqualTo("/a?b=c&d%23e%2Fx%25zz");
    assertThat(PathKey.of("/items?action=close#x")).isEqualTo(new PathKey("/items", "action=close"));
    assertThat(PathKey.of("/items#create")).isEqualTo(new PathKey("/items", null));
  }
}
