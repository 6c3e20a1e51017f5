package dev.ratchet.verticles.cli;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

class InspectCommandTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @Test
  void inspectPrintsASessionsJournalAsATimeline() throws Exception {
    Vertx vertx = Vertx.vertx();
    Ratchet ratchet = await(Ratchet.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
        .keyPrefix(REDIS.keyPrefix())));
    await(ratchet.register(AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("cancel_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .handler(inv -> Future.succeededFuture("cancelled")))).build()));
    await(ratchet.submit("shop", "inspect-me", Turn.of("t1", new ToolCall("cancel_order", new JsonObject()))));
    await(ratchet.close());
    await(vertx.close());

    Path conf = Files.createTempFile("ratchet", ".json");
    Files.writeString(conf, new JsonObject().put("journal", new JsonObject().put("keyPrefix", REDIS.keyPrefix()))
        .encode());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream previous = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = new CommandLine(new InspectCommand()).execute("inspect-me", "--redis-url", REDIS.url(),
          "--config", conf.toString());
    } finally {
      System.setOut(previous);
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(code).isZero();
    assertThat(printed).contains("session inspect-me  agent shop");
    assertThat(printed).containsSubsequence("turn.submitted", "call.started", "cancel_order [non_idempotent_write]"
        + " succeeded", "turn.completed");
  }

  @Test
  void inspectingAnUnknownSessionSaysSoAndFails() {
    int code = new CommandLine(new InspectCommand()).execute("nobody-here", "--redis-url", REDIS.url());
    assertThat(code).isEqualTo(1);
  }
}
