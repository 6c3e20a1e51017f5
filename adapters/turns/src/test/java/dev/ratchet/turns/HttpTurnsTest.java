package dev.ratchet.turns;

import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.turns.testing.Shop;
import dev.ratchet.turns.testing.TestShop;
import dev.ratchet.verticles.http.HttpOptions;
import dev.ratchet.verticles.http.HttpServerVerticle;
import dev.ratchet.verticles.http.PasswordHash;
import dev.ratchet.verticles.http.Role;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The HTTP implementation against a real Ratchet serving its HTTP API with agent tokens of two tenants. */
class HttpTurnsTest {

  @RegisterExtension
  static final TestShop SHOP = new TestShop("http-turns-test");

  private static final String TOKEN_A = "token-of-tenant-a-" + UUID.randomUUID();
  private static final String TOKEN_B = "token-of-tenant-b-" + UUID.randomUUID();
  private static URI base;
  private final String session = TestShop.newSession("http");

  @BeforeAll
  static void start() {
    HttpServerVerticle server = new HttpServerVerticle(SHOP.shop().ratchet(), HttpOptions.create().port(0).host("127.0.0.1")
        .token("bot-a", Role.AGENT, PasswordHash.hashToken(TOKEN_A), "tenant-a")
        .token("bot-b", Role.AGENT, PasswordHash.hashToken(TOKEN_B), "tenant-b"));
    await(SHOP.shop().vertx().deployVerticle(server));
    base = URI.create("http://127.0.0.1:" + server.actualPort());
  }

  @Test
  void theCatalogueComesOverHttpWithItsSchemas() {
    RatchetTurns turns = RatchetTurns.http(base, Shop.AGENT, TOKEN_A);
    assertThat(turns.toolList()).extracting(AgentTool::name).containsExactly("look_up_order", "refund_order",
        "email_customer");
    assertThat(turns.toolList().get(1).inputSchema()).isEqualTo(Shop.REFUND_SCHEMA);
    assertThat(turns.toolList().get(1).effectClass()).isEqualTo("non_idempotent_write");
  }

  @Test
  void aTurnWaitingForApprovalCompletesOverHttpOnceDecidedAndAgainAnswersTheSameResults() throws Exception {
    RatchetTurns turns = RatchetTurns.http(base, Shop.AGENT, TOKEN_A);
    Turn turn = Turn.of("resp-1", new ToolCall("refund_order",
        new JsonObject().put("orderId", "H-1").put("amountCents", 25000), "call_1"));

    CompletableFuture<TurnResult> running = CompletableFuture.supplyAsync(() -> turns.run(session, turn));
    SHOP.shop().approve(SHOP.shop().awaitApproval(session, "refund_order", 20), "ana", "fine");
    TurnResult result = running.get(30, TimeUnit.SECONDS);

    assertThat(result.call(0).outcome().wireName()).isEqualTo("succeeded");
    assertThat(turns.run(session, turn).call(0).result()).isEqualTo(result.call(0).result());
    assertThat(SHOP.provider().effects("refund_order", "H-1")).isEqualTo(1);
  }

  @Test
  void aSessionOfAnotherTenantIsUnknownAndNothingRuns() {
    Turn turn = Turn.of("resp-2", new ToolCall("look_up_order", new JsonObject().put("orderId", "H-2"), "call_1"));
    RatchetTurns.http(base, Shop.AGENT, TOKEN_A).run(session, turn);

    Turn other = Turn.of("resp-3", new ToolCall("refund_order",
        new JsonObject().put("orderId", "H-3").put("amountCents", 100), "call_1"));
    assertThatThrownBy(() -> RatchetTurns.http(base, Shop.AGENT, TOKEN_B).run(session, other))
        .isInstanceOfSatisfying(RatchetException.class, e -> assertThat(e.code()).isEqualTo("UNKNOWN_SESSION"));
    assertThat(SHOP.provider().effects("refund_order", "H-3")).isZero();
  }
}
