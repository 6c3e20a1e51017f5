package dev.ratchet.verticles.http;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.agent.ModelResponse;
import dev.ratchet.runtime.agent.ScriptedModel;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an on-call approver relies on, in headless Chromium against a runtime on real Redis: each
 * card says what led to the call and what each button does, the page says when the server is gone,
 * decisions show their outcome and timings, and the inbox works at phone width, by keyboard, and
 * passes axe-core.
 */
class ApproverInboxBrowserTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static final String MODEL_TEXT = "Order A-7 arrived late; I looked it up, will cancel it and then email the customer.";

  static ShopRuntime shop;
  static String base;
  static final List<JsonObject> cancelled = new CopyOnWriteArrayList<>();
  Browser browser;

  @BeforeAll
  static void start() {
    Browser.assumeInstalled();
    shop = new ShopRuntime(REDIS);
    base = shop.baseUrl();
    FunctionToolSource tools = FunctionToolSource.create("desk-tools")
        .read("look_up_order", "Finds an order by id", new JsonObject().put("type", "object"),
            inv -> Future.succeededFuture(new JsonObject().put("order", inv.arguments().getString("order"))
                .put("status", "delivered late")))
        .tool(FunctionToolSource.define("cancel_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Cancels the order and refunds the customer").approval(ApprovalRule.always())
            .handler(inv -> {
              cancelled.add(inv.arguments());
              return Future.succeededFuture(new JsonObject().put("cancelled", true));
            }))
        .tool(FunctionToolSource.define("email_customer", EffectClass.NON_IDEMPOTENT_WRITE)
            .description("Emails the customer")
            .handler(inv -> Future.succeededFuture(new JsonObject().put("sent", true))));
    // one user message: look the order up, cancel it, email the customer; then answer
    ScriptedModel model = ScriptedModel.from(request -> request.sinceLastUser().isEmpty()
        ? new ModelResponse(MODEL_TEXT, List.of(
            new ToolCall("look_up_order", new JsonObject().put("order", request.lastUserText()), "c1"),
            new ToolCall("cancel_order", new JsonObject().put("order", request.lastUserText()), "c2"),
            new ToolCall("email_customer", new JsonObject().put("order", request.lastUserText()), "c3")))
        : ModelResponse.text("Cancelled."));
    await(shop.ratchet.register(AgentDefinition.builder("desk").toolSource(tools).model(model).build()));
  }

  @AfterAll
  static void stop() {
    if (shop != null) {
      shop.close();
    }
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  /** A user message for the desk agent, whose cancel_order then waits for approval; the session id. */
  static String askToCancel(String order) {
    String s = "desk-" + UUID.randomUUID().toString().substring(0, 8);
    Http.Answer a = Http.bearer(base, ShopRuntime.AGENT_TOKEN).post("/api/sessions/" + s + "/messages",
        new JsonObject().put("agent", "desk").put("text", order));
    assertThat(a.status()).as(a.body()).isIn(200, 202);
    return s;
  }

  Object js(String script) {
    return ((JavascriptExecutor) browser.driver).executeScript(script);
  }

  WebElement openCard(String session) {
    browser = Browser.open(base);
    browser.login("ana", ShopRuntime.PASSWORD);
    return browser.approvalCard(session);
  }

  @Test
  void aCardShowsWhatLedToTheCallWhatTheToolDoesWhoAskedAndWhatRejectDoes() {
    String s = askToCancel("A-7");
    WebElement card = openCard(s);
    assertThat(card.findElement(By.cssSelector(".context-user")).getText()).isEqualTo("User: A-7");
    assertThat(card.findElement(By.cssSelector(".context-model")).getText()).isEqualTo("Model: " + MODEL_TEXT);
    assertThat(card.findElement(By.cssSelector(".tool-description")).getText())
        .isEqualTo("Cancels the order and refunds the customer");
    assertThat(card.findElement(By.cssSelector(".effect-words")).getText()).contains("single attempt")
        .contains("cannot be retried safely");
    assertThat(card.findElement(By.cssSelector(".why")).getText()).isEqualTo("the tool's own definition: it always asks");
    assertThat(card.findElement(By.cssSelector(".caller")).getText()).isEqualTo("support-bot");
    // the read that ran before it in the same turn, with its result
    WebElement earlier = browser.waitFor(d -> card.findElement(By.cssSelector(".earlier-call[data-tool='look_up_order']")));
    assertThat(earlier.findElement(By.cssSelector(".badge")).getText()).isEqualTo("succeeded");
    assertThat(earlier.findElement(By.cssSelector(".earlier-result")).getText()).contains("delivered late");
    assertThat(card.findElement(By.cssSelector(".on-reject")).getText())
        .contains("The model is told: \"the tool did not run because a person refused it")
        .contains("The later write of this turn (email_customer) is skipped and not run.");
    assertThat(card.getText()).doesNotContain("null").doesNotContain("undefined");
    screenshot("dashboard-card-context.png");
  }

  /** RATCHET_SCREENSHOT_DIR=../docs refreshes the pictures of docs/DASHBOARD.md; by default they stay in target/. */
  void screenshot(String name) {
    try {
      Path target = Path.of(System.getenv().getOrDefault("RATCHET_SCREENSHOT_DIR", "target"), name);
      Files.createDirectories(target.getParent());
      Path shot = ((org.openqa.selenium.TakesScreenshot) browser.driver).getScreenshotAs(org.openqa.selenium.OutputType.FILE)
          .toPath();
      Files.copy(shot, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void theApiGivesTheContextOnlyForTheCallersOwnTenants() {
    String s = askToCancel("A-8");
    JsonObject r = HttpApiTest.awaitPending(Http.login(base, "ana", ShopRuntime.PASSWORD), s);
    JsonObject context = r.getJsonObject("context");
    assertThat(context.getString("userMessage")).isEqualTo("A-8");
    assertThat(context.getString("caller")).isEqualTo("support-bot");
    JsonArray earlier = context.getJsonArray("earlierCalls");
    assertThat(earlier.getJsonObject(0).getJsonObject("result").getString("status")).isEqualTo("delivered late");
    // tess sees tenant-t only: nothing of this session, context included
    JsonArray tess = Http.login(base, "tess", ShopRuntime.PASSWORD).get("/api/approvals").json().getJsonArray("approvals");
    assertThat(tess.encode()).doesNotContain(s).doesNotContain("A-8");
  }

  @Test
  void whenTheServerIsUnreachableABannerShowsButtonsAreDisabledAndTheTypedReasonSurvives() {
    String s = askToCancel("A-9");
    WebElement card = openCard(s);
    WebElement approve = card.findElement(By.cssSelector("button.approve"));
    assertThat(approve.isEnabled()).isTrue();
    card.findElement(By.cssSelector("input.reason")).sendKeys("customer called twice");

    shop.stopHttp();
    try {
      browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("offline")));
      assertThat(browser.driver.findElement(By.id("offline")).getText()).contains("Cannot reach the Ratchet server");
      assertThat(approve.isEnabled()).as("no decision can be sent while the server is away").isFalse();
      assertThat(card.findElement(By.cssSelector("button.reject")).isEnabled()).isFalse();
      screenshot("dashboard-offline.png");
    } finally {
      shop.startHttp();
    }
    browser.waitFor(ExpectedConditions.invisibilityOfElementLocated(By.id("offline")));
    browser.waitFor(ExpectedConditions.elementToBeClickable(approve));
    assertThat(card.findElement(By.cssSelector("input.reason")).getAttribute("value")).isEqualTo("customer called twice");

    approve.click();
    WebElement status = card.findElement(By.cssSelector(".decision-status"));
    browser.waitFor(ExpectedConditions.attributeToBe(card, "data-outcome", "succeeded"));
    assertThat(status.getText()).contains("succeeded");
    assertThat(cancelled).contains(new JsonObject().put("order", "A-9"));
  }

  @Test
  void afterApproveTheCardSaysRunningThenTheOutcomeAndTheTimelineShowsTheWaitApartFromTheRun() {
    String s = askToCancel("A-10");
    WebElement card = openCard(s);
    // every text the card's status line shows, in order
    js("window.__shown = []; const st = document.querySelector(\"section.approval[data-session-id='" + s + "'] .decision-status\");"
        + " new MutationObserver(() => window.__shown.push(st.textContent)).observe(st,"
        + " { childList: true, subtree: true, characterData: true, attributes: true });");
    card.findElement(By.cssSelector("button.approve")).click();
    browser.waitFor(ExpectedConditions.attributeToBe(card, "data-outcome", "succeeded"));
    assertThat(card.getAttribute("data-decision")).isEqualTo("approved");
    @SuppressWarnings("unchecked")
    List<String> shown = (List<String>) js("return window.__shown;");
    assertThat(shown).first().isEqualTo("approved — running");
    assertThat(shown).last().asString().startsWith("succeeded");
    screenshot("dashboard-approved.png");
    String timing = card.findElement(By.cssSelector(".decision-status .timing")).getText();
    assertThat(timing).matches("waited [0-9.]+ m?s for approval · ran [0-9.]+ m?s");

    browser.driver.get(base + "/#/session/" + s);
    WebElement call = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".call[data-tool='cancel_order'] .timing")));
    assertThat(call.getText()).matches("waited [0-9.]+ m?s for approval · ran [0-9.]+ m?s");
    assertThat(browser.driver.findElement(By.id("view")).getText()).doesNotContain("null").doesNotContain("undefined");
  }

  @Test
  void atPhoneWidthNothingScrollsSidewaysAndACardIsDecidedByKeyboardAlone() {
    String s = askToCancel("A-11-" + "x".repeat(60));
    browser = Browser.open(base);
    browser.driver.manage().window().setSize(new Dimension(390, 844));
    browser.login("ana", ShopRuntime.PASSWORD);
    WebElement card = browser.approvalCard(s);
    assertNoSidewaysScroll("inbox");
    screenshot("dashboard-phone.png");

    // from the top of the page, Tab to this card's reason, type it, Tab to Approve, press Enter
    js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);");
    boolean typed = false;
    for (int i = 0; i < 150; i++) {
      browser.driver.switchTo().activeElement().sendKeys(Keys.TAB);
      WebElement active = browser.driver.switchTo().activeElement();
      boolean inCard = Boolean.TRUE.equals(js("return document.activeElement.closest(\"section.approval[data-session-id='"
          + s + "']\") !== null;"));
      if (inCard && active.getAttribute("class").contains("reason") && !typed) {
        active.sendKeys("checked by phone");
        typed = true;
      } else if (inCard && active.getAttribute("class").contains("approve")) {
        active.sendKeys(Keys.ENTER);
        break;
      }
    }
    assertThat(typed).as("the reason field is reachable by Tab").isTrue();
    browser.waitFor(ExpectedConditions.attributeToBe(card, "data-outcome", "succeeded"));

    browser.driver.get(base + "/#/session/" + s);
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".call[data-tool='cancel_order']")));
    assertNoSidewaysScroll("session");
    browser.driver.get(base + "/#/sessions");
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-session-id='" + s + "']")));
    assertNoSidewaysScroll("sessions");
  }

  @Test
  void sessionsAreFoundByToolAndOutcomeAndUnknownOutcomesWaitInTheirOwnViewCountedInTheHeader() throws Exception {
    HttpApiTest.base = base;
    String unknown = DashboardBrowserTest.submit("t1", HttpApiTest.call("charge_card", new JsonObject().put("cents", 500)));
    String read = DashboardBrowserTest.submit("t1", HttpApiTest.call("look_up_order", new JsonObject().put("id", "R-1")));
    HttpApiTest.results(unknown, "t1");
    HttpApiTest.results(read, "t1");

    // over HTTP, for the caller's tenants only, and a bad filter names its field
    Http ana = Http.login(base, "ana", ShopRuntime.PASSWORD);
    assertThat(ana.get("/api/sessions?tool=charge_card").body()).contains(unknown).doesNotContain(read);
    // the list is read afresh at most every 5 s, shared by every reader: wait for the next read
    long deadline = System.currentTimeMillis() + 15_000;
    while (!ana.get("/api/reconciliation").body().contains(unknown) && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
    }
    assertThat(ana.get("/api/reconciliation").body()).contains(unknown);
    Http tess = Http.login(base, "tess", ShopRuntime.PASSWORD);
    assertThat(tess.get("/api/sessions?tool=charge_card").body()).doesNotContain(unknown);
    assertThat(tess.get("/api/reconciliation").json().getJsonArray("calls")).isEmpty();
    Http.Answer bad = ana.get("/api/sessions?outcome=maybe");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().getString("message")).contains("'outcome'");

    browser = Browser.open(base);
    browser.login("ana", ShopRuntime.PASSWORD);
    browser.waitFor(ExpectedConditions.textToBe(By.id("reconcile-count"), "1"));
    browser.driver.get(base + "/#/sessions");
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-session-id='" + read + "']")));
    new org.openqa.selenium.support.ui.Select(browser.driver.findElement(By.id("filter-outcome")))
        .selectByValue("outcome_unknown");
    browser.driver.findElement(By.id("filter-tool")).sendKeys("charge_card", Keys.ENTER);
    browser.waitFor(ExpectedConditions.urlContains("outcome=outcome_unknown"));
    // the filtered page replaces the whole list: only the session whose charge ended unknown stays
    browser.waitFor(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("tr[data-session-id='" + read + "']")));
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-session-id='" + unknown + "']")));
    assertThat(browser.driver.findElements(By.cssSelector("#sessions tbody tr"))).hasSize(1);
    assertThat(browser.driver.findElement(By.cssSelector("tr[data-session-id='" + unknown + "'] .summary")).getText())
        .contains("charge_card");

    browser.driver.findElement(By.id("nav-reconcile")).click();
    WebElement card = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("section.unknown-call[data-session-id='" + unknown + "']")));
    screenshot("dashboard-reconciliation.png");
    card.findElement(By.cssSelector("input.note-input")).sendKeys("no charge at the provider");
    new org.openqa.selenium.support.ui.Select(card.findElement(By.cssSelector("select.outcome"))).selectByValue("failed");
    card.findElement(By.cssSelector("button.reconcile")).click();
    browser.waitFor(ExpectedConditions.invisibilityOfElementLocated(
        By.cssSelector("section.unknown-call[data-session-id='" + unknown + "']")));
    browser.waitFor(ExpectedConditions.textToBe(By.id("reconcile-count"), "0"));
  }

  void assertNoSidewaysScroll(String page) {
    Object widths = js("const w = document.documentElement.clientWidth; return [document.documentElement.scrollWidth, w,"
        + " [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > w)"
        + ".slice(0, 5).map(e => e.tagName + '.' + e.className)];");
    @SuppressWarnings("unchecked")
    List<Object> w = (List<Object>) widths;
    assertThat(((Number) w.get(0)).intValue()).as(page + " page: scroll width vs viewport width " + w).isLessThanOrEqualTo(((Number) w.get(1)).intValue());
  }

  @Test
  void axeCoreFindsNoSeriousOrCriticalViolationsOnTheInboxAndTheTimeline() throws Exception {
    String axe = axeSource();
    String s = askToCancel("A-12");
    openCard(s);
    assertAxeClean(axe, "inbox");
    browser.driver.get(base + "/#/session/" + s);
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".call[data-tool='cancel_order']")));
    assertAxeClean(axe, "session");
    browser.driver.get(base + "/#/sessions");
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-session-id='" + s + "']")));
    assertAxeClean(axe, "sessions");
  }

  @SuppressWarnings("unchecked")
  void assertAxeClean(String axe, String page) {
    js(axe);
    browser.driver.manage().timeouts().scriptTimeout(java.time.Duration.ofSeconds(60));
    Object result = ((JavascriptExecutor) browser.driver).executeAsyncScript(
        "const done = arguments[arguments.length - 1];"
            + "axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations"
            + ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
            + ".map(v => v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', '))))"
            + ".catch(e => done(['axe failed: ' + e]));");
    assertThat((List<String>) result).as(page + " page").isEmpty();
  }

  /** axe-core's script from the npm registry, installed once into the temp directory; skipped without npm. */
  static String axeSource() throws Exception {
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "ratchet-axe-core-4.14.1");
    Path script = dir.resolve("node_modules/axe-core/axe.min.js");
    if (!Files.exists(script)) {
      Process npm;
      try {
        npm = new ProcessBuilder("npm", "install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir.toString(),
            "axe-core@4.14.1").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      } catch (java.io.IOException e) {
        Assumptions.abort("accessibility check skipped: npm is not installed (" + e.getMessage() + ")");
        return null;
      }
      boolean finished = npm.waitFor(5, TimeUnit.MINUTES);
      Assumptions.assumeTrue(finished && npm.exitValue() == 0 && Files.exists(script),
          "accessibility check skipped: npm could not install axe-core into " + dir);
    }
    return Files.readString(script);
  }
}
