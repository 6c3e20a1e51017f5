package dev.ratchet.server.cluster;

import dev.ratchet.embedded.RedisServerProcess;
import dev.ratchet.server.bench.OrdersProvider;
import dev.ratchet.verticles.http.PasswordHash;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * The takeover benchmark ({@code bench --takeover N}): member A of a two-member cluster runs N
 * sessions, each with a write waiting for approval; A is killed with SIGKILL (or, with
 * {@code --takeover-freeze}, stopped with SIGSTOP, which only missing heartbeats reveal), and the run measures
 * how long after the kill member B has claimed every one of them (the journal's owner of each
 * session), then approves them all on B and checks that each write reached the provider once.
 */
public final class TakeoverRun {

  private static final String TOKEN = "rt_takeover-bench-token-01234";
  private static final String PASSWORD = "takeover-bench-password";

  private final int sessions;
  private final boolean freeze;
  private final String redisUrl;
  private final OrdersProvider orders = new OrdersProvider();
  private final String prefix = "takeover-" + UUID.randomUUID().toString().substring(0, 8);

  /** @param freeze stop member A with SIGSTOP (silent, as on a network loss) instead of killing it */
  public TakeoverRun(int sessions, boolean freeze, String redisUrl) {
    this.sessions = sessions;
    this.freeze = freeze;
    this.redisUrl = redisUrl;
  }

  /** Runs it and prints what it measured; the summary as JSON. */
  public JsonObject run() throws Exception {
    Path dir = Files.createTempDirectory("ratchet-takeover");
    RedisServerProcess own = redisUrl == null ? RedisServerProcess.startTemporary("ratchet-takeover", "everysec") : null;
    String url = own != null ? own.url() : redisUrl;
    Vertx vertx = Vertx.vertx();
    Redis redis = Redis.createClient(vertx, url);
    ExecutorService pool = Executors.newFixedThreadPool(32);
    MemberProcess a = new MemberProcess("a", dir);
    MemberProcess b = new MemberProcess("b", dir);
    try {
      orders.start(vertx);
      Map<String, String> env = prepare(dir, url, a, b);
      a.start(env);
      await(a::running, 180, "member a to start", a);
      long submitting = System.currentTimeMillis();
      List<Future<?>> submits = new ArrayList<>();
      for (int i = 0; i < sessions; i++) {
        String session = "s-" + i;
        submits.add(pool.submit(() -> submit(a, session)));
      }
      for (Future<?> f : submits) {
        f.get();
      }
      await(() -> count(redis, Request.cmd(Command.ZCARD).arg(prefix + ":approvals")) == sessions, 300,
          sessions + " approvals to be pending", a);
      System.out.printf("member a runs %d sessions, each with a write waiting for approval (%d ms to submit)%n",
          sessions, System.currentTimeMillis() - submitting);
      b.start(env);
      await(() -> b.running() && members(b) == 2, 180, "member b to join", b);
      String bNode = node(b);

      if (freeze) {
        a.freeze();
      } else {
        a.kill();
      }
      long killed = System.nanoTime();
      long first = -1;
      long all = -1;
      while (all < 0) {
        int owned = ownedBy(redis, bNode);
        long now = System.nanoTime();
        if (owned > 0 && first < 0) {
          first = now;
        }
        if (owned == sessions) {
          all = now;
        }
        if (now - killed > 120_000_000_000L) {
          throw new IllegalStateException("member b took over " + owned + " of " + sessions + " sessions in 120 s\n"
              + b.output());
        }
        Thread.sleep(20);
      }
      double firstMs = (first - killed) / 1e6;
      double allMs = (all - killed) / 1e6;
      System.out.printf("%s of member a -> member b's first claim: %.0f ms; all %d sessions claimed: %.0f ms%n",
          freeze ? "SIGSTOP" : "SIGKILL", firstMs, sessions, allMs);
      if (freeze) {
        a.kill();
      }

      String csrf = login(b);
      for (JsonArray pending = approvals(b); !pending.isEmpty(); pending = approvals(b)) {
        List<Future<?>> decisions = new ArrayList<>();
        for (Object o : pending) {
          JsonObject approval = (JsonObject) o;
          decisions.add(pool.submit(() -> approve(b, approval, csrf)));
        }
        for (Future<?> f : decisions) {
          f.get();
        }
      }
      await(() -> orders.cancelledOrders() == sessions, 300, "every approved write to land", b);
      Thread.sleep(1_000);
      long twice = orders.cancelledTwice();
      System.out.printf("after approving on member b: %d of %d writes landed, %d more than once%n", orders.cancelledOrders(),
          sessions, twice);
      return new JsonObject().put("sessions", sessions).put("signal", freeze ? "STOP" : "KILL").put("firstClaimMs", firstMs).put("allClaimedMs", allMs)
          .put("landed", orders.cancelledOrders()).put("duplicates", twice);
    } finally {
      a.close();
      b.close();
      pool.shutdownNow();
      redis.close();
      vertx.close().await();
      if (own != null) {
        own.close();
      }
    }
  }

