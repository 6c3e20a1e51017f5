package dev.ratchet.server.bench;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.server.CommandRun;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A few seconds of {@code bench --soak}: it runs, samples Redis over time and prints its figures and a JSON summary. */
class SoakBenchTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @Test
  void aShortSoakPrintsRedisFiguresOverTimeLatencyByHalfAndASummary() {
    CommandRun run = CommandRun.of(new BenchCommand(), "--soak", "7s", "--rate", "30", "--retention", "on",
        "--soak-turns-per-session", "2", "--soak-sample", "2", "--redis-url", REDIS.url());
    String printed = run.out();
    assertThat(run.code()).as(printed).isZero();
    assertThat(printed).contains("soak: PT7S at 30 turns/s", "used_memory", "aof_size",
        "turn latency p99: first half", "AOF rewrites:", "per turn");
    JsonObject summary = new JsonObject(printed.lines().filter(l -> l.startsWith("{\"soak\"")).findFirst().orElseThrow());
    assertThat(summary.getBoolean("retention")).isTrue();
    assertThat(summary.getInteger("samples")).isGreaterThanOrEqualTo(3);
    assertThat(summary.getLong("turnsFailed")).isZero();
    assertThat(summary.getDouble("p99FirstHalfMs")).isPositive();
  }

  @Test
  void aBadSoakDurationIsRefusedWithAClearMessage() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
    assertThat(cli.execute("--soak", "soon", "--redis-url", REDIS.url())).isNotZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--soak: a duration like 30m");
  }
}
