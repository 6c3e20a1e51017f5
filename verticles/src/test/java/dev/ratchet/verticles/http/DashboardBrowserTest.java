package dev.ratchet.verticles.http;

import dev.ratchet.runtime.TurnRequest;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import static org.assertj.core.api.Assertions.assertThat;



/** The dashboard in headless Chromium against a runtime on real Redis. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserTest {

  @RegisterExtension
  static final ShopServer SHOP = new ShopServer();

  static String base;
  Browser browser;

  @BeforeAll
  static void start() {
    Browser.assumeInstalled();
    base = SHOP.baseUrl();
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  static String submit(String turnId, JsonObject... calls) {
    String s = "web-" + UUID.randomUUID().toString().substring(0, 8);
    Http.Answer a = HttpApiTest.agent().post("/api/sessions/" + s + "/turns", HttpApiTest.turn(turnId, calls));
    assertThat(a.status()).as(a.body()).isIn(200, 202);
    return s;
  }

  Object js(String script) {
    return ((JavascriptExecutor) browser.driver).executeScript(script);
  }

  /** Opens the dashboard in the browser as {@code user}; the API helpers talk to the same server. */
  private void logIn(String user) {
    HttpApiTest.base = base;
    browser = Browser.open(base);
    browser.login(user, ShopRuntime.PASSWORD);
  }

  @Test
  @Order(1) // first, so the inbox screenshot shows only its own requests
  void approverWatchesARequestArriveLiveApprovesItAndSeesTheWriteSucceedInTheTimeline() throws Exception {
    logIn("ana");
    browser.waitFor(ExpectedConditions.presenceOfElementLocated(By.id("approvals")));
    js("window.__sameDocument = true;");

    JsonObject args = new JsonObject().put("order", "A-1001").put("amountCents", 12900).put("currency", "EUR")
        .put("reason", "parcel arrived damaged");
    String s = submit("t1", HttpApiTest.call("refund_order", args));
    String other = submit("t1", HttpApiTest.call("post_message", new JsonObject().put("channel", "#support")
        .put("text", "Refund for order A-1001 is on its way.")));
    WebElement card = browser.approvalCard(s);
    browser.approvalCard(other);
    assertThat(js("return window.__sameDocument === true;")).as("the card arrived without a reload").isEqualTo(true);
    assertThat(card.findElement(By.cssSelector(".agent")).getText()).isEqualTo("shop");
    assertThat(card.findElement(By.cssSelector(".tool")).getText()).isEqualTo("refund_order");
    assertThat(card.findElement(By.cssSelector(".badge")).getText()).isEqualTo("non_idempotent_write");
    assertThat(card.findElement(By.cssSelector(".why")).getText()).isEqualTo("the tool's own definition: it always asks");
    assertThat(card.findElement(By.cssSelector(".asked")).getText()).contains("ago");
    assertThat(new JsonObject(card.findElement(By.cssSelector("pre.arguments")).getText())).isEqualTo(args);
    assertThat(card.findElement(By.cssSelector("pre.arguments")).getText()).contains("\n  \"order\"");

    // RATCHET_SCREENSHOT_DIR=../docs refreshes the README picture; by default it stays in target/
    screenshot(Path.of(System.getenv().getOrDefault("RATCHET_SCREENSHOT_DIR", "target"), "dashboard-inbox.png"));

    card.findElement(By.cssSelector("input.reason")).sendKeys("photo of the damage checked");
    card.findElement(By.cssSelector("button.approve")).click();
    // the card stays: first what happens now, then the outcome of the write with its timings
    browser.waitFor(ExpectedConditions.attributeToBe(card, "data-outcome", "succeeded"));
    assertThat(card.findElement(By.cssSelector(".decision-status .timing")).getText())
        .matches("waited [0-9.]+ m?s for approval · ran [0-9.]+ m?s");

    browser.driver.get(base + "/#/session/" + s);
    WebElement badge = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".call[data-tool='refund_order'] .badge[data-status='succeeded']")));
    assertThat(badge.getText()).isEqualTo("succeeded");
    // read in one step: a live re-render may replace the call's elements between finding and reading them
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> call = (java.util.Map<String, Object>) js("const c = document.querySelector("
        + "\".call[data-tool='refund_order']\"); const t = s => c.querySelector(s).textContent;"
        + " return {approval: t('.approval-info'), attempts: t('.attempts'), duration: t('.duration'),"
        + " wait: t('.approval-wait')};");
    assertThat((String) call.get("approval")).contains("approved").contains("by ana")
        .contains("photo of the damage checked");
    assertThat(call.get("attempts")).isEqualTo("1");
    assertThat((String) call.get("duration")).endsWith("s");
    // the time the write waited for ana is shown apart from the time it ran
    assertThat((String) call.get("wait")).endsWith("s");
    assertThat(SHOP.runtime().writes).contains(args);
    // the session belongs to the agent token that created it (no resourceId configured: its name)
    assertThat(browser.driver.findElement(By.cssSelector("#view p.muted")).getText()).contains("caller support-bot");
  }

  @Test
  void anApproverOfOneTenantSeesOnlyItsRequestsCountAndSessions() {
    HttpApiTest.base = base;
    String theirs = submit("t1", HttpApiTest.call("refund_order", new JsonObject().put("order", "T-0")));
    String mine = "tenant-t-" + UUID.randomUUID().toString().substring(0, 8);
    SHOP.runtime().ratchet.submit(TurnRequest.of("shop", mine, dev.ratchet.runtime.Turn.of("t1",
        new dev.ratchet.runtime.ToolCall("refund_order", new JsonObject().put("order", "T-1")))).callerId("tenant-t"));
    HttpApiTest.awaitPending(Http.login(base, "ana", ShopRuntime.PASSWORD), theirs);
    HttpApiTest.awaitPending(Http.login(base, "ana", ShopRuntime.PASSWORD), mine);

    browser = Browser.open(base);
    browser.login("tess", ShopRuntime.PASSWORD);
    browser.approvalCard(mine);
    assertThat(browser.driver.findElements(By.cssSelector("section.approval"))).hasSize(1);
    assertThat(browser.driver.findElement(By.id("inbox-count")).getText()).isEqualTo("1");

    browser.driver.get(base + "/#/sessions");
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-session-id='" + mine + "']")));
    assertThat(browser.driver.findElements(By.cssSelector("#sessions tbody tr"))).hasSize(1);
    browser.driver.get(base + "/#/session/" + theirs);
    assertThat(browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#view p.error")))
        .getText()).contains("no session '" + theirs + "'");
  }

  @Test
  void approverRejectsWithAReasonAndTheWriteNeverRuns() {
    logIn("ana");
    JsonObject args = new JsonObject().put("order", "R-" + UUID.randomUUID());
    String s = submit("t1", HttpApiTest.call("refund_order", args));
    WebElement card = browser.approvalCard(s);
    card.findElement(By.cssSelector("button.reject")).click();
    assertThat(card.findElement(By.cssSelector(".error")).getText()).contains("reason");
    card.findElement(By.cssSelector("input.reason")).sendKeys("over the refund limit");
    card.findElement(By.cssSelector("button.reject")).click();
    browser.waitFor(ExpectedConditions.attributeToBe(card, "data-outcome", "failed"));
    assertThat(card.findElement(By.cssSelector(".decision-status .timing")).getText()).endsWith("did not run");

    browser.driver.get(base + "/#/session/" + s);
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".call[data-tool='refund_order'] .badge[data-status='failed']")));
    assertThat(browser.driver.findElement(By.cssSelector(".call .approval-info")).getText()).contains("rejected")
        .contains("over the refund limit");
    assertThat(SHOP.runtime().writes).doesNotContain(args);
  }

  @Test
  void viewerSeesRequestsButCannotApprove() {
    logIn("vic");
    String s = submit("t1", HttpApiTest.call("refund_order", new JsonObject().put("order", "V-1")));
    WebElement card = browser.approvalCard(s);
    assertThat(card.findElement(By.cssSelector("button.approve")).isEnabled()).isFalse();
    assertThat(card.findElement(By.cssSelector("button.reject")).isEnabled()).isFalse();
    assertThat(card.findElement(By.cssSelector(".viewer-note")).getText()).contains("viewer");

    card.findElement(By.cssSelector("a.session")).click();
    WebElement waiting = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".call[data-tool='refund_order'] .badge[data-status='waiting_for_approval']")));
    assertThat(waiting.getText()).isEqualTo("waiting for approval");
  }

  @Test
  void theToolsPageSaysWhereEachAgentWasDeclared() {
    logIn("vic");
    browser.driver.get(base + "/#/tools");
    WebElement declared = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.xpath("//section[h3[text()='shop']]/p[contains(@class,'detail')]")));
    assertThat(declared.getText()).isEqualTo("Declared in java");
  }

  @Test
  void htmlInArgumentsShowsAsTextAndNeverRuns() {
    logIn("ana");
    String hostile = "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\"><b>bold</b>";
    String s = submit("t1", HttpApiTest.call("post_message", new JsonObject().put("channel", "#general")
        .put("text", hostile)));
    WebElement card = browser.approvalCard(s);
    assertThat(card.findElement(By.cssSelector("pre.arguments")).getText()).contains("<script>window.__pwned=1</script>")
        .contains("<b>bold</b>");
    assertThat(card.findElements(By.tagName("script"))).isEmpty();
    assertThat(card.findElements(By.tagName("img"))).isEmpty();
    assertThat(card.findElements(By.tagName("b"))).isEmpty();
    assertThat(js("return typeof window.__pwned;")).isEqualTo("undefined");
  }

  @Test
  void unknownOutcomeIsReconciledFromTheTimelineAndLaterWritesShowAsSkipped() throws Exception {
    logIn("ana");
    String s = submit("t1", HttpApiTest.call("charge_card", new JsonObject().put("cents", 4200)),
        HttpApiTest.call("refund_order", new JsonObject().put("order", "S-1")));
    browser.driver.get(base + "/#/session/" + s);
    WebElement skipped = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".call[data-tool='refund_order'] .badge[data-status='skipped']")));
    assertThat(skipped.getText()).contains("did not run, safe to call again");
    // the timeline re-renders while the session's event stream replays; act on a fresh element each try
    for (int attempt = 1; ; attempt++) {
      try {
        WebElement call = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector(".call[data-tool='charge_card']")));
        assertThat(call.findElement(By.cssSelector(".badge")).getAttribute("data-status")).isEqualTo("outcome_unknown");
        WebElement note = call.findElement(By.cssSelector("input.note-input"));
        note.clear();
        note.sendKeys("charge found in the provider dashboard");
        // leave the field and let a live update re-render the page: the typed note must survive it
        browser.driver.findElement(By.id("session-id")).click();
        Http.Answer more = HttpApiTest.agent().post("/api/sessions/" + s + "/turns",
            HttpApiTest.turn("t2-" + attempt, HttpApiTest.call("look_up_order", new JsonObject().put("id", "x"))));
        assertThat(more.status()).as(more.body()).isIn(200, 202);
        browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("section.turn[data-turn-id='t2-" + attempt + "']")));
        WebElement rendered = browser.driver.findElement(By.cssSelector(".call[data-tool='charge_card']"));
        assertThat(rendered.findElement(By.cssSelector("input.note-input")).getAttribute("value"))
            .isEqualTo("charge found in the provider dashboard");
        rendered.findElement(By.cssSelector("button.reconcile")).click();
        break;
      } catch (org.openqa.selenium.StaleElementReferenceException
               | org.openqa.selenium.ElementNotInteractableException e) {
        if (attempt == 10) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".call[data-tool='charge_card'] .badge[data-status='succeeded']")));
    // read in one step: a live re-render may replace the element between finding and reading it
    assertThat(browser.waitFor(d -> js("const e = document.querySelector(\".call[data-tool='charge_card'] .reconciled-info\");"
        + " return e && e.textContent;")).toString()).contains("by ana").contains("charge found in the provider dashboard");
    screenshot(Path.of("target", "dashboard-timeline.png"));
  }

  void screenshot(Path target) throws Exception {
    Files.createDirectories(target.getParent());
    Path shot = ((TakesScreenshot) browser.driver).getScreenshotAs(OutputType.FILE).toPath();
    Files.copy(shot, target, StandardCopyOption.REPLACE_EXISTING);
  }
}
