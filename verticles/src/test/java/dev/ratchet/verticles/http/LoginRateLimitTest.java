package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Log-ins are throttled per user name and client address pair, and per address with a higher cap:
 * after 5 failures each further one locks the name out from that address for a second, doubling;
 * while locked even the right password answers 429 with a Retry-After. Requests come from distinct loopback addresses (127.0.0.x) over raw sockets.
 */
class LoginRateLimitTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  ShopRuntime shop;
  URI base;

  @BeforeEach
  void start() {
    shop = new ShopRuntime(REDIS, o -> o.loginLockout(5, 1_000, 4_000));
    base = URI.create(shop.baseUrl());
  }

  @AfterEach
  void stop() {
    shop.close();
  }

  record Raw(int status, Map<String, String> headers, String body) {
  }

  private Raw post(String from, String contentType, String body) throws IOException {
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(from, 0));
      socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5_000);
      socket.setSoTimeout(20_000);
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write(("POST /login HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\nContent-Type: " + contentType
          + "\r\nContent-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
      out.write(bytes);
      out.flush();
      InputStream in = socket.getInputStream();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String[] lines = text.substring(0, split).split("\r\n");
      Map<String, String> headers = new HashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers.put(lines[i].substring(0, colon).trim().toLowerCase(), lines[i].substring(colon + 1).trim());
      }
      return new Raw(Integer.parseInt(lines[0].split(" ")[1]), headers, text.substring(split + 4));
    }
  }

  private Raw login(String from, String name, String password) throws IOException {
    return post(from, "application/json", new JsonObject().put("name", name).put("password", password).encode());
  }

  @Test
  void afterFiveFailuresTheRightPasswordAnswers429WithRetryAfterUntilTheLockEnds() throws Exception {
    for (int i = 0; i < 6; i++) {
      assertThat(login("127.0.0.2", "ana", "wrong-" + i).status()).isEqualTo(401);
    }
    Raw locked = login("127.0.0.2", "ana", ShopRuntime.PASSWORD);
    assertThat(locked.status()).as(locked.body()).isEqualTo(429);
    assertThat(new JsonObject(locked.body()).getString("code")).isEqualTo("TOO_MANY_ATTEMPTS");
    assertThat(locked.headers().get("retry-after")).isEqualTo("1");
    Raw form = post("127.0.0.2", "application/x-www-form-urlencoded", "name=ana&password=x");
    assertThat(form.status()).isEqualTo(303);
    assertThat(form.headers().get("location")).isEqualTo("/login.html?error=locked");

    Thread.sleep(1_100);
    assertThat(login("127.0.0.2", "ana", ShopRuntime.PASSWORD).status()).isEqualTo(200);
    // a success forgets the failures: five more are free again
    for (int i = 0; i < 5; i++) {
      assertThat(login("127.0.0.2", "ana", "wrong-" + i).status()).isEqualTo(401);
    }
  }

  @Test
  void theLockoutDoublesWithEachFurtherFailure() throws Exception {
    for (int i = 0; i < 6; i++) {
      login("127.0.0.8", "ana", "wrong-" + i);
    }
    Thread.sleep(1_100);
    assertThat(login("127.0.0.8", "ana", "wrong-again").status()).isEqualTo(401);
    assertThat(login("127.0.0.8", "ana", ShopRuntime.PASSWORD).headers().get("retry-after")).isEqualTo("2");
  }

  @Test
  void wrongPasswordsForOneNameLockThatNameFromThatAddressOnlyNeverTheOtherUsersThere() throws Exception {
    for (int i = 0; i < 6; i++) {
      assertThat(login("127.0.0.3", "ana", "wrong-" + i).status()).isEqualTo(401);
    }
    assertThat(login("127.0.0.3", "ana", ShopRuntime.PASSWORD).status()).isEqualTo(429);
    assertThat(login("127.0.0.3", "vic", ShopRuntime.PASSWORD).status()).as("another user of the address").isEqualTo(200);
    assertThat(login("127.0.0.4", "ana", ShopRuntime.PASSWORD).status()).as("the name from elsewhere").isEqualTo(200);
  }

  @Test
  void anAddressGuessingManyNamesIsLockedForEveryNamePastItsHigherCapAndOtherAddressesAreNot() throws Exception {
    int cap = HttpOptions.create().loginAddressFreeFailures();
    for (int i = 0; i <= cap; i++) {
      assertThat(login("127.0.0.5", "guess-" + i, "wrong").status()).isEqualTo(401);
    }
    assertThat(login("127.0.0.5", "ana", ShopRuntime.PASSWORD).status()).isEqualTo(429);
    assertThat(login("127.0.0.6", "ana", ShopRuntime.PASSWORD).status()).isEqualTo(200);
  }

  @Test
  void everyFailureIsLoggedWithTheNameAndAddressButNeverThePassword() throws Exception {
    String forged = "mallory\n[main] INFO forged - admin logged in";
    try (CapturedLog log = new CapturedLog()) {
      for (int i = 0; i < 7; i++) {
        login("127.0.0.7", forged, "s3cret-guess-" + i);
      }
      String text = log.text();
      assertThat(text).contains("WARN dev.ratchet.verticles.http.impl.LoginRoutes - login failed for user"
          + " 'mallory\\n[main] INFO forged - admin logged in' from 127.0.0.7 (1 failure(s) in a row)");
      assertThat(text).contains("login refused for user 'mallory\\n[main] INFO forged");
      assertThat(text.lines().filter(l -> l.contains("login failed for user")).count()).isEqualTo(6);
      assertThat(text).doesNotContain("s3cret-guess").doesNotContain("\n[main] INFO forged");
    }
  }
}
