package dev.ratchet.verticles.http;

import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /api/approvals/events}: the inbox as server-sent events, for the caller's tenants only. */
class InboxStreamTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  @BeforeAll
  static void start() {
    HttpApiTest.base = SHOP.baseUrl();
  }

  /** Reads {@code inbox} events until one satisfies {@code until}; every inbox event read, in order. */
  static List<JsonObject> inboxEvents(Iterator<String> lines, java.util.function.Predicate<JsonObject> until)
      throws Exception {
    List<JsonObject> seen = new ArrayList<>();
    CompletableFuture<Void> read = CompletableFuture.runAsync(() -> {
      String event = null;
      while (lines.hasNext()) {
        String line = lines.next();
        if (line.startsWith("event: ")) {
          event = line.substring(7);
        } else if (line.startsWith("data: ") && "inbox".equals(event)) {
          JsonObject inbox = new JsonObject(line.substring(6));
          seen.add(inbox);
          if (until.test(inbox)) {
            return;
          }
        }
      }
    });
    read.get(20, TimeUnit.SECONDS);
    return seen;
  }

  @Test
  void aTenantsStreamDeliversItsNewRequestsLiveAndNothingOfAnotherTenant() throws Exception {
    Http tess = Http.login(SHOP.baseUrl(), "tess", ShopRuntime.PASSWORD);
    HttpResponse<Stream<String>> stream = tess.lines("/api/approvals/events");
    assertThat(stream.statusCode()).isEqualTo(200);
    assertThat(stream.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
    try (Stream<String> body = stream.body()) {
      Iterator<String> lines = body.iterator();
      inboxEvents(lines, inbox -> true);

      String theirs = "other-" + UUID.randomUUID().toString().substring(0, 8);
      Http.Answer a = HttpApiTest.agent().post("/api/sessions/" + theirs + "/turns", HttpApiTest.turn("t1",
          HttpApiTest.call("refund_order", new JsonObject().put("order", "SECRET-OTHER"))));
      assertThat(a.status()).as(a.body()).isIn(200, 202);
      HttpApiTest.awaitPending(Http.login(SHOP.baseUrl(), "ana", ShopRuntime.PASSWORD), theirs);
      String mine = "tenant-t-" + UUID.randomUUID().toString().substring(0, 8);
      SHOP.runtime().ratchet.submit(TurnRequest.of("shop", mine, Turn.of("t1", new ToolCall("refund_order",
          new JsonObject().put("order", "T-live")))).callerId("tenant-t"));

      List<JsonObject> seen = inboxEvents(lines, inbox -> inbox.encode().contains(mine));
      JsonObject last = seen.get(seen.size() - 1);
      assertThat(last.getJsonArray("approvals").getJsonObject(0).getJsonObject("context").getString("caller"))
          .isEqualTo("tenant-t");
      assertThat(seen.toString()).doesNotContain(theirs).doesNotContain("SECRET-OTHER");
    }
  }

  @Test
  void theStreamNeedsALogin() {
    Http.Answer a = Http.anonymous(SHOP.baseUrl()).get("/api/approvals/events");
    assertThat(a.status()).isEqualTo(401);
  }
}
