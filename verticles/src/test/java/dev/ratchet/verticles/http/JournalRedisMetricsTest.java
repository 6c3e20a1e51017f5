package dev.ratchet.verticles.http;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.http.impl.RatchetMetrics;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The journal's Redis as /metrics shows it: its latest fork, a rewrite running, its memory. */
class JournalRedisMetricsTest {

  // a server of its own: the test forks it and slows its rewrites down
  @RegisterExtension
  static final TestRedis REDIS = TestRedis.withOwnServer();

  private Vertx vertx;
  private RatchetNode ratchet;
  private RatchetMetrics metrics;
  private Redis admin;

  @BeforeEach
  void deploy() {
    vertx = Vertx.vertx();
    ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
        .keyPrefix(REDIS.keyPrefix())));
    metrics = new RatchetMetrics(vertx, ratchet);
    admin = Redis.createClient(vertx, REDIS.url());
  }

  @AfterEach
  void close() {
    await(admin.send(Request.cmd(Command.CONFIG).arg("SET").arg("rdb-key-save-delay").arg("0")));
    admin.close();
    metrics.close();
    await(ratchet.close());
    await(vertx.close());
  }

  @Test
  void aRewriteShowsWhileItRunsAndItsForkTimeAfter() throws Exception {
    for (int i = 0; i < 200; i++) {
      await(admin.send(Request.cmd(Command.SET).arg(REDIS.keyPrefix() + ":k" + i).arg("v")));
    }
    // Redis's own test setting: each key of the rewrite waits 20 ms, so the rewrite lasts seconds
    await(admin.send(Request.cmd(Command.CONFIG).arg("SET").arg("rdb-key-save-delay").arg("20000")));
    await(admin.send(Request.cmd(Command.BGREWRITEAOF)));

    await(metrics.refreshJournalRedis());
    String during = metrics.scrape();
    assertThat(gauge(during, "ratchet_journal_redis_aof_rewriting")).isEqualTo(1.0);

    await(admin.send(Request.cmd(Command.CONFIG).arg("SET").arg("rdb-key-save-delay").arg("0")));
    long deadline = System.currentTimeMillis() + 20_000;
    while (!"0".equals(info().get("aof_rewrite_in_progress")) && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    Map<String, String> info = info();
    assertThat(info.get("aof_rewrite_in_progress")).isEqualTo("0");
    await(metrics.refreshJournalRedis());
    String after = metrics.scrape();

    long forkMicros = Long.parseLong(info.get("latest_fork_usec"));
    assertThat(forkMicros).as("Redis forked for the rewrite").isPositive();
    assertThat(gauge(after, "ratchet_journal_redis_last_fork_seconds")).isEqualTo(forkMicros / 1e6);
    assertThat(gauge(after, "ratchet_journal_redis_aof_rewriting")).isEqualTo(0.0);
    assertThat(gauge(after, "ratchet_journal_redis_used_memory_bytes"))
        .isGreaterThan(0.0).isEqualTo(Double.parseDouble(info().get("used_memory")), org.assertj.core.data.Offset.offset(1e6));
  }

  private Map<String, String> info() {
    return await(ratchet.diagnostics().info("default"));
  }

  private static double gauge(String scrape, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(scrape);
    assertThat(m.find()).as(name + " in\n" + scrape).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
