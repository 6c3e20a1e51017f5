package dev.ratchet.verticles.http;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Function;

/**
 * Headless Chromium from the system packages ({@code chromium}, {@code chromium-driver}); never
 * downloads a browser. Tests are skipped, with the reason, where either is missing.
 * <p>A closed browser is kept for the next test of the JVM once its cookies, cache, storage,
 * window and timeouts are reset, since starting Chromium costs seconds of CPU; one that cannot be
 * reset is quit.
 */
public final class Browser implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  public final WebDriver driver;
  public final String base;

  private Browser(WebDriver driver, String base) {
    this.driver = driver;
    this.base = base;
  }

  /** Whether chromium and chromedriver are installed where the tests look for them. */
  public static boolean installed() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  public static void assumeInstalled() {
    Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "browser tests skipped: install the Debian packages chromium and chromium-driver"
            + " (/usr/bin/chromium and /usr/bin/chromedriver not found)");
  }

  private static final Deque<WebDriver> IDLE = new ConcurrentLinkedDeque<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      for (WebDriver d = IDLE.poll(); d != null; d = IDLE.poll()) {
        quietly(d::quit);
      }
    }, "browser-quit"));
  }

  public static Browser open(String base) {
    assumeInstalled();
    WebDriver idle = IDLE.poll();
    return new Browser(idle != null ? idle : start(), base);
  }

  private static WebDriver start() {
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--window-size=1280,1000");
    // an explicit driver executable and browser binary: Selenium Manager is never consulted
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
    return new ChromeDriver(service, options);
  }

  public void login(String name, String password) {
    driver.get(base + "/");
    waitFor(ExpectedConditions.urlContains("/login.html"));
    driver.findElement(By.id("name")).sendKeys(name);
    driver.findElement(By.id("password")).sendKeys(password);
    driver.findElement(By.id("login")).click();
    waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("me"), name));
  }

  public <T> T waitFor(Function<WebDriver, T> condition) {
    try {
      return new WebDriverWait(driver, Duration.ofSeconds(15)).until(condition::apply);
    } catch (org.openqa.selenium.TimeoutException e) {
      // say what the page showed instead, so a failure explains itself
      String shown;
      try {
        shown = driver.getCurrentUrl() + "\n" + driver.findElement(By.tagName("body")).getText();
      } catch (RuntimeException ignored) {
        shown = "(page unreadable)";
      }
      throw new AssertionError("timed out; the page showed:\n" + shown, e);
    }
  }

  public WebElement approvalCard(String sessionId) {
    return waitFor(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("section.approval[data-session-id='" + sessionId + "']")));
  }

  @Override
  public void close() {
    try {
      reset();
      IDLE.push(driver);
    } catch (RuntimeException e) {
      quietly(driver::quit);
    }
  }

  /** Leaves one blank window of the default size, with no cookie, cache or storage of this test's origin. */
  private void reset() {
    String first = driver.getWindowHandles().iterator().next();
    for (String handle : driver.getWindowHandles()) {
      if (!handle.equals(first)) {
        driver.switchTo().window(handle).close();
      }
    }
    driver.switchTo().window(first);
    driver.manage().timeouts().implicitlyWait(Duration.ZERO).pageLoadTimeout(Duration.ofSeconds(300))
        .scriptTimeout(Duration.ofSeconds(30));
    driver.manage().window().setSize(new Dimension(1280, 1000));
    ChromeDriver chrome = (ChromeDriver) driver;
    chrome.executeCdpCommand("Network.clearBrowserCookies", Map.of());
    chrome.executeCdpCommand("Network.clearBrowserCache", Map.of());
    URI origin = URI.create(base);
    chrome.executeCdpCommand("Storage.clearDataForOrigin", Map.of("origin",
        origin.getScheme() + "://" + origin.getAuthority(), "storageTypes", "all"));
    driver.get("about:blank");
  }

  private static void quietly(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException ignored) {
      // the browser is gone already
    }
  }
}
