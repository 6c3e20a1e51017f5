package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import static org.assertj.core.api.Assertions.assertThat;

/** The dashboard's Connections page in headless Chromium, against the local Composio protocol server. */
class ConnectionsBrowserTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private ConnectionsRuntime runtime;
  private Browser browser;

  @BeforeEach
  void start() {
    Browser.assumeInstalled();
    runtime = new ConnectionsRuntime(REDIS);
  }

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.close();
    }
    runtime.close();
  }

  private By row(String connectionId) {
    return By.cssSelector("#connections tr[data-connection-id='" + connectionId + "']");
  }

  @Test
  void aUserConnectsThroughTheProvidersLinkSeesItCompleteRevokesOneAndBrowsesTools() {
    browser = Browser.open(runtime.baseUrl());
    browser.login("alice", ConnectionsRuntime.PASSWORD);
    browser.driver.get(runtime.baseUrl() + "/#/connections");
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(row("ca_alice_github")));
    assertThat(browser.driver.findElements(row("ca_bob_github"))).isEmpty();
    assertThat(browser.driver.findElement(row("ca_alice_gmail")).getText()).contains("gmail").contains("ACTIVE");

    browser.driver.findElement(By.id("connect-toolkit")).sendKeys("github");
    browser.driver.findElement(By.cssSelector("form.connect button[type='submit']")).click();
    // the toolkit asks for an API key first: a password field, sent with the second Connect
    WebElement key = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#connect-fields input[data-field='api_key']")));
    assertThat(key.getAttribute("type")).isEqualTo("password");
    key.sendKeys("alices-github-key");
    browser.driver.findElement(By.cssSelector("form.connect button[type='submit']")).click();
    WebElement link = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("a.auth-link")));
    String href = link.getAttribute("href");
    assertThat(href).startsWith("https://connect.composio.example/ca_new_");
    String authId = href.substring(href.lastIndexOf('/') + 1);
    assertThat(runtime.composio.initiatedWith.get(authId).getJsonObject("val").getString("api_key"))
        .isEqualTo("alices-github-key");
    browser.driver.findElement(By.cssSelector("button.check")).click();
    browser.waitFor(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".auth-state"), "pending"));

    runtime.composio.account(authId, "alice", "github", "ACTIVE");
    browser.driver.findElement(By.cssSelector("button.check")).click();
    browser.waitFor(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".auth-state"), "connected"));
    browser.waitFor(ExpectedConditions.visibilityOfElementLocated(row(authId)));

    browser.driver.findElement(row("ca_alice_gmail")).findElement(By.cssSelector("button.revoke")).click();
    browser.waitFor(ExpectedConditions.invisibilityOfElementLocated(row("ca_alice_gmail")));
    assertThat(runtime.composio.ownerOf("ca_bob_github")).isEqualTo("bob");

    browser.driver.findElement(By.id("browse-search")).sendKeys("issue");
    browser.driver.findElement(By.cssSelector("form.browse button[type='submit']")).click();
    WebElement tool = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#browse-results tr[data-tool='GITHUB_CREATE_ISSUE'] button.show-schema")));
    tool.click();
    browser.waitFor(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("pre.schema"), "\"type\": \"object\""));
  }
}
