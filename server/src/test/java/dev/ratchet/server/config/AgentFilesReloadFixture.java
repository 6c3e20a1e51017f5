package dev.ratchet.server.config;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.agent.ScriptedModel;
import dev.ratchet.server.reload.Reloader;
import dev.ratchet.verticles.testing.NodeFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * What the tests of reloading agent files share: a node, an empty directory of agent files, and,
 * once a test names its connections, the directory's loader and the reloader that loads it into the
 * node (its report in {@code reload.json}); the loader is closed before the node.
 */
abstract class AgentFilesReloadFixture extends NodeFixture {

  @TempDir
  Path tmp;

  protected Path agents;
  protected AgentDirectoryLoader loader;
  protected Reloader reloader;

  @BeforeEach
  void createAgentsDirectory() throws IOException {
    agents = Files.createDirectories(tmp.resolve("agents"));
  }

  /** The loader of the agents directory against {@code connections}, every agent on a scripted model. */
  protected void loadAgents(Connections connections) {
    loader = new AgentDirectoryLoader(vertx, ratchet, agents, connections, model -> ScriptedModel.of());
    reloader = new Reloader(ratchet, loader, tmp.resolve("reload.json"));
  }

  @AfterEach
  void closeLoader() {
    if (loader != null) {
      await(loader.close());
    }
  }
}
