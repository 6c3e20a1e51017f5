package dev.ratchet.verticles.http;

import dev.ratchet.runtime.VisibleText;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An approval card cannot show an argument as another value than the one sent, in headless
 * Chromium: a bidi override, a zero-width or tag character, a Cyrillic letter in a Latin word show
 * as escapes, and the card and the timeline's call say that they hold such characters. The
 * dashboard's half of the rule agrees with {@link VisibleText} on every sample.
 */
class UnusualTextBrowserTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  static ShopRuntime shop;

  @BeforeAll
  static void start() {
    Browser.assumeInstalled();
    shop = new ShopRuntime(REDIS);
  }

  @AfterAll
  static void stop() {
    if (shop != null) {
      shop.close();
    }
  }

  private static String refund(JsonObject arguments) {
    String s = "unusual-" + UUID.randomUUID().toString().substring(0, 8);
    Http.Answer a = Http.bearer(shop.baseUrl(), ShopRuntime.AGENT_TOKEN).post("/api/sessions/" + s + "/turns",
        HttpApiTest.turn("t1", HttpApiTest.call("refund_order", arguments)));
    assertThat(a.status()).as(a.body()).isIn(200, 202);
    return s;
  }

  @Test
  void aCardShowsInvisibleAndLookAlikeCharactersAsEscapesAndSaysSo() {
    // displays as "to DE89 6543 21" in a browser that honours the override
    String spoofed = refund(new JsonObject().put("to", "DE89 \u202e12 3456\u202c").put("payee", "p\u0430ypal")
        .put("memo", "ok\u200b\udb40\udc41"));
    String plain = refund(new JsonObject().put("to", "DE89 1234 56").put("payee", "Zoë Müller"));
    try (Browser browser = Browser.open(shop.baseUrl())) {
      browser.login("ana", ShopRuntime.PASSWORD);
      WebElement card = browser.approvalCard(spoofed);
      String args = card.findElement(By.cssSelector("pre.arguments")).getText();
      assertThat(args).contains("DE89 \\u202e12 3456\\u202c").contains("p\\u0430ypal").contains("ok\\u200b\\u{e0041}")
          .doesNotContain("\u202e").doesNotContain("\u0430").doesNotContain("\u200b");
      assertThat(card.getAttribute("data-unusual")).isEqualTo("true");
      assertThat(card.findElement(By.cssSelector(".unusual-warning")).getText())
          .contains("Contains invisible or look-alike characters");

      WebElement ordinary = browser.approvalCard(plain);
      assertThat(ordinary.findElement(By.cssSelector("pre.arguments")).getText()).contains("Zoë Müller");
      assertThat(ordinary.getAttribute("data-unusual")).isNull();
      assertThat(ordinary.findElements(By.cssSelector(".unusual-warning"))).isEmpty();

      browser.driver.get(shop.baseUrl() + "/#/session/" + spoofed);
      WebElement call = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
          By.cssSelector(".call[data-tool='refund_order']")));
      assertThat(call.getAttribute("data-unusual")).isEqualTo("true");
      assertThat(call.findElement(By.cssSelector("pre.arguments")).getText()).contains("p\\u0430ypal");
    }
  }

  @Test
  void theDashboardEscapesExactlyAsTheServerRuleDoes() {
    List<String> samples = List.of("pay \u202eevil\u202c", "\u2066a\u2069\u200b\u200d\u2060\ufeff\u00ad", "acct 12\u00a034",
        "id\udb40\udc41", "a\u001b[31mb\u007f\u0085\r", "p\u0430ypal.com", "IBAN DE\uff11\uff12", "\ud835\udc00BC",
        "12\u09ea5", "Привет, мир", "東京タワーへ行く", "ABC漢字", "한국어 text", "naïve café", "e\u0301", "m² 5°C",
        "😀 👍🏽", "שלום", "مرحبا ١٢٣", "line one\nline\ttwo", "back\\slash \\u202e", "\u3164\u115f\ufe0f\u2800",
        "Ελλάδα and Greece", "Gr\u0435\u0435ce");
    try (Browser browser = Browser.open(shop.baseUrl())) {
      browser.login("vic", ShopRuntime.PASSWORD);
      Object shown = ((JavascriptExecutor) browser.driver).executeScript(
          "return arguments[0].map(s => Visible.shown(s).text);", new JsonArray(samples).getList());
      assertThat(((List<?>) shown).stream().map(String::valueOf).toList())
          .containsExactlyElementsOf(samples.stream().map(VisibleText::shown).toList());
    }
  }
}
