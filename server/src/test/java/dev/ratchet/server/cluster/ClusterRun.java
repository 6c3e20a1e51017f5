package dev.ratchet.server.cluster;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.server.RunApi;
import dev.ratchet.server.bench.OrdersProvider;
import dev.ratchet.verticles.http.PasswordHash;
import dev.ratchet.verticles.impl.cluster.Placement;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratchet run --cluster} members as child JVMs on one Redis, with the orders service as
 * their provider, and what the cluster tests do with them over HTTP as a user would: submit turns
 * with an agent token, read outcomes, decide approvals as the admin, find which member runs a session.
 */
final class ClusterRun implements AutoCloseable {

  static final String TOKEN = "rt_cluster-agent-token-0123456";
  static final String PASSWORD = "cluster-admin-password";

  final List<MemberProcess> members = new ArrayList<>();
  private final Map<MemberProcess, String> loggedIn = new ConcurrentHashMap<>();
  OrdersProvider orders;
  private final Vertx vertx = Vertx.vertx();
  private final TestRedis redis;
  private final Path dir;

  private ClusterRun(TestRedis redis, Path dir) {
    this.redis = redis;
    this.dir = dir;
  }

  void decide(MemberProcess m, JsonObject approval) {
    String csrf = login(m);
    HttpResponse<String> decided = m.send("POST", "/api/approvals/" + approval.getString("sessionId") + "/"
            + approval.getString("callId"), new JsonObject().put("argumentsHash", approval.getString("argumentsHash"))
            .put("approved", true).put("reason", "checked"), Map.of("X-CSRF-Token", csrf));
    assertThat(decided.statusCode()).as(decided.body()).isEqualTo(200);
  }

  /** The session's pending approvals once there are {@code expected}. */
  List<JsonObject> pendingApprovals(MemberProcess m, String session, int expected) {
    List<JsonObject> found = new ArrayList<>();
    until(() -> {
      found.clear();
      login(m);
      HttpResponse<String> r = m.send("GET", "/api/approvals", null, Map.of());
      if (r.statusCode() == 401) {
        loggedIn.remove(m);
      }
      new JsonObject(r.body()).getJsonArray("approvals").stream().map(JsonObject.class::cast)
          .filter(a -> session.equals(a.getString("sessionId"))).forEach(found::add);
      return found.size() == expected;
    }, 60);
    return found;
  }

  /** Starts one member per name, clustered over loopback on {@code redis}, and waits until each sees them all. */
  static ClusterRun start(TestRedis redis, Path dir, String... names) throws Exception {
    return start(redis, dir, new JsonObject(), Map.of(), names);
  }

  /** As {@link #start(TestRedis, Path, String...)}, with more of the {@code cluster} section and environment. */
  static ClusterRun start(TestRedis redis, Path dir, JsonObject clusterSection, Map<String, String> env,
                          String... names) throws Exception {
    ClusterRun run = new ClusterRun(redis, dir);
    try {
      run.startMembers(clusterSection, env, names);
    } catch (Exception | AssertionError e) {
      run.close();
      throw e;
    }
    return run;
  }

  private void startMembers(JsonObject clusterSection, Map<String, String> extraEnv, String... names) throws Exception {
    orders = new OrdersProvider().start(vertx);
    Path agents = dir.resolve("agents");
    OrdersProvider.writeAgent(dir, agents, "always");
    Files.createDirectories(dir.resolve("conf"));
    JsonObject conf = new JsonObject()
        .put("journal", new JsonObject().put("keyPrefix", redis.keyPrefix()))
        .put("http", new JsonObject().put("tokens", new JsonArray().add(new JsonObject().put("name", "cluster-agent")
            .put("role", "agent").put("tokenHash", PasswordHash.hashToken(TOKEN)))));
    if (!clusterSection.isEmpty()) {
      conf.put("cluster", clusterSection);
    }
    Files.writeString(dir.resolve("conf/ratchet.json"), conf.encode());
    for (String name : names) {
      members.add(new MemberProcess(name, dir));
    }
    String list = String.join(",", members.stream().map(m -> "127.0.0.1:" + m.clusterPort).toList());
    for (MemberProcess m : members) {
      Map<String, String> env = new HashMap<>(orders.connection());
      env.putAll(Map.of("RATCHET_REDIS_URL", redis.url(), "RATCHET_CLUSTER_MEMBERS", list,
          "RATCHET_AGENTS_DIR", agents.toString(), "RATCHET_ADMIN_PASSWORD", PASSWORD,
          "RATCHET_CONNECTIONS_FILE", dir.resolve("no-connections.json").toString()));
      env.putAll(extraEnv);
      m.start(env);
    }
    until(() -> members.stream().allMatch(MemberProcess::running), 180);
    until(() -> members.stream().allMatch(m -> {
      JsonObject cluster = new JsonObject(m.send("GET", "/health", null, Map.of()).body()).getJsonObject("cluster");
      return cluster != null && cluster.getInteger("members") == names.length;
    }), 60);
  }

