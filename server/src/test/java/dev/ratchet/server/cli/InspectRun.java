package dev.ratchet.server.cli;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.server.CommandRun;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Runs {@code inspect} in this JVM and keeps what it printed; journals the session it is pointed at. */
record InspectRun(int code, String out, String err) {

  static InspectRun of(String... args) {
    CommandRun run = CommandRun.of(new InspectCommand(), args);
    return new InspectRun(run.code(), run.out(), run.err());
  }

  /** What the command printed; fails unless it ended with 0. */
  static String printed(String... args) {
    InspectRun run = of(args);
    assertThat(run.code()).as(run.err()).isZero();
    return run.out();
  }

  /** A configuration file that names only the journal's key prefix. */
  static Path config(String keyPrefix) throws IOException {
    Path conf = Files.createTempFile("ratchet", ".json");
    Files.writeString(conf, new JsonObject().put("journal", new JsonObject().put("keyPrefix", keyPrefix)).encode());
    return conf;
  }

  /** Journals one completed turn, t1 of {@code sessionId}: a {@code cancel_order} write that answered "cancelled". */
  static void journalCancelledOrder(RatchetOptions options, String sessionId) {
    Vertx vertx = Vertx.vertx();
    RatchetNode ratchet = await(RatchetNode.deploy(vertx, options));
    await(ratchet.register(AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("cancel_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .handler(inv -> Future.succeededFuture("cancelled")))).build()));
    await(ratchet.submit("shop", sessionId, Turn.of("t1", new ToolCall("cancel_order", new JsonObject()))));
    await(ratchet.close());
    await(vertx.close());
  }
}
