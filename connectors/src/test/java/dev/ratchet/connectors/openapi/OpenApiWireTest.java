package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.OpenApiConnector;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static dev.ratchet.connectors.testing.Invocations.await;
import static dev.ratchet.connectors.testing.Invocations.failure;
import static dev.ratchet.connectors.testing.Invocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every parameter style and body media type on the wire, against a local provider. Where
 * vertx-openapi (Vert.x's own request validator, code independent of the connector) can read the
 * document, each request must pass it; the styles and media types it cannot read (spaceDelimited,
 * pipeDelimited, deepObject, parameters with {@code content}, form and {@code +json} bodies other
 * than {@code vnd.*}, path keys with {@code #} or {@code ?}) are checked byte for byte against
 * what the OpenAPI specification's style tables say.
 */
class OpenApiWireTest {

  private Vertx vertx;
  private ValidatingProvider provider;
  private OpenApiConnector connector;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void tearDown() {
    if (connector != null) {
      connector.close();
    }
    if (provider != null) {
      provider.close();
    }
    await(vertx.close());
  }

  static String document(String name, String version) {
    boolean v30 = version.startsWith("3.0");
    try (InputStream in = OpenApiWireTest.class.getResourceAsStream("/openapi/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("VERSION", version)
          .replace("NULLABLE_STRING", v30 ? "{ \"type\": \"string\", \"nullable\": true, \"example\": \"open\" }"
              : "{ \"type\": \"string\", \"examples\": [\"open\"] }")
          .replace("FILE_SCHEMA", v30 ? "{ \"type\": \"string\", \"format\": \"binary\" }"
              : "{ \"contentMediaType\": \"application/octet-stream\" }");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private void start(String name, String version, boolean validated) throws Exception {
    String text = document(name, version);
    provider = new ValidatingProvider(vertx, validated ? new JsonObject(text) : null);
    Connection connection = Connection.of("wire", "openapi", new JsonObject().put("baseUrl", provider.baseUrl())
        .put("fileUrlHosts", new JsonArray().add(provider.hostPort())), Map.of());
    connector = OpenApiConnector.parse(vertx, "wire", text, name, connection);
  }

  private ToolResult call(String operationId, JsonObject args) {
    ToolResult r = await(connector.operation(operationId).execute(invocation("t1", 0, args)));
    assertThat(r.outcome()).as("%s: %s; validator: %s", operationId, r.error(), provider.last().validation())
        .isEqualTo(Outcome.SUCCEEDED);
    return r;
  }

  private JsonObject properties(String operationId) {
    return connector.operation(operationId).definition().inputSchema().getJsonObject("properties");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.0.3", "3.1.0"})
  void queryHeaderAndCookieParametersPassTheIndependentValidator(String version) throws Exception {
    start("wire-validated.json", version, true);
    String longName = "a_very_long_parameter_name_that_some_vendor_wrote_for_no_good_reason_x";
    JsonObject props = properties("search");
    assertThat(props.fieldNames()).allMatch(k -> k.matches("^[a-zA-Z0-9_.-]{1,64}$"))
        .contains("filter", "tags", "X-Ids", "session").doesNotContain("$filter", longName);
    assertThat(props.getJsonObject("filter").getString("description")).contains("'$filter'");
    String safeLong = props.fieldNames().stream().filter(k -> k.startsWith("a_very_long")).findFirst().orElseThrow();
    assertThat(props.getJsonObject("filter").getValue("type"))
        .isEqualTo(version.startsWith("3.0") ? new JsonArray().add("string").add("null") : "string");

    call("search", new JsonObject().put("tags", new JsonArray().add("a").add("b c"))
        .put("ids", new JsonArray().add(1).add(2).add(3)).put("point", new JsonObject().put("x", 1).put("y", 2))
        .put("q", "a&b=c/d").put("path", "/a/b?c")
        .put("filter", "open").put(safeLong, "v").put("X-Ids", new JsonArray().add(1).add(2))
        .put("X-Dims", new JsonObject().put("w", 3).put("h", 4)).put("session", "abc def")
        .put("prefs", new JsonArray().add("a").add("b")));

    ValidatingProvider.Received r = provider.last();
    assertThat(r.uri()).isEqualTo("/search?tags=a&tags=b%20c&ids=1,2,3&point=x,1,y,2&q=a%26b%3Dc%2Fd&path=/a/b?c"
        + "&%24filter=open&" + longName + "=v");
    assertThat(r.headers().get("X-Ids")).isEqualTo("1,2");
    assertThat(r.headers().get("X-Dims")).isEqualTo("w=3,h=4");
    assertThat(r.headers().get("Cookie")).isEqualTo("session=abc%20def; prefs=a,b");

    call("filterBy", new JsonObject().put("color", new JsonObject().put("r", 1).put("g", 2)));
    assertThat(provider.last().uri()).isEqualTo("/filter?r=1&g=2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.0.3", "3.1.0"})
  void pathStylesSimpleLabelAndMatrixPassTheIndependentValidator(String version) throws Exception {
    start("wire-validated.json", version, true);
    JsonObject role = new JsonObject().put("role", "admin").put("n", 5);
    call("paths", new JsonObject().put("a", new JsonArray().add(3).add(4).add(5))
        .put("b", new JsonArray().add("x").add("y")).put("c", role));
    assertThat(provider.last().uri()).isEqualTo("/p/3,4,5/.x.y/;c=role,admin,n,5");

    call("pathsExploded", new JsonObject().put("a", role).put("b", role).put("c", new JsonArray().add(1).add(2)));
    assertThat(provider.last().uri()).isEqualTo("/q/role=admin,n=5/.role,admin,n,5/;c=1;c=2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.0.3", "3.1.0"})
  void aPathAndAQueryParameterOfOneNameStayDistinctAndAValueNeverAddsASegment(String version) throws Exception {
    start("wire-validated.json", version, true);
    assertThat(properties("putThing").fieldNames()).containsExactlyInAnyOrder("id", "id_query", "body");
    call("putThing", new JsonObject().put("id", "a/b c").put("id_query", 7).put("body", new JsonObject()
        .put("name", "n1")));
    ValidatingProvider.Received r = provider.last();
    assertThat(r.uri()).isEqualTo("/things/a%2Fb%20c?id=7");
    assertThat(r.headers().get("Content-Type")).isEqualTo("application/json");
    assertThat(r.body().toJsonObject()).isEqualTo(new JsonObject().put("name", "n1"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.0.3", "3.1.0"})
  void jsonVendorAndBinaryBodiesPassTheIndependentValidator(String version) throws Exception {
    start("wire-validated.json", version, true);
    call("postVnd", new JsonObject().put("body", new JsonObject().put("n", 1)));
    assertThat(provider.last().headers().get("Content-Type")).isEqualTo("application/vnd.acme.item+json");
    assertThat(provider.last().body().toJsonObject()).isEqualTo(new JsonObject().put("n", 1));

    byte[] bytes = {0, 1, 2, (byte) 0xff};
    assertThat(properties("postBlob").getJsonObject("body").getString("contentEncoding")).isEqualTo("base64");
    call("postBlob", new JsonObject().put("body", Base64.getEncoder().encodeToString(bytes)));
    assertThat(provider.last().headers().get("Content-Type")).isEqualTo("application/octet-stream");
    assertThat(provider.last().body().getBytes()).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.0.3", "3.1.0"})
  void multipartBodiesSendFilesGivenAsBase64OrByUrlAndPassTheIndependentValidator(String version) throws Exception {
    start("wire-validated.json", version, true);
    JsonObject file = properties("upload").getJsonObject("body").getJsonObject("properties").getJsonObject("file");
    assertThat(file.getJsonObject("properties").fieldNames()).contains("base64", "url", "filename", "contentType");

    call("upload", new JsonObject().put("body", new JsonObject().put("title", "Report Q1")
        .put("meta", new JsonObject().put("k", 1))
        .put("file", new JsonObject().put("base64", Base64.getEncoder().encodeToString("hello".getBytes()))
            .put("filename", "h.txt"))
        .put("photo", new JsonObject().put("url", provider.baseUrl() + "/files/logo.png")
            .put("contentType", "application/octet-stream"))));

    ValidatingProvider.Received r = provider.last();
    String type = r.headers().get("Content-Type");
    assertThat(type).startsWith("multipart/form-data; boundary=");
    String boundary = type.substring(type.indexOf('=') + 1);
    assertThat(r.body().toString(StandardCharsets.ISO_8859_1)).isEqualTo("--" + boundary + "\r\n"
        + "Content-Disposition: form-data; name=\"title\"\r\n"
        + "Content-Type: text/plain; charset=utf-8\r\n\r\nReport Q1\r\n"
        + "--" + boundary + "\r\n"
        + "Content-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"k\":1}\r\n"
        + "--" + boundary + "\r\n"
        + "Content-Disposition: form-data; name=\"file\"; filename=\"h.txt\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\nhello\r\n"
        + "--" + boundary + "\r\n"
        + "Content-Disposition: form-data; name=\"photo\"; filename=\"photo\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n\u0089PNG\r\n"
        + "--" + boundary + "--\r\n");
  }

  @Test
  void aFileUrlOnAHostTheConnectionDoesNotListIsNeverFetchedAndNothingIsSent() throws Exception {
    start("wire-validated.json", "3.1.0", true);
    Throwable t = failure(connector.operation("upload").execute(invocation("t1", 0, new JsonObject().put("body",
        new JsonObject().put("title", "x")
            .put("file", new JsonObject().put("url", "http://169.254.169.254/latest"))))));
    assertThat(t).isInstanceOf(ToolNotSentException.class).hasMessageContaining("fileUrlHosts")
        .hasMessageContaining("nothing was sent");
    assertThat(provider.received).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.0.3", "3.1.0"})
  void delimitedDeepObjectAndContentParametersAreSentAsTheStyleTablesSay(String version) throws Exception {
    start("wire-unvalidated.json", version, false);
    call("delimited", new JsonObject().put("colors", new JsonArray().add("blue").add("black"))
        .put("ids", new JsonArray().add(1).add(2))
        .put("filter", new JsonObject().put("status", "open").put("owner", new JsonObject().put("name", "al b")))
        .put("rgb", new JsonObject().put("R", 100).put("G", 200)).put("where", new JsonObject().put("a", 1))
        .put("include", new JsonArray().add("x").add("y")).put("X-Meta", new JsonObject().put("k", "v")));
    ValidatingProvider.Received r = provider.last();
    assertThat(r.uri()).isEqualTo("/d?colors=blue%20black&ids=1%7C2&filter%5Bstatus%5D=open&filter%5Bowner%5D%5Bname%5D=al%20b"
        + "&rgb=R%20100%20G%20200&where=%7B%22a%22%3A1%7D&include%5B%5D=x&include%5B%5D=y");
    // what a server's own decoding (Netty's) reads back
    Map<String, List<String>> decoded = new QueryStringDecoder(r.uri()).parameters();
    assertThat(decoded).containsEntry("colors", List.of("blue black")).containsEntry("ids", List.of("1|2"))
        .containsEntry("filter[status]", List.of("open")).containsEntry("filter[owner][name]", List.of("al b"))
        .containsEntry("where", List.of("{\"a\":1}")).containsEntry("include[]", List.of("x", "y"));
    JsonObject props = properties("delimited");
    assertThat(props.fieldNames()).contains("include").doesNotContain("include[]");
    assertThat(props.getJsonObject("include").getString("description")).contains("'include[]'");
    assertThat(r.headers().get("X-Meta")).isEqualTo("{\"k\":\"v\"}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.0.3", "3.1.0"})
  void pathKeysWithAFragmentOrAFixedQueryAreUnderstoodAndTheQueryIsSent(String version) throws Exception {
    start("wire-unvalidated.json", version, false);
    call("createItem", new JsonObject().put("body", new JsonObject().putNull("title")));
    assertThat(provider.last().method()).isEqualTo("POST");
    assertThat(provider.last().uri()).isEqualTo("/items");
    assertThat(provider.last().headers().get("Content-Type")).isEqualTo("application/merge-patch+json");
    assertThat(provider.last().body().toString()).isEqualTo("{\"title\":null}");

    call("closeItems", new JsonObject().put("force", true).put("body", new JsonObject().put("name", "x y")
        .put("tags", new JsonArray().add("a").add("b")).put("dims", new JsonObject().put("w", 2))));
    assertThat(provider.last().uri()).isEqualTo("/items?action=close&force=true");
    assertThat(provider.last().headers().get("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
    assertThat(provider.last().body().toString()).isEqualTo("name=x%20y&tags=a,b&dims%5Bw%5D=2");
  }

  @Test
  void jsonPatchTextAndOtherMediaTypesAreSentWithTheirOwnContentType() throws Exception {
    start("wire-unvalidated.json", "3.1.0", false);
    JsonArray patch = new JsonArray().add(new JsonObject().put("op", "replace").put("path", "/a").put("value", 1));
    call("patchItem", new JsonObject().put("id", 7).put("body", patch));
    assertThat(provider.last().uri()).isEqualTo("/items/7");
    assertThat(provider.last().headers().get("Content-Type")).isEqualTo("application/json-patch+json");
    assertThat(provider.last().body().toJsonArray()).isEqualTo(patch);

    assertThat(properties("postNote").getJsonObject("body").getString("type")).isEqualTo("string");
    call("postNote", new JsonObject().put("body", "hello wörld"));
    assertThat(provider.last().headers().get("Content-Type")).isEqualTo("text/plain; charset=utf-8");
    assertThat(provider.last().body().toString(StandardCharsets.UTF_8)).isEqualTo("hello wörld");

    call("postXml", new JsonObject().put("body", "<feed/>"));
    assertThat(provider.last().headers().get("Content-Type")).isEqualTo("application/atom+xml; charset=utf-8");
    assertThat(provider.last().body().toString()).isEqualTo("<feed/>");

    call("putPdf", new JsonObject().put("body", Base64.getEncoder().encodeToString("%PDF-1.7".getBytes())));
    assertThat(provider.last().headers().get("Content-Type")).isEqualTo("application/pdf");
    assertThat(provider.last().body()).isEqualTo(Buffer.buffer("%PDF-1.7"));
  }

  @Test
  void aPathPlaceholderTheDocumentForgotToDeclareIsAskedForAndSent() throws Exception {
    start("wire-unvalidated.json", "3.1.0", false);
    assertThat(connector.operation("undeclared").definition().inputSchema().getJsonArray("required"))
        .containsExactly("thing");
    call("undeclared", new JsonObject().put("thing", "a b"));
    assertThat(provider.last().uri()).isEqualTo("/undeclared/a%20b");
  }

  @Test
  void aStyleTheLocationDoesNotDefineIsSentInTheLocationsDefaultWithAWarning() throws Exception {
    start("wire-unvalidated.json", "3.0.3", false);
    assertThat(connector.warnings().toString()).contains("styledWrongly").contains("style 'form'");
    call("styledWrongly", new JsonObject().put("v", new JsonArray().add(1).add(2)));
    assertThat(provider.last().uri()).isEqualTo("/styled/1,2");
  }

  @Test
  void aRequestThatCannotBeBuiltAsTheDocumentSaysIsNeverSent() throws Exception {
    start("wire-unvalidated.json", "3.1.0", false);
    Throwable badHeader = failure(connector.operation("badHeader").execute(invocation("t1", 0,
        new JsonObject().put("X_Bad", "v"))));
    assertThat(badHeader).isInstanceOf(ToolNotSentException.class).hasMessageContaining("'X Bad'")
        .hasMessageContaining("nothing was sent");
    Throwable noPath = failure(connector.operation("patchItem").execute(invocation("t1", 1, new JsonObject())));
    assertThat(noPath).isInstanceOf(ToolNotSentException.class).hasMessageContaining("'id'");
    Throwable notBase64 = failure(connector.operation("putPdf").execute(invocation("t1", 2,
        new JsonObject().put("body", "not base64 !"))));
    assertThat(notBase64).isInstanceOf(ToolNotSentException.class).hasMessageContaining("base64");
    assertThat(provider.received).isEmpty();
  }
}
