package dev.ratchet.server.cluster;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.server.bench.OrdersProvider;
import dev.ratchet.verticles.http.Browser;
import dev.ratchet.verticles.http.PasswordHash;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratchet run --cluster} JVMs on one Redis, as a user runs them on several machines: any
 * member takes any session's requests, and when the member that runs a session is killed with
 * SIGKILL while a write waits for approval, another takes the session over, the approval is
 * decided on a third, and the write lands once at its provider. A member stopped with SIGTERM hands
 * its sessions over instead: a write it is sending finishes there, and sessions move once parked.
 */
class ClusterFailoverTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String TOKEN = "rt_cluster-agent-token-0123456";
  private static final String PASSWORD = "cluster-admin-password";

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();
  private OrdersProvider orders;
  private final List<MemberProcess> members = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (MemberProcess m : members) {
      m.close();
    }
    vertx.close().await();
  }

  @Test
  void anyMemberTakesAnySessionAndAKilledMembersApprovalIsDecidedElsewhereAndRunsOnce() throws Exception {
    startCluster("a", "b", "c");
    MemberProcess entry = members.get(0);

    // reads for many sessions, all sent to one member, run where placement puts them
    for (int i = 0; i < 6; i++) {
      submit(entry, "r-" + i, "t1", "orders_get_order", new JsonObject().put("orderId", "100" + i));
    }
    for (int i = 0; i < 6; i++) {
      assertThat(outcome(entry, "r-" + i, "t1")).isEqualTo("succeeded");
    }
    Set<String> runOn = new HashSet<>();
    for (int i = 0; i < 6; i++) {
      runOn.add(nodeOf("r-" + i));
    }
    assertThat(runOn).as("members that ran the six sessions").hasSizeGreaterThan(1);

    // a write waits for approval on the member that owns its session; that member is killed
    submit(entry, "w-1", "t1", "orders_cancel_order", new JsonObject().put("orderId", "2001"));
    MemberProcess decider = null;
    MemberProcess owner = null;
    until(() -> !pendingApprovals(members.get(1)).isEmpty(), 60);
    String ownerNode = nodeOf("w-1");
    for (MemberProcess m : members) {
      if (nodeId(m).equals(ownerNode)) {
        owner = m;
      }
    }
    assertThat(owner).as("the member that runs w-1").isNotNull();
    owner.kill();
    for (MemberProcess m : members) {
      if (m != owner && m != entry) {
        decider = m;
      }
    }
    if (decider == null) {
      decider = members.stream().filter(m -> m.alive()).findFirst().orElseThrow();
    }
    MemberProcess judge = decider;
    List<JsonObject> pending = new ArrayList<>();
    until(() -> {
      pending.clear();
      pending.addAll(pendingApprovals(judge));
      return !pending.isEmpty();
    }, 60);
    JsonObject approval = pending.get(0);
    String csrf = login(judge);
    HttpResponse<String> decided = judge.send("POST", "/api/approvals/w-1/" + approval.getString("callId"),
        new JsonObject().put("argumentsHash", approval.getString("argumentsHash")).put("approved", true)
            .put("reason", "checked"), Map.of("X-CSRF-Token", csrf));
    assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);

    assertThat(outcome(judge, "w-1", "t1")).isEqualTo("succeeded");
    until(() -> !ownerNode.equals(nodeOf("w-1")), 30);
    assertThat(orders.cancels("2001")).isEqualTo(1);
    JsonObject health = new JsonObject(judge.send("GET", "/health", null, Map.of()).body());
    assertThat(health.getJsonObject("cluster").getInteger("members")).isEqualTo(2);

    // the dashboard of any member lists the cluster's sessions with the member that runs each
    if (Browser.installed()) {
      try (Browser browser = Browser.open("http://127.0.0.1:" + judge.httpPort)) {
        browser.login("admin", PASSWORD);
        browser.driver.get(browser.base + "/#/sessions/0");
        WebElement row = browser.waitFor(ExpectedConditions.visibilityOfElementLocated(
            By.cssSelector("#sessions tr[data-session-id='w-1'] td.node")));
        assertThat(row.getAttribute("title")).isEqualTo(nodeOf("w-1"));
        assertThat(browser.driver.findElements(By.cssSelector("#sessions tbody tr"))).hasSizeGreaterThanOrEqualTo(7);
      }
    }
  }

  @Test
  void aMemberStoppedWithSigtermFinishesTheWriteItSendsAndHandsItsSessionsOverOnceParked() throws Exception {
    startCluster("a", "b");
    MemberProcess leaving = members.get(0);
    MemberProcess staying = members.get(1);
    String leavingNode = nodeId(leaving);
    // two sessions that placement gives to the member that will leave
    List<String> own = new ArrayList<>();
    for (int i = 0; own.size() < 2 && i < 40; i++) {
      submit(leaving, "g-" + i, "t0", "orders_get_order", new JsonObject().put("orderId", "1"));
      assertThat(outcome(leaving, "g-" + i, "t0")).isEqualTo("succeeded");
      if (leavingNode.equals(nodeOf("g-" + i))) {
        own.add("g-" + i);
      }
    }
    assertThat(own).as("sessions placed on " + leavingNode).hasSize(2);
    String sending = own.get(0);
    String parked = own.get(1);

    // one write waits for its decision while the other is being sent (the service answers after 4 s)
    submit(staying, parked, "t1", "orders_cancel_order", new JsonObject().put("orderId", "3001"));
    pendingApprovals(staying, parked, 1);
    submit(staying, sending, "t1", "orders_cancel_order", new JsonObject().put("orderId", "slow-1"));
    decide(staying, pendingApprovals(staying, sending, 1).get(0));
    until(() -> orders.cancels("slow-1") == 1, 30);

    long stopped = System.currentTimeMillis();
    Thread sigterm = new Thread(() -> {
      try {
        exitCode = leaving.terminate(60);
      } catch (IOException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    sigterm.start();
    // a turn for the busy session, sent while its member leaves, is kept for its next owner
    until(() -> new JsonObject(staying.send("GET", "/health", null, Map.of()).body()).getJsonObject("cluster")
        .getInteger("members") == 1, 30);
    submit(staying, sending, "t2", "orders_get_order", new JsonObject().put("orderId", "2"));
    sigterm.join(70_000);

    assertThat(exitCode).as("ended by its SIGTERM: " + leaving.output()).isEqualTo(143);
    assertThat(System.currentTimeMillis() - stopped).as("left well before cluster.leaveTimeoutMillis")
        .isLessThan(20_000);
    assertThat(outcome(staying, sending, "t1")).as("the write in flight finished on the member that sent it\n" + outputs())
        .isEqualTo("succeeded");
    assertThat(orders.cancels("slow-1")).isEqualTo(1);
    assertThat(outcome(staying, sending, "t2")).isEqualTo("succeeded");
    assertThat(leaving.output()).contains("2 session(s) handed over");

    decide(staying, pendingApprovals(staying, parked, 1).get(0));
    assertThat(outcome(staying, parked, "t1")).isEqualTo("succeeded");
    assertThat(orders.cancels("3001")).isEqualTo(1);
    assertThat(nodeOf(parked)).isEqualTo(nodeId(staying));
  }

  private volatile int exitCode = -2;

  private void decide(MemberProcess m, JsonObject approval) {
    String csrf = login(m);
    HttpResponse<String> decided = m.send("POST", "/api/approvals/" + approval.getString("sessionId") + "/"
            + approval.getString("callId"), new JsonObject().put("argumentsHash", approval.getString("argumentsHash"))
            .put("approved", true).put("reason", "checked"), Map.of("X-CSRF-Token", csrf));
    assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);
  }

  /** The session's pending approvals once there are {@code expected}. */
  private List<JsonObject> pendingApprovals(MemberProcess m, String session, int expected) {
    List<JsonObject> found = new ArrayList<>();
    until(() -> {
      found.clear();
      login(m);
      HttpResponse<String> r = m.send("GET", "/api/approvals", null, Map.of());
      new JsonObject(r.body()).getJsonArray("approvals").stream().map(JsonObject.class::cast)
          .filter(a -> session.equals(a.getString("sessionId"))).forEach(found::add);
      return found.size() == expected;
    }, 60);
    return found;
  }

  private void startCluster(String... names) throws Exception {
    orders = new OrdersProvider().start(vertx);
    Path agents = dir.resolve("agents");
    OrdersProvider.writeAgent(dir, agents, "always");
    Files.createDirectories(dir.resolve("conf"));
    Files.writeString(dir.resolve("conf/ratchet.json"), new JsonObject()
        .put("journal", new JsonObject().put("keyPrefix", REDIS.keyPrefix()))
        .put("http", new JsonObject().put("tokens", new JsonArray().add(new JsonObject().put("name", "cluster-agent")
            .put("role", "agent").put("tokenHash", PasswordHash.hashToken(TOKEN))))).encode());
    for (String name : names) {
      members.add(new MemberProcess(name, dir));
    }
    String list = String.join(",", members.stream().map(m -> "127.0.0.1:" + m.clusterPort).toList());
    for (MemberProcess m : members) {
      Map<String, String> env = new HashMap<>(orders.connection());
      env.putAll(Map.of("RATCHET_REDIS_URL", REDIS.url(), "RATCHET_CLUSTER_MEMBERS", list,
          "RATCHET_AGENTS_DIR", agents.toString(), "RATCHET_ADMIN_PASSWORD", PASSWORD,
          "RATCHET_CONNECTIONS_FILE", dir.resolve("no-connections.json").toString()));
      m.start(env);
    }
    until(() -> members.stream().allMatch(MemberProcess::running), 180);
    until(() -> members.stream().allMatch(m -> {
      JsonObject cluster = new JsonObject(m.send("GET", "/health", null, Map.of()).body()).getJsonObject("cluster");
      return cluster != null && cluster.getInteger("members") == names.length;
    }), 60);
  }

  private void submit(MemberProcess m, String session, String turnId, String tool, JsonObject arguments) {
    JsonObject body = new JsonObject().put("agent", "orders").put("turn", new JsonObject().put("turnId", turnId)
        .put("calls", new JsonArray().add(new JsonObject().put("name", tool).put("arguments", arguments))));
    HttpResponse<String> r = m.send("POST", "/api/sessions/" + session + "/turns", body, bearer());
    assertThat(r.statusCode()).as(m.name + ": " + r.body()).isIn(200, 202);
  }

  private String outcome(MemberProcess m, String session, String turnId) {
    String[] found = new String[1];
    until(() -> {
      JsonObject r = new JsonObject(m.send("GET", "/api/sessions/" + session + "/turns/" + turnId + "?wait=5", null,
          bearer()).body());
      if ("completed".equals(r.getString("status"))) {
        found[0] = r.getJsonObject("results").getJsonArray("results").getJsonObject(0).getString("outcome");
        return true;
      }
      return false;
    }, 90);
    return found[0];
  }

  /** The node the journal names as the session's owner, as the session list shows it. */
  private String nodeOf(String session) {
    MemberProcess any = members.stream().filter(MemberProcess::alive).findFirst().orElseThrow();
    login(any);
    HttpResponse<String> r = any.send("GET", "/api/sessions?limit=100", null, Map.of());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonArray sessions = new JsonObject(r.body()).getJsonArray("sessions");
    return sessions.stream().map(JsonObject.class::cast).filter(s -> session.equals(s.getString("sessionId")))
        .findFirst().orElseThrow(() -> new AssertionError("no session " + session + " in " + sessions.encode()))
        .getString("node");
  }

  private static String nodeId(MemberProcess m) {
    return new JsonObject(m.send("GET", "/health", null, Map.of()).body()).getJsonObject("cluster").getString("node");
  }

  private List<JsonObject> pendingApprovals(MemberProcess m) {
    login(m);
    HttpResponse<String> r = m.send("GET", "/api/approvals", null, Map.of());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body()).getJsonArray("approvals").stream().map(JsonObject.class::cast)
        .filter(a -> "w-1".equals(a.getString("sessionId"))).toList();
  }

  private String login(MemberProcess m) {
    HttpResponse<String> r = m.send("POST", "/login", new JsonObject().put("name", "admin").put("password", PASSWORD),
        Map.of());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body()).getString("csrfToken");
  }

  private static Map<String, String> bearer() {
    return Map.of("Authorization", "Bearer " + TOKEN);
  }

  private void until(Supplier<Boolean> condition, int seconds) {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (true) {
      try {
        if (condition.get()) {
          return;
        }
      } catch (AssertionError | RuntimeException e) {
        if (System.currentTimeMillis() > deadline) {
          throw new AssertionError(e.getMessage() + "\n" + outputs(), e);
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out after " + seconds + " s\n" + outputs());
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private String outputs() {
    StringBuilder b = new StringBuilder();
    members.forEach(m -> b.append(m.output()).append('\n'));
    return b.toString();
  }
}
