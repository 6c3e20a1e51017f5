package dev.ratchet.server.cli;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.server.config.AgentFiles;
import dev.ratchet.server.config.AgentFilesException;
import dev.ratchet.server.config.LoadedAgents;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Validates the agent files and resolves every reference as {@code run} would (documents, operations,
 * connections, MCP servers started and listed, then stopped), without serving. Exit code 0 when
 * every file is good, 1 after printing every problem.
 */
@CommandLine.Command(name = "check", mixinStandardHelpOptions = true,
    description = "Validate the agent files and resolve every reference, without serving (exit code 0 or 1).")
public final class CheckCommand implements Callable<Integer> {

  @CommandLine.Mixin
  ConfigFile config = new ConfigFile();

  @CommandLine.Option(names = "--no-demo", description = "leave out the demo's agent file, as run --no-demo does")
  boolean noDemo;

  @Override
  public Integer call() throws Exception {
    Map<String, String> env = System.getenv();
    Vertx vertx = Vertx.vertx();
    try {
      JsonObject cfg = config.load(env);
      Path dir = AgentSetup.dir(cfg, env);
      List<Path> files = AgentSetup.files(dir, !noDemo);
      Connections connections = Connections.load(env);
      if (files.stream().anyMatch(AgentSetup::isDemo)) {
        // run starts the shop and names it; its address is not known before, and check sends nothing to it
        connections = AgentSetup.withDemo(connections, "http://127.0.0.1:9");
      }
      LoadedAgents agents;
      try {
        agents = AgentFiles.load(vertx, files, connections, AgentSetup.models(vertx, cfg, env)).await();
      } catch (AgentFilesException e) {
        System.err.println(e.errors().size() + " problem(s) in the agent files of " + dir + ":");
        e.errors().forEach(err -> System.err.println(err));
        return 1;
      }
      agents.close().await();
      if (files.isEmpty()) {
        System.out.println("No agent files in " + dir + ".");
      }
      for (AgentDefinition agent : agents.agents()) {
        System.out.println("ok: agent '" + agent.name() + "' (" + agent.origin() + "), " + agent.toolSources().size()
            + " tool source(s)");
      }
      return 0;
    } catch (Exception e) {
      System.err.println("Ratchet could not check the agent files: " + e.getMessage());
      return 1;
    } finally {
      vertx.close();
    }
  }
}
