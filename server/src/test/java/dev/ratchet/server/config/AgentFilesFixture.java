package dev.ratchet.server.config;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.agent.ScriptedModel;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * What the agent-file tests share: a Vert.x, an empty directory of agent files they write into, a
 * scripted model for every agent, and the errors a load of the directory reports.
 */
abstract class AgentFilesFixture {

  @TempDir
  Path dir;

  protected Vertx vertx;
  protected Path agents;
  protected final AgentModels models = spec -> ScriptedModel.of();

  @BeforeEach
  void createAgentsDirectory() throws IOException {
    vertx = Vertx.vertx();
    agents = Files.createDirectories(dir.resolve("agents"));
  }

  @AfterEach
  void closeVertx() {
    await(vertx.close());
  }

  /** What loading the directory against {@code connections} reports, one problem a line. */
  protected List<String> errors(Connections connections) {
    return AgentFileErrors.of(vertx, agents, connections, models);
  }

  /** The path errors name an agent file by. */
  protected String file(String name) {
    return agents.resolve(name).toString();
  }

  protected void write(String name, String text) throws IOException {
    Files.writeString(agents.resolve(name), text);
  }
}
