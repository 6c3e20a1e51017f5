package dev.ratchet.server.cli;

import dev.ratchet.runtime.redis.EmbeddedRedis;
import dev.ratchet.runtime.redis.RedisServerProcess;
import dev.ratchet.verticles.RatchetOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code inspect} reaches the embedded Redis that {@code run} started the way {@code run} does: its socket and password file. */
class InspectEmbeddedRedisTest {

  @TempDir
  Path tmp;

  @Test
  void inspectReadsTheJournalOfTheEmbeddedRedisInTheDataDirectory() throws Exception {
    Path dir = tmp.resolve("redis");
    try (EmbeddedRedis redis = EmbeddedRedis.start(RedisServerProcess.findBinary(),
        new EmbeddedRedis.Options(dir, 0, "everysec", "normal"))) {
      InspectRun.journalCancelledOrder(RatchetOptions.create().redisUrl(redis.journalUrl()), "embedded-1");

      InspectRun printed = InspectRun.of("embedded-1", "--data-dir", dir.toString(), "--config", tmp.resolve("none.json").toString());

      assertThat(printed.code()).isZero();
      assertThat(printed.out()).contains("session embedded-1  agent shop").contains("cancel_order [non_idempotent_write]");
    }
  }

  @Test
  void withNoEmbeddedRedisRunningInspectSaysWhereItLookedAndWhatToDo() {
    Path dir = tmp.resolve("redis");

    InspectRun printed = InspectRun.of("embedded-1", "--data-dir", dir.toString(), "--config", tmp.resolve("none.json").toString());

    assertThat(printed.code()).isEqualTo(1);
    assertThat(printed.err()).isEqualTo("no embedded Redis is running on " + dir
        + "; start `ratchet run` or pass --redis-url" + System.lineSeparator());
  }
}
