package dev.ratchet.embedded;

import dev.ratchet.embedded.impl.IdleChildren;
import dev.ratchet.host.ChildEnvironment;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The Redis that Ratchet starts runs its AOF rewrites on the CPU that Redis and the runtime leave free. */
class RewritePriorityTest {

  private static final int SCHED_OTHER = 0;
  private static final int SCHED_IDLE = 5;

  private Vertx vertx;

  @BeforeEach
  void linuxWithChrt() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")) && ChildEnvironment.onPath("chrt") != null,
        "idle priority for Redis's children needs Linux's /proc and chrt");
    vertx = Vertx.vertx();
  }

  @AfterEach
  void closeVertx() throws Exception {
    if (vertx != null) {
      vertx.close().await(20, TimeUnit.SECONDS);
    }
  }

  @Test
  void anAofRewriteOfTheEmbeddedRedisRunsAtIdleCpuPriority(@TempDir Path dir) throws Exception {
    assertThat(rewriteChildPolicy(dir, "idle", 3_000)).isEqualTo(SCHED_IDLE);
  }

  @Test
  void withNormalPriorityTheRewriteCompetesLikeAnyProcess(@TempDir Path dir) throws Exception {
    // fifty times the watcher's period: long enough for it to have acted, had it been there
    assertThat(rewriteChildPolicy(dir, "normal", IdleChildren.POLL_MILLIS * 50)).isEqualTo(SCHED_OTHER);
  }

  @Test
  void anUnknownPriorityIsRefusedByName(@TempDir Path dir) {
    assertThatThrownBy(() -> RedisServerProcess.start(
            RedisServerProcess.findBinary(), 0, dir, "everysec", "low"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'idle' or 'normal', not 'low'");
  }

  /**
   * The scheduling policy of a slow rewrite's child on a server started with {@code priority}, once
   * it is {@code SCHED_IDLE} or {@code millis} have passed.
   */
  private int rewriteChildPolicy(Path dir, String priority, long millis) throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start(RedisServerProcess.findBinary(), 0, dir, "everysec",
        priority)) {
      assertThat(redis.rewritesAtIdlePriority()).isEqualTo(priority.equals("idle"));
      return policyWithin(startSlowRewrite(redis), SCHED_IDLE, millis);
    }
  }

  /** Starts a rewrite that takes seconds (Redis's test setting delays each key) and returns its pid. */
  private long startSlowRewrite(RedisServerProcess redis) throws Exception {
    Redis client = Redis.createClient(vertx, redis.url());
    try {
      for (int i = 0; i < 200; i++) {
        client.send(Request.cmd(Command.SET).arg("k" + i).arg("v")).await(20, TimeUnit.SECONDS);
      }
      client.send(Request.cmd(Command.CONFIG).arg("SET").arg("rdb-key-save-delay").arg("20000")).await(20, TimeUnit.SECONDS);
      client.send(Request.cmd(Command.BGREWRITEAOF)).await(20, TimeUnit.SECONDS);
    } finally {
      client.close();
    }
    Path children = Path.of("/proc", String.valueOf(redis.pid()), "task", String.valueOf(redis.pid()), "children");
    long deadline = System.currentTimeMillis() + 3_000;
    while (System.currentTimeMillis() < deadline) {
      List<Long> pids = new ArrayList<>();
      for (String token : Files.readString(children).trim().split("\\s+")) {
        if (!token.isEmpty()) {
          pids.add(Long.parseLong(token));
        }
      }
      if (!pids.isEmpty()) {
        return pids.get(0);
      }
      Thread.sleep(5);
    }
    throw new AssertionError("redis-server forked no child for BGREWRITEAOF within 3 s");
  }

  private static int policyWithin(long pid, int wanted, long millis) throws Exception {
    long deadline = System.currentTimeMillis() + millis;
    int policy = policy(pid);
    while (policy != wanted && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
      policy = policy(pid);
    }
    return policy;
  }

  /** The scheduling policy of a process: field 41 of /proc/[pid]/stat, counted after the command's ')'. */
  private static int policy(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(fields[41 - 3]);
  }
}