  private Map<String, String> prepare(Path dir, String url, MemberProcess a, MemberProcess b) throws Exception {
    Path agents = dir.resolve("agents");
    OrdersProvider.writeAgent(dir, agents, "always");
    Files.createDirectories(dir.resolve("conf"));
    Files.writeString(dir.resolve("conf/ratchet.json"), new JsonObject()
        .put("journal", new JsonObject().put("keyPrefix", prefix))
        .put("http", new JsonObject().put("tokens", new JsonArray().add(new JsonObject().put("name", "bench")
            .put("role", "agent").put("tokenHash", PasswordHash.hashToken(TOKEN))))).encode());
    Map<String, String> env = new java.util.HashMap<>(orders.connection());
    env.putAll(Map.of("RATCHET_REDIS_URL", url,
        "RATCHET_CLUSTER_MEMBERS", "127.0.0.1:" + a.clusterPort + ",127.0.0.1:" + b.clusterPort,
        "RATCHET_AGENTS_DIR", agents.toString(), "RATCHET_ADMIN_PASSWORD", PASSWORD,
        "RATCHET_CONNECTIONS_FILE", dir.resolve("no-connections.json").toString()));
    return env;
  }

  private static void submit(MemberProcess m, String session) {
    JsonObject body = new JsonObject().put("agent", "orders").put("turn", new JsonObject().put("turnId", "t1")
        .put("calls", new JsonArray().add(new JsonObject().put("name", "orders_cancel_order")
            .put("arguments", new JsonObject().put("orderId", session)))));
    HttpResponse<String> r = m.send("POST", "/api/sessions/" + session + "/turns", body,
        Map.of("Authorization", "Bearer " + TOKEN));
    if (r.statusCode() != 202 && r.statusCode() != 200) {
      throw new IllegalStateException("submit " + session + ": " + r.statusCode() + " " + r.body());
    }
  }

  private static void approve(MemberProcess m, JsonObject approval, String csrf) {
    HttpResponse<String> r = m.send("POST", "/api/approvals/" + approval.getString("sessionId") + "/"
            + approval.getString("callId"), new JsonObject().put("argumentsHash", approval.getString("argumentsHash"))
            .put("approved", true).put("reason", "bench"), Map.of("X-CSRF-Token", csrf));
    if (r.statusCode() != 200) {
      throw new IllegalStateException("approve " + approval.getString("sessionId") + ": " + r.statusCode() + " "
          + r.body());
    }
  }

  private static JsonArray approvals(MemberProcess m) {
    return new JsonObject(m.send("GET", "/api/approvals", null, Map.of()).body()).getJsonArray("approvals");
  }

  private static String login(MemberProcess m) {
    HttpResponse<String> r = m.send("POST", "/login", new JsonObject().put("name", "admin").put("password", PASSWORD),
        Map.of());
    return new JsonObject(r.body()).getString("csrfToken");
  }

  private static JsonObject cluster(MemberProcess m) {
    JsonObject cluster = new JsonObject(m.send("GET", "/health", null, Map.of()).body()).getJsonObject("cluster");
    return cluster == null ? new JsonObject() : cluster;
  }

  private static int members(MemberProcess m) {
    return cluster(m).getInteger("members", 0);
  }

  private static String node(MemberProcess m) {
    return cluster(m).getString("node");
  }

  /** How many of the sessions the journal says {@code node} owns, read in one pipeline. */
  private int ownedBy(Redis redis, String node) {
    List<Request> reads = new ArrayList<>(sessions);
    for (int i = 0; i < sessions; i++) {
      reads.add(Request.cmd(Command.HGET).arg(prefix + ":{s-" + i + "}:meta").arg("owner"));
    }
    List<Response> owners = redis.batch(reads).await();
    int owned = 0;
    for (Response r : owners) {
      if (r != null && node.equals(r.toString())) {
        owned++;
      }
    }
    return owned;
  }

  private static long count(Redis redis, Request request) {
    Response r = redis.send(request).await();
    return r == null ? 0 : r.toLong();
  }

  private static void await(BooleanSupplier condition, int seconds, String what, MemberProcess member)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (true) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
      } catch (RuntimeException e) {
        // not yet answering
      }
      if (!member.alive() || System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("waited " + seconds + " s for " + what + "\n" + member.output());
      }
      Thread.sleep(100);
    }
  }
}
