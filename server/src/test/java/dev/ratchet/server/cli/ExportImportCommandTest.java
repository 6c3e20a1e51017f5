package dev.ratchet.server.cli;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.retention.RetentionOptions;
import dev.ratchet.runtime.retention.RetentionPolicy;
import dev.ratchet.runtime.retention.RetentionSweeper;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.server.CommandRun;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import dev.ratchet.verticles.impl.RatchetNodeImpl;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code export}, {@code import} and {@code inspect} over a session retention has partly archived:
 * the export holds archive and journal, inspect shows the archived turns, and an import after
 * erasure answers the turns from the journal without running a tool again.
 */
class ExportImportCommandTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @TempDir
  Path dir;

  private final AtomicInteger runs = new AtomicInteger();

  private RatchetNode deploy(Vertx vertx) {
    return deploy(vertx, RetentionOptions.DISABLED.withArchiveDir(dir.resolve("archive").toString())
        .withDefaultPolicy(new RetentionPolicy(null, 1, null)));
  }

  private RatchetNode deploy(Vertx vertx, RetentionOptions retention) {
    RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
        .keyPrefix(REDIS.keyPrefix()).retention(retention)));
    await(ratchet.register(AgentDefinition.builder("shop").toolSource(FunctionToolSource.create("t")
        .tool(FunctionToolSource.define("cancel_order", EffectClass.NON_IDEMPOTENT_WRITE)
            .handler(inv -> Future.succeededFuture("cancelled " + runs.incrementAndGet())))).build()));
    return ratchet;
  }

  private static Turn turn(String id) {
    return Turn.of(id, new ToolCall("cancel_order", new JsonObject().put("turn", id)));
  }

  @Test
  void anArchivedSessionIsExportedWholeInspectedAndImportedBackWithoutRunningAnyToolAgain() throws Exception {
    Vertx vertx = Vertx.vertx();
    RatchetNode ratchet = deploy(vertx);
    for (String t : List.of("t1", "t2", "t3")) {
      await(ratchet.submit(TurnRequest.of("shop", "exported", turn(t)).callerId("alice")));
    }
    await(((RatchetNodeImpl) ratchet).retention().check("exported", System.currentTimeMillis()));
    assertThat(await(ratchet.journal().turnResult("exported", "t1"))).isNull();

    Path conf = dir.resolve("ratchet.json");
    Files.writeString(conf, new JsonObject().put("journal", new JsonObject().put("keyPrefix", REDIS.keyPrefix()))
        .put("retention", new JsonObject().put("archive", new JsonObject().put("dir", dir.resolve("archive").toString())))
        .encode());
    String[] where = {"--redis-url", REDIS.url(), "--config", conf.toString()};
    Path export = dir.resolve("exports").resolve("exported.jsonl");
    run(new ExportCommand(), concat(new String[] {"exported", "--out", export.toString()}, where));
    if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
      // the export holds every call whole: only this account may read it
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(export))).isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(export.getParent()))).isEqualTo("rwx------");
    }
    List<JsonObject> records = Files.readAllLines(export).stream().map(JsonObject::new).toList();
    assertThat(records).filteredOn(r -> "turn".equals(r.getString("kind"))).extracting(r -> r.getString("turn"))
        .containsExactly("t1", "t2", "t3");
    assertThat(records.get(0).getJsonObject("results").getJsonArray("results").getJsonObject(0).getString("result"))
        .isEqualTo("cancelled 1");

    String inspected = run(new InspectCommand(), concat(new String[] {"exported"}, where));
    assertThat(inspected).containsSubsequence("[archived]", "turn.submitted", "[archived]", "turn.completed");

    // importing over the session it came from is refused
    assertThat(new CommandLine(new ImportCommand()).execute(concat(new String[] {export.toString()}, where)))
        .isEqualTo(1);
    assertThat(await(ratchet.eraseSession("exported", "ops"))).isTrue();
    await(ratchet.close());
    await(vertx.close());

    assertThat(run(new ImportCommand(), concat(new String[] {export.toString()}, where)))
        .contains("imported session exported: 3 turns");

    Vertx again = Vertx.vertx();
    RatchetNode restarted = deploy(again);
    try {
      TurnResult first = await(restarted.submit(TurnRequest.of("shop", "exported", turn("t1")).callerId("alice")));
      assertThat(first.calls().get(0).result()).isEqualTo("cancelled 1");
      assertThat(runs).hasValue(3);
    } finally {
      await(restarted.close());
      await(again.close());
    }
  }

  @Test
  void aSessionRetentionForgotIsStillExportedAndInspectedFromTheArchiveAndItsIdIsRefused() throws Exception {
    Vertx vertx = Vertx.vertx();
    RatchetNode ratchet = deploy(vertx, RetentionOptions.DISABLED.withArchiveDir(dir.resolve("archive").toString())
        .withDefaultPolicy(new RetentionPolicy(null, null, Duration.ofMinutes(1)))
        .withTombstoneWindow(Duration.ofHours(1)).withForgetAfter(Duration.ofHours(1)));
    try {
      for (String t : List.of("t1", "t2")) {
        await(ratchet.submit(TurnRequest.of("shop", "gone", turn(t)).callerId("alice")));
      }
      long now = System.currentTimeMillis();
      RetentionSweeper sweeper = ((RatchetNodeImpl) ratchet).retention();
      await(sweeper.check("gone", now + 120_000));
      await(sweeper.check("gone", now + 7_200_000));
      await(sweeper.check("gone", now + 7_200_001));
      assertThat(sweeper.stats().sessionsForgotten).isEqualTo(1);
      assertThat(await(ratchet.journal().sessionInfo("gone"))).isEqualTo(new JsonObject());

      Path conf = dir.resolve("ratchet.json");
      Files.writeString(conf, new JsonObject().put("journal", new JsonObject().put("keyPrefix", REDIS.keyPrefix()))
          .put("retention", new JsonObject().put("archive", new JsonObject().put("dir", dir.resolve("archive").toString())))
          .encode());
      String[] where = {"--redis-url", REDIS.url(), "--config", conf.toString()};
      Path export = dir.resolve("gone.jsonl");
      run(new ExportCommand(), concat(new String[] {"gone", "--out", export.toString()}, where));
      List<JsonObject> records = Files.readAllLines(export).stream().map(JsonObject::new).toList();
      assertThat(records).filteredOn(r -> "turn".equals(r.getString("kind"))).extracting(r -> r.getString("turn"))
          .containsExactly("t1", "t2");
      assertThat(run(new InspectCommand(), concat(new String[] {"gone"}, where)))
          .contains("forgotten by the journal").containsSubsequence("[archived]", "turn.submitted");

      // the node still running the session is fenced first (FENCED: try again); then the id is refused
      Throwable refused = failure(ratchet.submit(TurnRequest.of("shop", "gone", turn("t1")).callerId("alice")));
      long deadline = System.currentTimeMillis() + 15_000;
      while (RatchetException.is(refused, ErrorCode.FENCED) && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
        refused = failure(ratchet.submit(TurnRequest.of("shop", "gone", turn("t1")).callerId("alice")));
      }
      assertThat(refused).isInstanceOf(RatchetException.class).hasMessageContaining("forgotten");
      assertThat(((RatchetException) refused).errorCode()).isEqualTo(ErrorCode.SESSION_FORGOTTEN);
      assertThat(runs).hasValue(2);
    } finally {
      await(ratchet.close());
      await(vertx.close());
    }
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** What the command prints; fails unless it ends with 0. */
  private static String run(Object command, String... args) {
    CommandRun run = CommandRun.of(command, args);
    assertThat(run.code()).as(run.out() + run.err()).isZero();
    return run.out();
  }

}
