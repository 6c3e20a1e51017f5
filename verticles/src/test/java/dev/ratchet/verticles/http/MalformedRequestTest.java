package dev.ratchet.verticles.http;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A malformed URL escape or {@code Last-Event-ID} answers 400 with a JSON error, and the log shows
 * no error and no stack trace for it. Requests go over raw sockets: HTTP clients refuse to send them.
 */
class MalformedRequestTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  record Raw(String head, String body) {
    int status() {
      return Integer.parseInt(head.split(" ")[1]);
    }
  }

  /** One GET; the head and what came of the body within a second (event streams never end). */
  private static Raw get(String target, String... headers) throws IOException {
    try (Socket socket = new Socket(SHOP.uri().getHost(), SHOP.uri().getPort())) {
      socket.setSoTimeout(1_000);
      StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: " + SHOP.uri().getAuthority()
          + "\r\nAuthorization: Bearer " + ShopRuntime.AGENT_TOKEN + "\r\n");
      for (String h : headers) {
        request.append(h).append("\r\n");
      }
      OutputStream out = socket.getOutputStream();
      out.write(request.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      try {
        int n;
        while ((n = in.read(buf)) != -1) {
          got.write(buf, 0, n);
        }
      } catch (SocketTimeoutException e) {
        // a stream: what arrived so far
      }
      String text = got.toString(StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      return new Raw(text.substring(0, split), text.substring(split + 4));
    }
  }

  private static void assertJsonError400(Raw answer) {
    assertThat(answer.status()).as(answer.head() + "\n" + answer.body()).isEqualTo(400);
    assertThat(answer.head()).containsIgnoringCase("Content-Type: application/json");
    JsonObject body = new JsonObject(answer.body().substring(answer.body().indexOf('{')));
    assertThat(body.getString("code")).isNotBlank();
    assertThat(body.getString("message")).isNotBlank();
  }

  private static void assertNoErrorLogged(String log) {
    assertThat(log).doesNotContain(" ERROR ").doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void aMalformedUrlEscapeAnswers400WithoutAStackTrace() throws IOException {
    try (CapturedLog log = new CapturedLog()) {
      for (String target : new String[] {"/%zz", "/api/sessions/%zz", "/api/sessions/a%zzb/events", "/%",
          "/api/sessions/x%2", "/login.html?x=%zz"}) {
        Raw answer = get(target);
        if (target.startsWith("/login.html")) {
          // a malformed query string is the page's business: the page ignores it
          assertThat(answer.status()).isEqualTo(200);
          continue;
        }
        assertJsonError400(answer);
      }
      assertNoErrorLogged(log.text());
    }
  }

  @Test
  void aMalformedLastEventIdAnswers400WithoutAStackTrace() throws IOException {
    try (CapturedLog log = new CapturedLog()) {
      for (String id : new String[] {"abc", "1-x", "((", "1-0 2", "-", "1-0.x", "99999999999999999999999-0", "1-0.",
          "+", "1-0\u00e9"}) {
        Raw answer = get("/api/sessions/s-1/events", "Last-Event-ID: " + id);
        assertJsonError400(answer);
        assertThat(new JsonObject(answer.body().substring(answer.body().indexOf('{'))).getString("message"))
            .contains("Last-Event-ID");
      }
      assertNoErrorLogged(log.text());
    }
  }

  @Test
  void aWellFormedLastEventIdStillStreams() throws IOException {
    // the agent's own session: a stream of any other answers 404
    JsonObject turn = new JsonObject().put("agent", "shop").put("turn", new JsonObject().put("turnId", "t1")
        .put("calls", new io.vertx.core.json.JsonArray().add(new JsonObject().put("name", "look_up_order")
            .put("arguments", new JsonObject().put("id", "A-1")))));
    assertThat(Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN).post("/api/sessions/s-1/turns", turn).status())
        .isIn(200, 202);

    Raw answer = get("/api/sessions/s-1/events", "Last-Event-ID: 1700000000000-0.3");
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body()).contains(": ratchet session s-1");
    assertThat(get("/api/sessions/s-1/events", "Last-Event-ID: 1700000000000-0").status()).isEqualTo(200);
  }
}
