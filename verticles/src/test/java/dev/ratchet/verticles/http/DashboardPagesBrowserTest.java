package dev.ratchet.verticles.http;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ScriptedModel;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's pages as a newcomer meets them, in headless Chromium: the inbox keeps only what
 * waits, Approve is on a phone's screen, no page prints a missing value, the message box appears
 * only where a message can be sent, the session list shows calls, and the icon is found.
 */
class DashboardPagesBrowserTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  static String base;
  Browser browser;

  @BeforeAll
  static void start() {
    base = SHOP.baseUrl();
    HttpApiTest.base = base;
    FunctionToolSource none = FunctionToolSource.create("chat-tools")
        .read("clock", "The time", new JsonObject().put("type", "object"),
            inv -> Future.succeededFuture(new JsonObject().put("time", "noon")));
    await(SHOP.runtime().ratchet.register(AgentDefinition.builder("chat").toolSource(none)
        .model(ScriptedModel.from(request -> ModelResponse.text("Hello."))).build()));
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  private void logIn(String user) {
    browser = Browser.open(base);
    browser.login(user, ShopRuntime.PASSWORD);
  }

  private Object js(String script) {
    return ((JavascriptExecutor) browser.driver).executeScript(script);
  }

  @Test
  void aDecidedCardLeavesTheWaitingListAndShowsItsOutcomeAmongTheDecided() {
    logIn("ana");
    String s = DashboardBrowserTest.submit("t1", HttpApiTest.call("refund_order", new JsonObject().put("order", "D-1")));
    WebElement card = browser.approvalCard(s);
    card.findElement(By.cssSelector("button.approve")).click();
    browser.waitFor(ExpectedConditions.attributeToBe(card, "data-outcome", "succeeded"));
    assertThat(js("return document.querySelector(\"#approvals section.approval[data-session-id='" + s + "']\") === null;"))
        .as("the decided card is not in the list of writes waiting for approval").isEqualTo(true);
    assertThat(js("return document.querySelector(\"#decided section.approval[data-session-id='" + s + "']\") !== null;"))
        .as("the decided card shows its outcome among the decided").isEqualTo(true);
    assertThat(browser.driver.findElements(By.cssSelector("#approvals section.approval.decided"))).isEmpty();
  }

  @Test
  void atPhoneWidthApproveIsOnScreenWithoutScrollingOnALongCard() {
    JsonObject args = new JsonObject().put("order", "P-1");
    for (int i = 0; i < 40; i++) {
      args.put("line" + i, "item " + i + " of a long order, one line each");
    }
    String s = DashboardBrowserTest.submit("t1", HttpApiTest.call("refund_order", args));
    browser = Browser.open(base);
    browser.driver.manage().window().setSize(new Dimension(390, 844));
    browser.login("ana", ShopRuntime.PASSWORD);
    browser.approvalCard(s);
    @SuppressWarnings("unchecked")
    List<Object> seen = (List<Object>) js("const b = document.querySelector(\"section.approval[data-session-id='" + s
        + "'] button.approve\"); const r = b.getBoundingClientRect();"
        + " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        + " return [window.scrollY, r.top, r.bottom, window.innerHeight, hit === b, window.innerWidth];");
    assertThat(((Number) seen.get(5)).intValue()).as("viewport width").isLessThanOrEqualTo(390);
    assertThat(((Number) seen.get(0)).doubleValue()).as("the page is not scrolled").isZero();
    assertThat(((Number) seen.get(1)).doubleValue()).as("Approve's top " + seen).isGreaterThanOrEqualTo(0);
    assertThat(((Number) seen.get(2)).doubleValue()).as("Approve's bottom within the screen " + seen)
        .isLessThanOrEqualTo(((Number) seen.get(3)).doubleValue());
    assertThat(seen.get(4)).as("nothing covers Approve " + seen).isEqualTo(true);
    js("document.querySelector(\"section.approval[data-session-id='" + s + "'] button.approve\").click();");
    browser.waitFor(ExpectedConditions.attributeToBe(browser.approvalCard(s), "data-outcome", "succeeded"));
  }

  @Test
  void theConnectionsPageWithoutProvidersSaysSoAndPrintsNoMissingValue() {
    logIn("ana");
    browser.driver.get(base + "/#/connections");
    browser.waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("view"), "No tool providers configured."));
    assertThat(browser.driver.findElement(By.id("view")).getText()).doesNotContain("null").doesNotContain("undefined");
  }

  @Test
  void theMessageBoxIsOfferedOnlyOnSessionsTheUserMaySendTo() {
    String agents = "chat-" + UUID.randomUUID().toString().substring(0, 8);
    Http.Answer a = Http.bearer(base, ShopRuntime.AGENT_TOKEN).post("/api/sessions/" + agents + "/messages?wait=20",
        new JsonObject().put("agent", "chat").put("text", "hi"));
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    String anas = "chat-" + UUID.randomUUID().toString().substring(0, 8);
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    Http.Answer b = ana.post("/api/sessions/" + anas + "/messages?wait=20",
        new JsonObject().put("agent", "chat").put("text", "hi"));
    assertThat(b.status()).as(b.body()).isEqualTo(200);
    // the server refuses ana's message on the agent's session: the page must not offer it
    assertThat(ana.post("/api/sessions/" + agents + "/messages", new JsonObject().put("agent", "chat").put("text", "x"))
        .status()).isEqualTo(403);

    logIn("ana");
    browser.driver.get(base + "/#/session/" + agents);
    WebElement conversation = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".card.conversation")));
    assertThat(conversation.getText()).contains("Hello.");
    assertThat(conversation.findElements(By.cssSelector("form.message-form"))).isEmpty();
    assertThat(conversation.findElement(By.cssSelector(".send-note")).getText()).contains("support-bot");

    browser.driver.get(base + "/#/session/" + anas);
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".card.conversation form.message-form")));
    browser.close();

    logIn("vic");
    browser.driver.get(base + "/#/session/" + anas);
    conversation = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".card.conversation")));
    assertThat(conversation.getText()).contains("Hello.");
    assertThat(conversation.findElements(By.cssSelector("form.message-form"))).isEmpty();
  }

  @Test
  void theSessionListShowsEachSessionsCallsWithoutAFilter() {
    String s = DashboardBrowserTest.submit("t1",
        HttpApiTest.call("look_up_order", new JsonObject().put("id", "C-1")),
        HttpApiTest.call("look_up_order", new JsonObject().put("id", "C-2")));
    HttpApiTest.results(s, "t1");
    JsonObject row = Http.login(base, "ana", ShopRuntime.PASSWORD).get("/api/sessions").json().getJsonArray("sessions")
        .stream().map(JsonObject.class::cast).filter(r -> s.equals(r.getString("sessionId"))).findFirst().orElseThrow();
    assertThat(row.getJsonObject("summary").getInteger("calls")).isEqualTo(2);

    logIn("ana");
    browser.driver.get(base + "/#/sessions");
    WebElement calls = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("tr[data-session-id='" + s + "'] .summary")));
    assertThat(calls.getText()).contains("2 calls").contains("look_up_order");
  }

  @Test
  void theIconIsServedSoNoPageAsksForAMissingFile() {
    Http anonymous = Http.anonymous(base);
    Http.Answer icon = anonymous.get("/favicon.ico");
    assertThat(icon.status()).isEqualTo(200);
    assertThat(icon.raw().headers().firstValue("Content-Type").orElse("")).startsWith("image/");
    for (String page : List.of("/login.html")) {
      String html = anonymous.get(page).body();
      assertThat(html).contains("rel=\"icon\"");
      String href = html.replaceAll("(?s).*<link rel=\"icon\"[^>]*href=\"([^\"]+)\".*", "$1");
      assertThat(anonymous.get(href).status()).as(href).isEqualTo(200);
    }
    String index = Http.login(base, "vic", ShopRuntime.PASSWORD).get("/").body();
    assertThat(index).contains("rel=\"icon\"");
  }
}