  void submit(MemberProcess m, String session, String turnId, String tool, JsonObject arguments) {
    HttpResponse<String> r = m.send("POST", "/api/sessions/" + session + "/turns", turn(turnId, tool, arguments),
        bearer());
    assertThat(r.statusCode()).as(m.name + ": " + r.body()).isIn(200, 202);
  }

  /** The body of a turn of the orders agent with one call. */
  static JsonObject turn(String turnId, String tool, JsonObject arguments) {
    return new JsonObject().put("agent", "orders").put("turn", new JsonObject().put("turnId", turnId)
        .put("calls", new JsonArray().add(new JsonObject().put("name", tool).put("arguments", arguments))));
  }

  String outcome(MemberProcess m, String session, String turnId) {
    String[] found = new String[1];
    until(() -> (found[0] = RunApi.firstOutcome(new JsonObject(m.send("GET", "/api/sessions/" + session + "/turns/"
        + turnId + "?wait=5", null, bearer()).body()))) != null, 90);
    return found[0];
  }

  /** The node the journal names as the session's owner, as the session list shows it. */
  String nodeOf(String session) {
    MemberProcess any = members.stream().filter(MemberProcess::alive).findFirst().orElseThrow();
    login(any);
    HttpResponse<String> r = any.send("GET", "/api/sessions?limit=100", null, Map.of());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonArray sessions = new JsonObject(r.body()).getJsonArray("sessions");
    return sessions.stream().map(JsonObject.class::cast).filter(s -> session.equals(s.getString("sessionId")))
        .findFirst().orElseThrow(() -> new AssertionError("no session " + session + " in " + sessions.encode()))
        .getString("node");
  }

  /** Session ids {@code prefix<n>} that placement gives {@code perMember} to each of {@code members}. */
  static List<String> spread(String prefix, int perMember, MemberProcess... members) {
    Set<String> nodes = new HashSet<>();
    for (MemberProcess m : members) {
      nodes.add(nodeId(m));
    }
    List<String> sessions = new ArrayList<>();
    Map<String, Integer> placed = new HashMap<>();
    for (int i = 0; sessions.size() < members.length * perMember; i++) {
      if (placed.merge(Placement.owner(prefix + i, nodes), 1, Integer::sum) <= perMember) {
        sessions.add(prefix + i);
      }
    }
    return sessions;
  }

  static String nodeId(MemberProcess m) {
    return new JsonObject(m.send("GET", "/health", null, Map.of()).body()).getJsonObject("cluster").getString("node");
  }

  /**
   * Logs in as the admin once per member (its client keeps the cookie) and answers the CSRF token:
   * each log-in costs the member a full-cost password check, too much for every poll.
   */
  String login(MemberProcess m) {
    return loggedIn.computeIfAbsent(m, member -> {
      HttpResponse<String> r = member.send("POST", "/login", new JsonObject().put("name", "admin")
          .put("password", PASSWORD), Map.of());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      return new JsonObject(r.body()).getString("csrfToken");
    });
  }

  static Map<String, String> bearer() {
    return Map.of("Authorization", "Bearer " + TOKEN);
  }

  void until(Supplier<Boolean> condition, int seconds) {
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

  String outputs() {
    StringBuilder b = new StringBuilder();
    members.forEach(m -> b.append(m.output()).append('\n'));
    return b.toString();
  }

  @Override
  public void close() throws Exception {
    for (MemberProcess m : members) {
      m.close();
    }
    await(vertx.close());
  }
}
