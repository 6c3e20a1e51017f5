package dev.ratchet.server.reload;

import dev.ratchet.server.CommandRun;
import dev.ratchet.server.RunChild;
import dev.ratchet.server.cli.ReloadCommand;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server started under {@code nohup} ignores SIGHUP for good (the JVM cannot take a signal back
 * that it was started ignoring); {@code ratchet reload} reaches it all the same, and {@code run}
 * says that SIGHUP does not.
 */
class ReloadUnderNohupTest {

  @TempDir
  Path dir;

  private final RunChild run = new RunChild("rt_nohup-reload-token-0123", "nohup-reload-password").under("nohup");

  @AfterEach
  void stop() throws Exception {
    run.close();
  }

  @Test
  void ratchetReloadReachesAServerStartedUnderNohup() throws Exception {
    Files.createDirectories(dir.resolve("conf/agents"));
    Files.writeString(dir.resolve("conf/agents/helper.yaml"), "agent: helper\n");
    run.start(dir, RunChild.RUNNING, 120);
    run.until(() -> run.output().stream().anyMatch(l -> l.contains("SIGHUP does not reach this process")), 30);

    Path config = dir.resolve("reload.json");
    Files.writeString(config, new JsonObject().put("redis", new JsonObject().put("embedded",
        new JsonObject().put("dataDir", dir.resolve("data/redis").toString()))).encode());
    CommandRun reload = CommandRun.of(new ReloadCommand(), "--config", config.toString(), "--timeout", "60");
    assertThat(reload.code()).as(reload.err()).isZero();
    assertThat(reload.out()).contains("reloaded: 1 agent(s)").contains("helper (catalogue ");
    JsonObject report = new JsonObject(Files.readString(dir.resolve("data/reload.json")));
    assertThat(report.getString("trigger")).isEqualTo("ratchet reload");
  }
}
