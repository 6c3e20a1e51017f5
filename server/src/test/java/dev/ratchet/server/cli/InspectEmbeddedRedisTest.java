package dev.ratchet.server.cli;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.redis.EmbeddedRedis;
import dev.ratchet.runtime.redis.RedisServerProcess;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;
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
      Vertx vertx = Vertx.vertx();
      Ratchet ratchet = await(Ratchet.deploy(vertx, RatchetOptions.create().redisUrl(redis.journalUrl())));
      await(ratchet.register(AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("t")
          .tool(FunctionToolSource.define("cancel_order", EffectClass.NON_IDEMPOTENT_WRITE)
              .handler(inv -> Future.succeededFuture("cancelled")))).build()));
      await(ratchet.submit("shop", "embedded-1", Turn.of("t1", new ToolCall("cancel_order", new JsonObject()))));
      await(ratchet.close());
      await(vertx.close());

      String[] printed = run("embedded-1", "--data-dir", dir.toString(), "--config", tmp.resolve("none.json").toString());

      assertThat(printed[0]).isEqualTo("0");
      assertThat(printed[1]).contains("session embedded-1  agent shop").contains("cancel_order [non_idempotent_write]");
    }
  }

  @Test
  void withNoEmbeddedRedisRunningInspectSaysWhereItLookedAndWhatToDo() {
    Path dir = tmp.resolve("redis");

    String[] printed = run("embedded-1", "--data-dir", dir.toString(), "--config", tmp.resolve("none.json").toString());

    assertThat(printed[0]).isEqualTo("1");
    assertThat(printed[2]).isEqualTo("no embedded Redis is running on " + dir
        + "; start `ratchet run` or pass --redis-url" + System.lineSeparator());
  }

  /** The exit code, what went to stdout and what went to stderr. */
  private static String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream previousOut = System.out;
    PrintStream previousErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = new CommandLine(new InspectCommand()).execute(args);
    } finally {
      System.setOut(previousOut);
      System.setErr(previousErr);
    }
    return new String[] {String.valueOf(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
  }
}
