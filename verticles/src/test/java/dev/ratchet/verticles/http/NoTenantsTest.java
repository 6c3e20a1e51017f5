package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A person (or a person's token) who may view or approve but was given no tenants sees only the
 * sessions of their own caller id, which agents never use: every approval would wait for somebody
 * else. The start-up log says so for each of them, and so does the dashboard when they log in.
 */
class NoTenantsTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String HASH = PasswordHash.hashPassword(ShopRuntime.PASSWORD.toCharArray(), 1_000);

  @Test
  void anApproverOrViewerWithNoTenantsIsNamedInTheStartUpLogAndToldOnTheDashboard() {
    ShopRuntime shop;
    String log;
    try (CapturedLog captured = new CapturedLog()) {
      shop = new ShopRuntime(REDIS, o -> o.user("nora", Role.APPROVER, HASH, null, null)
          .user("val", Role.VIEWER, HASH, null, null)
          .token("audit-script", Role.VIEWER, PasswordHash.hashToken("rt_audit-script-token-0123456789")));
      log = captured.text();
    }
    try {
      assertThat(log).contains("WARN dev.ratchet.verticles.http.HttpServerVerticle - http: approver 'nora' has no"
          + " tenants: it sees only the sessions of its own caller id 'nora'");
      assertThat(log).contains("http: viewer 'val' has no tenants").contains("http: viewer token 'audit-script' has no tenants");
      assertThat(log).doesNotContain("'ana' has no tenants").doesNotContain("'tess' has no tenants")
          .doesNotContain("'support-bot' has no tenants");

      JsonObject nora = Http.login(shop.baseUrl(), "nora", ShopRuntime.PASSWORD).get("/api/me").json();
      assertThat(nora.getBoolean("noTenants")).isTrue();
      assertThat(Http.login(shop.baseUrl(), "tess", ShopRuntime.PASSWORD).get("/api/me").json().getBoolean("noTenants"))
          .isFalse();

      if (Browser.installed()) {
        try (Browser browser = Browser.open(shop.baseUrl())) {
          browser.login("nora", ShopRuntime.PASSWORD);
          WebElement banner = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("no-tenants")));
          assertThat(banner.getText()).contains("You have no tenants").contains("no agent's approval reaches you");
        }
        try (Browser browser = Browser.open(shop.baseUrl())) {
          browser.login("ana", ShopRuntime.PASSWORD);
          browser.waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("me"), "ana"));
          assertThat(browser.driver.findElements(By.id("no-tenants"))).allSatisfy(e -> assertThat(e.isDisplayed()).isFalse());
        }
      }
    } finally {
      shop.close();
    }
  }
}
