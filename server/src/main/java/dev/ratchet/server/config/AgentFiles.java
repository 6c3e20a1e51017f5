package dev.ratchet.server.config;

import dev.ratchet.connectors.Connections;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.server.config.impl.AgentFileResolver;
import dev.ratchet.server.config.impl.AgentSchema;
import dev.ratchet.server.config.impl.LocatedDocument;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Agents declared in files: one agent a file ({@code .yaml}, {@code .yml} or {@code .json}) in a
 * directory (the setting {@code agents.dir}, default {@code conf/agents}). Loading validates every
 * file against {@code docs/agent.schema.json} and resolves every reference (documents, operations,
 * connections, MCP servers, secrets) before anything is served; any problem fails the whole load
 * with every problem found, and what was started for it is stopped again.
 * <pre>{@code
 * LoadedAgents agents = AgentFiles.load(vertx, Path.of("conf/agents"), Connections.load(), models).await();
 * agents.registerWith(ratchet).await();
 * }</pre>
 */
public final class AgentFiles {

  public static final String DEFAULT_DIR = "conf/agents";

  private static final AgentSchema SCHEMA = AgentSchema.load();

  private AgentFiles() {
  }

  /** The agent files of a directory, by name; none when the directory does not exist. */
  public static List<Path> files(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(dir)) {
      return list.filter(p -> {
        String n = p.getFileName().toString();
        return Files.isRegularFile(p) && !n.startsWith(".")
            && (n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json"));
      }).sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
    }
  }

  /**
   * Reads, validates and resolves every agent file of {@code dir}. Fails with an
   * {@link AgentFilesException} listing every problem; then nothing stays started.
   */
  public static Future<LoadedAgents> load(Vertx vertx, Path dir, Connections connections, AgentModels models) {
    return vertx.executeBlocking(() -> files(dir)).compose(files -> load(vertx, files, connections, models));
  }

  /** {@link #load(Vertx, Path, Connections, AgentModels)} for the given files only. */
  public static Future<LoadedAgents> load(Vertx vertx, List<Path> files, Connections connections,
                                          AgentModels models) {
    return vertx.executeBlocking(() -> read(files)).compose(read -> {
      List<AgentFileError> errors = new ArrayList<>(read.errors);
      List<AgentFileResolver> resolvers = new ArrayList<>();
      List<Future<AgentDefinition>> resolved = new ArrayList<>();
      for (Map.Entry<String, LocatedDocument> file : read.valid.entrySet()) {
        AgentFileResolver resolver = new AgentFileResolver(vertx, file.getKey(), file.getValue(), connections, models);
        resolvers.add(resolver);
        resolved.add(resolver.resolve());
      }
      return Future.join(resolved).transform(ignored -> {
        List<AgentDefinition> agents = new ArrayList<>();
        List<AgentFileError> warnings = new ArrayList<>();
        for (int i = 0; i < resolvers.size(); i++) {
          errors.addAll(resolvers.get(i).errors());
          warnings.addAll(resolvers.get(i).warnings());
          if (resolved.get(i).succeeded() && resolved.get(i).result() != null) {
            agents.add(resolved.get(i).result());
          }
        }
        java.util.function.Supplier<Future<Void>> closer = () -> Future.join(resolvers.stream()
            .map(AgentFileResolver::close).toList()).mapEmpty();
        if (!errors.isEmpty()) {
          errors.sort(Comparator.comparing(AgentFileError::file).thenComparingInt(AgentFileError::line));
          return closer.get().transform(x -> Future.failedFuture(new AgentFilesException(errors)));
        }
        return Future.succeededFuture(new LoadedAgents(agents, closer, warnings));
      });
    });
  }

  private record Read(Map<String, LocatedDocument> valid, List<AgentFileError> errors) {
  }

  private static Read read(List<Path> files) {
    Map<String, LocatedDocument> valid = new java.util.LinkedHashMap<>();
    List<AgentFileError> errors = new ArrayList<>();
    Map<String, String> names = new HashMap<>();
    for (Path path : files) {
      String file = path.toString();
      LocatedDocument doc;
      try {
        doc = LocatedDocument.parse(Files.readString(path, StandardCharsets.UTF_8), !file.endsWith(".json"));
      } catch (LocatedDocument.SyntaxError e) {
        errors.add(new AgentFileError(file, e.line, "", e.getMessage(), AgentFileError.Kind.SYNTAX));
        continue;
      } catch (IOException e) {
        errors.add(new AgentFileError(file, 0, "", "cannot be read (" + e.getClass().getSimpleName() + ")",
            AgentFileError.Kind.SYNTAX));
        continue;
      }
      List<AgentSchema.Problem> problems = SCHEMA.check(doc.root());
      problems.forEach(p -> errors.add(new AgentFileError(file, doc.line(p.linePointer()),
          LocatedDocument.field(p.pointer()), p.message(), AgentFileError.Kind.SCHEMA)));
      if (!problems.isEmpty()) {
        continue;
      }
      String name = doc.root().getString("agent");
      String origin = file + ":" + doc.line("/agent");
      String earlier = names.putIfAbsent(name, origin);
      if (earlier != null) {
        errors.add(new AgentFileError(file, doc.line("/agent"), "agent", "agent '" + name
            + "' is also declared in " + earlier, AgentFileError.Kind.REFERENCE));
        continue;
      }
      valid.put(file, doc);
    }
    return new Read(valid, errors);
  }
}
