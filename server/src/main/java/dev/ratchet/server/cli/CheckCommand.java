package dev.ratchet.server.cli;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.server.config.AgentFileError;
import dev.ratchet.server.config.AgentFiles;
import dev.ratchet.server.config.DocumentReports;
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
 * every file is good, 1 after printing every problem, grouped by kind. {@code --report} first prints,
 * for each OpenAPI document named, its operations offered and refused by reason.
 */
@CommandLine.Command(name = "check", mixinStandardHelpOptions = true,
    description = "Validate the agent files and resolve every reference, without serving (exit code 0 or 1);"
        + " --report also says what each OpenAPI document offers.")
public final class CheckCommand implements Callable<Integer> {

  @CommandLine.Mixin
  ConfigFile config = new ConfigFile();

  @CommandLine.Option(names = "--no-demo", description = "leave out the demo's agent file, as run --no-demo does")
  boolean noDemo;

  @CommandLine.Option(names = "--report", description = "also print, for each OpenAPI document the agent files name,"
      + " how many of its operations are offered and why the others are refused")
  boolean report;

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
      if (report) {
        DocumentReports.lines(files).forEach(System.out::println);
      }
      LoadedAgents agents;
      try {
        agents = AgentFiles.load(vertx, files, connections, AgentSetup.models(vertx, cfg, env)).await();
      } catch (AgentFilesException e) {
        System.err.println(e.errors().size() + " problem(s) in the agent files of " + dir + ":");
        printGrouped(e.errors(), System.err);
        return 1;
      }
      agents.close().await();
      if (!agents.warnings().isEmpty()) {
        System.out.println(agents.warnings().size() + " warning(s) (the files load all the same):");
        agents.warnings().forEach(w -> System.out.println("  " + w));
      }
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

  /** Problems grouped by kind, in the order of {@link AgentFileError.Kind}, each group by file and line. */
  private static void printGrouped(List<AgentFileError> errors, java.io.PrintStream out) {
    Map<String, List<AgentFileError>> byKind = new java.util.TreeMap<>(java.util.Comparator.comparingInt(KINDS::indexOf));
    errors.forEach(e -> byKind.computeIfAbsent(KINDS.contains(e.kind()) ? e.kind() : AgentFileError.Kind.OTHER,
        k -> new java.util.ArrayList<>()).add(e));
    byKind.forEach((kind, list) -> {
      out.println(kind + " (" + list.size() + "):");
      list.forEach(e -> out.println("  " + e));
    });
  }

  private static final List<String> KINDS = List.of(AgentFileError.Kind.SYNTAX, AgentFileError.Kind.SCHEMA,
      AgentFileError.Kind.REFERENCE, AgentFileError.Kind.OPERATION, AgentFileError.Kind.SOURCE,
      AgentFileError.Kind.OTHER);
}
