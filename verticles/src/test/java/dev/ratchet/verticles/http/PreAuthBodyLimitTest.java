package dev.ratchet.verticles.http;

import io.vertx.core.json.JsonArray;
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
 * Before the caller is known the server reads at most {@code http.preAuthBodyLimitBytes} (16 KiB)
 * of a body: a refused request is answered without waiting for its body, a declared or streamed
 * larger body on the login answers 413, and a known caller may still send up to the full limit.
 */
class PreAuthBodyLimitTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  private static final String CHUNKED = "Transfer-Encoding: chunked";
  private static final String DECLARED_20_KB = "Content-Length: 20480";

  /** Sends the head and the first part of a body that never ends; the status line, or null after 5 s. */
  private static String statusWithUnfinishedBody(String head, byte[] firstPart) throws IOException {
    try (Socket socket = new Socket(SHOP.uri().getHost(), SHOP.uri().getPort())) {
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(firstPart);
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      try {
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
          line.write(b);
        }
      } catch (SocketTimeoutException e) {
        return null;
      }
      return line.toString(StandardCharsets.US_ASCII).trim();
    }
  }

  private static byte[] chunk(int size) {
    return (Integer.toHexString(size) + "\r\n" + "x".repeat(size) + "\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** The head of a JSON POST to {@code path} whose body is framed by {@code framing}. */
  private static String head(String path, String framing) {
    return "POST " + path + " HTTP/1.1\r\nHost: " + SHOP.uri().getAuthority()
        + "\r\nContent-Type: application/json\r\n" + framing + "\r\n\r\n";
  }

  @Test
  void anUnauthenticatedStreamedBodyIsAnswered401WithoutWaitingForItsEnd() throws IOException {
    assertThat(statusWithUnfinishedBody(head("/api/sessions/s-1/turns", CHUNKED), chunk(20 * 1024))).startsWith("HTTP/1.1 401");
  }

  @Test
  void anUnauthenticatedDeclaredLargeBodyIsAnsweredWithoutWaitingForIt() throws IOException {
    assertThat(statusWithUnfinishedBody(head("/api/sessions/s-1/turns", DECLARED_20_KB), new byte[1024])).startsWith("HTTP/1.1 401");
  }

  @Test
  void refusedBodiesDoNotStallTheClientsNextRequests() {
    // the JDK client speaks HTTP/2 where it can: refused streams must not hold the connection's window
    Http anonymous = Http.anonymous(SHOP.baseUrl());
    for (int i = 0; i < 5; i++) {
      Http.Answer a = anonymous.postRaw("/api/sessions/s-1/turns", "x".repeat(200_000));
      assertThat(a.status()).isEqualTo(401);
      assertThat(a.json().getString("code")).isEqualTo("UNAUTHENTICATED");
    }
    assertThat(anonymous.get("/health").status()).isEqualTo(200);
  }

  @Test
  void aLoginDeclaringMoreThanThePreAuthLimitAnswers413AtOnce() throws IOException {
    assertThat(statusWithUnfinishedBody(head("/login", DECLARED_20_KB), new byte[0])).startsWith("HTTP/1.1 413");
  }

  @Test
  void aLoginStreamingMoreThanThePreAuthLimitAnswers413() throws IOException {
    assertThat(statusWithUnfinishedBody(head("/login", CHUNKED), chunk(20 * 1024))).startsWith("HTTP/1.1 413");
    Http.Answer a = Http.anonymous(SHOP.baseUrl()).post("/login", new JsonObject().put("name", "ana")
        .put("password", ShopRuntime.PASSWORD).put("pad", "x".repeat(20 * 1024)));
    assertThat(a.status()).isEqualTo(413);
    assertThat(a.json().getString("code")).isEqualTo("PAYLOAD_TOO_LARGE");
    assertThat(a.json().getString("message")).contains("16384 bytes (the limit before logging in)");
  }

  @Test
  void aKnownCallerMaySendMoreThanThePreAuthLimitAndTheServerKeepsServing() {
    JsonObject turn = new JsonObject().put("agent", "shop").put("turn", new JsonObject().put("turnId", "t-big")
        .put("calls", new JsonArray().add(new JsonObject().put("name", "look_up_order")
            .put("arguments", new JsonObject().put("id", "x".repeat(20 * 1024))))));
    Http.Answer a = Http.bearer(SHOP.baseUrl(), ShopRuntime.AGENT_TOKEN).post("/api/sessions/s-big/turns", turn);
    assertThat(a.status()).as(a.body()).isBetween(200, 202);
    Http ana = Http.login(SHOP.baseUrl(), "ana", ShopRuntime.PASSWORD);
    assertThat(ana.post("/api/sessions/s-big/turns", turn.copy().put("turn", turn.getJsonObject("turn").copy()
        .put("turnId", "t-big-2"))).status()).isNotEqualTo(413);
  }
}
