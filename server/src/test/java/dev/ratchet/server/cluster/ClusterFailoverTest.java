package dev.ratchet.server.cluster;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.http.Browser;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three {@code ratchet run --cluster} JVMs on one Redis, as a user runs them on three machines:
 * any member takes any session's requests, and when the member that runs a session is killed with
 * SIGKILL while a write waits for approval, another takes the session over, the approval is
 * decided on a third, and the write lands once at its provider.
 */
class ClusterFailoverTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @TempDir
  Path dir;

  private ClusterRun cluster;

  @AfterEach
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void anyMemberTakesAnySessionAndAKilledMembersApprovalIsDecidedElsewhereAndRunsOnce() throws Exception {
    cluster = ClusterRun.start(REDIS, dir, "a", "b", "c");
    MemberProcess entry = cluster.members.get(0);

    // reads for many sessions, all sent to one member, run where placement puts them
    for (int i = 0; i < 6; i++) {
      cluster.submit(entry, "r-" + i, "t1", "orders_get_order", new JsonObject().put("orderId", "100" + i));
    }
    for (int i = 0; i < 6; i++) {
      assertThat(cluster.outcome(entry, "r-" + i, "t1")).isEqualTo("succeeded");
    }
    Set<String> runOn = new HashSet<>();
    for (int i = 0; i < 6; i++) {
      runOn.add(cluster.nodeOf("r-" + i));
    }
    assertThat(runOn).as("members that ran the six sessions").hasSizeGreaterThan(1);

    // a write waits for approval on the member that owns its session; that member is killed
    cluster.submit(entry, "w-1", "t1", "orders_cancel_order", new JsonObject().put("orderId", "2001"));
    cluster.pendingApprovals(cluster.members.get(1), "w-1", 1);
    String ownerNode = cluster.nodeOf("w-1");
    MemberProcess owner = cluster.members.stream().filter(m -> ClusterRun.nodeId(m).equals(ownerNode)).findFirst()
        .orElseThrow(() -> new AssertionError("no member runs w-1"));
    owner.kill();
    MemberProcess judge = cluster.members.stream().filter(m -> m != owner && m != entry).findFirst()
        .orElseGet(() -> cluster.members.stream().filter(MemberProcess::alive).findFirst().orElseThrow());
    cluster.decide(judge, cluster.pendingApprovals(judge, "w-1", 1).get(0));

    assertThat(cluster.outcome(judge, "w-1", "t1")).isEqualTo("succeeded");
    cluster.until(() -> !ownerNode.equals(cluster.nodeOf("w-1")), 30);
    assertThat(cluster.orders.cancels("2001")).isEqualTo(1);
    JsonObject health = new JsonObject(judge.send("GET", "/health", null, Map.of()).body());
    assertThat(health.getJsonObject("cluster").getInteger("members")).isEqualTo(2);

    // the dashboard of any member lists the cluster's sessions with the member that runs each
    if (Browser.installed()) {
      try (Browser browser = Browser.open("http://127.0.0.1:" + judge.httpPort)) {
        browser.login("admin", ClusterRun.PASSWORD);
        browser.driver.get(browser.base + "/#/sessions/0");
        WebElement row = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("#sessions tr[data-session-id='w-1'] td.node")));
        assertThat(row.getAttribute("title")).isEqualTo(cluster.nodeOf("w-1"));
        assertThat(browser.driver.findElements(By.cssSelector("#sessions tbody tr"))).hasSizeGreaterThanOrEqualTo(7);
      }
    }
  }
}
