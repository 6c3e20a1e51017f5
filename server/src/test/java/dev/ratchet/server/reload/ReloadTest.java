package dev.ratchet.server.reload;

import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.testing.NodeFixture;
import dev.ratchet.server.CommandRun;
import dev.ratchet.server.cli.ReloadCommand;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Reloading agents' definitions from a directory of files, by a file change, SIGHUP and `ratchet reload`, on real Redis. */
class ReloadTest extends NodeFixture {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @TempDir
  Path tmp;

  private Path agents;
  private Path data;
  private JsonDirectoryLoader loader;
  private Reloader reloader;
  private DirectoryWatch watch;

  @BeforeEach
  void start() throws Exception {
    agents = Files.createDirectories(tmp.resolve("agents"));
    data = Files.createDirectories(tmp.resolve("data"));
    loader = new JsonDirectoryLoader(agents);
    reloader = new Reloader(ratchet, loader, new ControlFiles(data).report());
  }

  @AfterEach
  void stop() throws Exception {
    if (watch != null) {
      watch.close();
    }
  }

  private void write(String file, String agent, JsonObject... tools) throws Exception {
    JsonArray list = new JsonArray();
    for (JsonObject t : tools) {
      list.add(t);
    }
    Path tmpFile = agents.resolve(file + ".part");
    Files.writeString(tmpFile, new JsonObject().put("agent", agent).put("tools", list).encode());
    Files.move(tmpFile, agents.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static JsonObject tool(String name, String effect, String reply) {
    return new JsonObject().put("name", name).put("effect", effect).put("reply", reply);
  }

  private JsonObject report() throws Exception {
    return new JsonObject(Files.readString(new ControlFiles(data).report()));
  }

  private JsonObject reportOrEmpty() {
    try {
      return report();
    } catch (Exception e) {
      return new JsonObject();
    }
  }

  @Test
  void aChangedFileIsReloadedForNewTurnsWhileAWriteWaitingForApprovalRunsAsItWasValidated() throws Exception {
    write("shop.json", "shop", tool("look", "read", "v1"),
        tool("cancel", "non_idempotent_write", "cancelled by v1").put("approval", "always"));
    assertThat(await(reloader.reload("start")).getString("status")).isEqualTo("reloaded");
    String v1 = ratchet.queries().catalog("shop").version();
    Future<TurnResult> waiting = ratchet.submit("shop", "s1", Turn.of("t1", new ToolCall("cancel", null)));
    Await.until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 10);

    watch = DirectoryWatch.start(vertx, reloader, loader.watched(), 100);
    write("shop.json", "shop", tool("look", "read", "v2"), tool("cancel", "non_idempotent_write", "cancelled by v2"));
    Await.until(() -> !ratchet.queries().catalog("shop").version().equals(v1), 20);
    // the report is written once the new definitions are in place, a moment after they are
    Await.until(() -> "file change".equals(reportOrEmpty().getString("trigger")), 20);

    assertThat(await(ratchet.submit("shop", "s2", Turn.of("t1", new ToolCall("look", null)))).call(0).result())
        .isEqualTo("v2");
    ApprovalRequest pending = await(ratchet.pendingApprovals()).get(0);
    await(ratchet.decide(ApprovalDecision.approve(pending, "alice", "ok")));
    assertThat(await(waiting).call(0).result()).isEqualTo("cancelled by v1");
    assertThat(loader.runs("shop/cancel/cancelled by v1")).isEqualTo(1);
    assertThat(loader.runs("shop/cancel/cancelled by v2")).isZero();
  }

  @Test
  void aFileThatFailsToLoadChangesNothingAndTheReportSaysWhy() throws Exception {
    write("shop.json", "shop", tool("look", "read", "v1"));
    await(reloader.reload("start"));
    String v1 = ratchet.queries().catalog("shop").version();
    watch = DirectoryWatch.start(vertx, reloader, loader.watched(), 100);

    Files.writeString(agents.resolve("broken.json"), "{\"agent\": \"other\", \"tools\": 7}");
    Await.until(() -> {
      try {
        return "failed".equals(report().getString("status"));
      } catch (Exception e) {
        return false;
      }
    }, 20);
    assertThat(report().getString("error")).contains("broken.json");
    assertThat(ratchet.queries().catalog("shop").version()).isEqualTo(v1);
    assertThat(ratchet.queries().agents()).containsExactly("shop");
    assertThat(await(ratchet.submit("shop", "s3", Turn.of("t1", new ToolCall("look", null)))).call(0).result())
        .isEqualTo("v1");
  }

  @Test
  void ratchetReloadAsksTheServerOfTheDataDirectoryAndPrintsTheOutcome() throws Exception {
    write("shop.json", "shop", tool("look", "read", "v1"));
    await(reloader.reload("start"));
    String v1 = ratchet.queries().catalog("shop").version();
    ControlFiles control = new ControlFiles(data);
    Path config = tmp.resolve("ratchet.json");
    Files.writeString(config, new JsonObject().put("redis", new JsonObject().put("embedded",
        new JsonObject().put("dataDir", data.resolve("redis").toString()))).encode());

    String[] missing = reload(config);
    assertThat(missing[0]).isEqualTo("1");
    assertThat(missing[2]).contains("no running server found").contains("ratchet.pid");

    // this test's JVM plays the server: it takes reload requests, as `run` does
    ReloadRequests requests = ReloadRequests.start(vertx, reloader, control);
    control.writePid();
    write("shop.json", "shop", tool("look", "read", "v2"), tool("ship", "read", "shipped"));
    String[] ok = reload(config);
    assertThat(ok[0]).as(ok[2]).isEqualTo("0");
    String v2 = ratchet.queries().catalog("shop").version();
    assertThat(v2).isNotEqualTo(v1);
    assertThat(ok[1]).contains("reloaded: 1 agent(s)").contains("shop (catalogue " + v2 + ")");
    assertThat(report().getString("trigger")).isEqualTo("ratchet reload");
    assertThat(control.request()).doesNotExist();

    Files.writeString(agents.resolve("shop.json"), "not json");
    String[] failed = reload(config);
    assertThat(failed[0]).isEqualTo("1");
    assertThat(failed[2]).contains("reload failed, nothing changed: shop.json:");
    assertThat(ratchet.queries().catalog("shop").version()).isEqualTo(v2);
    requests.close();
    control.removePid();
    assertThat(control.pid()).doesNotExist();
  }

  /** Exit code, standard output and standard error of {@code ratchet reload}. */
  private static String[] reload(Path config) {
    CommandRun run = CommandRun.of(new ReloadCommand(), "--config", config.toString(), "--timeout", "20");
    return new String[] {String.valueOf(run.code()), run.out(), run.err()};
  }

}
