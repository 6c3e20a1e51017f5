package dev.ratchet.verticles.http;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolPolicy;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Edit, then approve, over HTTP and in headless Chromium against a runtime on real Redis: an
 * approver changes a write's arguments before approving, the edit is checked against the tool's
 * schema, the write runs with the edited arguments, and the timeline says who edited them and why.
 */
class EditThenApproveTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static final JsonObject REFUND_SCHEMA = new JsonObject().put("type", "object")
      .put("properties", new JsonObject()
          .put("order", new JsonObject().put("type", "string").put("description", "the order's id"))
          .put("amount", new JsonObject().put("type", "number").put("minimum", 0).put("maximum", 1000))
          .put("notify", new JsonObject().put("type", "boolean")))
      .put("required", new JsonArray().add("order").add("amount"))
      .put("additionalProperties", false);

  static ShopRuntime shop;
  static String base;
  static final List<JsonObject> refunds = new CopyOnWriteArrayList<>();
  static final List<JsonObject> closed = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    shop = new ShopRuntime(REDIS);
    base = shop.baseUrl();
    FunctionToolSource tools = FunctionToolSource.create("desk-tools")
        .tool(FunctionToolSource.define("refund_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Refunds part of an order").schema(REFUND_SCHEMA)
            .handler(inv -> {
              refunds.add(inv.arguments());
              return Future.succeededFuture(new JsonObject().put("refunded", inv.arguments().getValue("amount")));
            }))
        .tool(FunctionToolSource.define("close_account", EffectClass.NON_IDEMPOTENT_WRITE)
            .schema(new JsonObject().put("type", "object").put("properties", new JsonObject()
                .put("account", new JsonObject().put("type", "string"))))
            .approval(ApprovalRule.always())
            .handler(inv -> {
              closed.add(inv.arguments());
              return Future.succeededFuture(new JsonObject().put("closed", true));
            }));
    // an application's policy lets approvers edit refunds; close_account keeps its own rule, without edits
    await(shop.ratchet.register(AgentDefinition.builder("edits").toolSource(tools)
        .policy(ToolPolicy.requireApproval("refund_order", true).allowingEdits()).build()));
  }

  @AfterAll
  static void stop() {
    if (shop != null) {
      shop.close();
    }
  }

  static Http agent() {
    return Http.bearer(base, ShopRuntime.AGENT_TOKEN);
  }

  static Http ana() {
    return Http.login(base, "ana", ShopRuntime.PASSWORD);
  }

  /** A turn of one call of {@code tool}, which then waits for approval; the session id. */
  static String submit(String tool, JsonObject arguments) {
    String s = "e-" + UUID.randomUUID().toString().substring(0, 8);
    Http.Answer a = agent().post("/api/sessions/" + s + "/turns", new JsonObject().put("agent", "edits")
        .put("turn", new JsonObject().put("turnId", "t1").put("calls", new JsonArray()
            .add(new JsonObject().put("name", tool).put("arguments", arguments)))));
    assertThat(a.status()).as(a.body()).isIn(200, 202);
    return s;
  }

  static JsonObject pending(String s) {
    return HttpApiTest.awaitPending(ana(), s);
  }

  static Http.Answer decide(Http who, JsonObject request, JsonObject body) {
    return who.post("/api/approvals/" + request.getString("sessionId") + "/" + request.getString("callId"),
        body.put("argumentsHash", request.getString("argumentsHash")));
  }

  static JsonObject results(String s) {
    Http.Answer a = agent().get("/api/sessions/" + s + "/turns/t1?wait=20");
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a.json().getJsonObject("results").getJsonArray("results").getJsonObject(0);
  }

  @Test
  void anInvalidEditIsRefusedNamingTheFieldAndChangesNothingThenAValidEditRunsTheWriteWithIt() {
    String s = submit("refund_order", new JsonObject().put("order", "R-1").put("amount", 800));
    JsonObject request = pending(s);
    assertThat(request.getJsonObject("context").getBoolean("allowEdit")).isTrue();
    assertThat(request.getJsonObject("context").getJsonObject("inputSchema")).isEqualTo(REFUND_SCHEMA);
    Http ana = ana();

    Http.Answer bad = decide(ana, request, new JsonObject().put("approved", true).put("reason", "cap")
        .put("arguments", new JsonObject().put("order", "R-1").put("amount", "eighty")));
    assertThat(bad.status()).as(bad.body()).isEqualTo(400);
    assertThat(bad.json().getString("code")).isEqualTo("INVALID_REQUEST");
    assertThat(bad.json().getString("message")).contains("amount");
    Http.Answer rejectWithEdit = decide(ana, request, new JsonObject().put("approved", false).put("reason", "no")
        .put("arguments", new JsonObject().put("order", "R-1").put("amount", 80)));
    assertThat(rejectWithEdit.status()).isEqualTo(400);
    assertThat(rejectWithEdit.json().getString("message")).contains("arguments");
    // nothing changed: still waiting, nothing sent
    assertThat(pending(s).getString("argumentsHash")).isEqualTo(request.getString("argumentsHash"));
    assertThat(refunds).noneMatch(r -> "R-1".equals(r.getString("order")));

    JsonObject edited = new JsonObject().put("order", "R-1").put("amount", 80);
    Http.Answer ok = decide(ana, request, new JsonObject().put("approved", true).put("reason", "refunds over 100 need a manager")
        .put("arguments", edited));
    assertThat(ok.status()).as(ok.body()).isEqualTo(200);
    assertThat(ok.json().getBoolean("edited")).isTrue();

    JsonObject record = results(s);
    assertThat(record.getString("outcome")).isEqualTo("succeeded");
    assertThat(record.getJsonObject("result")).isEqualTo(new JsonObject().put("refunded", 80));
    assertThat(refunds).contains(edited).doesNotContain(new JsonObject().put("order", "R-1").put("amount", 800));
    assertThat(record.getJsonObject("edited")).isEqualTo(new JsonObject().put("by", "ana")
        .put("reason", "refunds over 100 need a manager").put("arguments", edited));
    assertThat(record.getJsonObject("approval").getString("originalArgumentsHash"))
        .isEqualTo(request.getString("argumentsHash"));

    // the timeline keeps both: what the model sent and what ran, with who edited and why
    JsonObject call = ana.get("/api/sessions/" + s).json().getJsonArray("turns").getJsonObject(0)
        .getJsonArray("calls").getJsonObject(0);
    assertThat(call.getJsonObject("arguments").getInteger("amount")).isEqualTo(800);
    assertThat(call.getJsonObject("edited").getJsonObject("arguments")).isEqualTo(edited);
    assertThat(call.getJsonObject("edited").getString("by")).isEqualTo("ana");
  }

  @Test
  void aToolWithoutAllowEditRefusesAnEditedDecisionAsForbiddenAndStillTakesAPlainOne() {
    String s = submit("close_account", new JsonObject().put("account", "acc-1"));
    JsonObject request = pending(s);
    assertThat(request.getJsonObject("context").containsKey("allowEdit")).isFalse();
    Http ana = ana();

    Http.Answer edit = decide(ana, request, new JsonObject().put("approved", true)
        .put("arguments", new JsonObject().put("account", "acc-2")));
    assertThat(edit.status()).as(edit.body()).isEqualTo(403);
    assertThat(edit.json().getString("code")).isEqualTo("FORBIDDEN");
    assertThat(edit.json().getString("message")).contains("allowEdit");
    assertThat(closed).isEmpty();

    assertThat(decide(ana, request, new JsonObject().put("approved", true)).status()).isEqualTo(200);
    assertThat(results(s).getString("outcome")).isEqualTo("succeeded");
    assertThat(closed).containsExactly(new JsonObject().put("account", "acc-1"));
  }

  @Test
  void anApproverEditsAFieldInTheCardsFormApprovesAndTheTimelineShowsTheEditedArgumentsAndWhoEdited() {
    Browser.assumeInstalled();
    String s = submit("refund_order", new JsonObject().put("order", "R-9").put("amount", 500).put("notify", true));
    try (Browser browser = Browser.open(base)) {
      browser.login("ana", ShopRuntime.PASSWORD);
      WebElement card = browser.approvalCard(s);
      assertThat(card.findElement(By.cssSelector(".edit-form")).isDisplayed()).isFalse();
      card.findElement(By.cssSelector("button.edit-arguments")).click();
      WebElement amount = browser.waitFor(ExpectedConditions.visibilityOf(
          card.findElement(By.cssSelector(".edit-form input[data-field='amount']"))));
      assertThat(amount.getAttribute("value")).isEqualTo("500");
      assertThat(card.findElement(By.cssSelector(".edit-form input[data-field='order']")).getAttribute("value"))
          .isEqualTo("R-9");
      assertThat(card.findElement(By.cssSelector(".edit-form input[data-field='notify']")).isSelected()).isTrue();

      // an amount the schema refuses: the server's message shows on the card, and it stays undecided
      amount.clear();
      amount.sendKeys("5000");
      card.findElement(By.cssSelector("input.reason")).sendKeys("capped at 50");
      card.findElement(By.cssSelector("button.approve")).click();
      WebElement error = browser.waitFor(ExpectedConditions.visibilityOf(card.findElement(By.cssSelector("p.error"))));
      assertThat(error.getText()).contains("amount");
      assertThat(card.getAttribute("data-decision")).isNull();

      amount.clear();
      amount.sendKeys("50");
      card.findElement(By.cssSelector("button.approve")).click();
      browser.waitFor(ExpectedConditions.attributeToBe(card, "data-outcome", "succeeded"));
      assertThat(refunds).contains(new JsonObject().put("order", "R-9").put("amount", 50).put("notify", true));

      browser.driver.get(base + "/#/session/" + s);
      WebElement info = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
          By.cssSelector(".call[data-tool='refund_order'] .edited-info")));
      assertThat(info.getText()).contains("edited by ana").contains("capped at 50");
      JsonObject shown = new JsonObject(browser.driver.findElement(
          By.cssSelector(".call[data-tool='refund_order'] .edited-arguments")).getText());
      assertThat(shown).isEqualTo(new JsonObject().put("order", "R-9").put("amount", 50).put("notify", true));
      assertThat(new JsonObject(browser.driver.findElement(
          By.cssSelector(".call[data-tool='refund_order'] pre.arguments")).getText()).getInteger("amount"))
          .as("what the model sent stays alongside").isEqualTo(500);
    }
  }
}
