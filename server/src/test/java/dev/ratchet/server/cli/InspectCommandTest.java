package dev.ratchet.server.cli;

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
  void inspectPrintsASessionsJournalAsATimelineAndAsJsonWithTheTurnsResults() throws Exception {
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
    String printed = inspect("inspect-me", "--redis-url", REDIS.url(), "--config", conf.toString());
    assertThat(printed).contains("session inspect-me  agent shop");
    assertThat(printed).containsSubsequence("turn.submitted", "call.started", "cancel_order [non_idempotent_write]"
        + " succeeded", "turn.completed");

    // the journal's stream keeps only the result's size; the JSON lines show the turn's results whole
    JsonObject completed = inspect("inspect-me", "--json", "--redis-url", REDIS.url(), "--config", conf.toString())
        .lines().filter(l -> l.startsWith("{")).map(JsonObject::new)
        .filter(e -> "turn.completed".equals(e.getString("type"))).findFirst().orElseThrow();
    assertThat(completed.getJsonObject("data").getJsonArray("results").getJsonObject(0).getValue("result"))
        .isEqualTo("cancelled");
  }

  /** What the command prints; fails unless it ends with 0. */
  private static String inspect(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream previous = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = new CommandLine(new InspectCommand()).execute(args);
    } finally {
      System.setOut(previous);
    }
    assertThat(code).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void inspectingAnUnknownSessionSaysSoAndFails() {
    int code = new CommandLine(new InspectCommand()).execute("nobody-here", "--redis-url", REDIS.url());
    assertThat(code).isEqualTo(1);
  }
}
