package dev.ratchet.server.reload;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.FunctionToolSource;
import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A small agent loader for the reload tests: one agent per {@code *.json} file of a directory,
 * {@code {"agent": name, "tools": [{"name", "effect": "read"|"non_idempotent_write", "approval": "always"?, "reply"}]}},
 * each tool a Java function that answers its reply and counts its runs by "agent/tool/reply".
 */
final class JsonDirectoryLoader implements AgentLoader {

  private final Path dir;
  final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

  JsonDirectoryLoader(Path dir) {
    this.dir = dir;
  }

  @Override
  public Future<List<AgentDefinition>> load() {
    List<AgentDefinition> agents = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        JsonObject json;
        try {
          json = new JsonObject(Files.readString(file));
        } catch (DecodeException e) {
          throw new IllegalArgumentException(file.getFileName() + ": not JSON: " + e.getMessage(), e);
        }
        agents.add(agent(file, json));
      }
    } catch (IOException | DecodeException | ClassCastException | IllegalArgumentException e) {
      return Future.failedFuture(new IllegalArgumentException(e.getMessage(), e));
    }
    return Future.succeededFuture(agents);
  }

  private AgentDefinition agent(Path file, JsonObject json) {
    try {
      String name = json.getString("agent");
      FunctionToolSource tools = FunctionToolSource.create(name + "-tools");
      json.getJsonArray("tools").forEach(t -> {
        JsonObject tool = (JsonObject) t;
        String reply = tool.getString("reply");
        String counter = name + "/" + tool.getString("name") + "/" + reply;
        tools.tool(FunctionToolSource.define(tool.getString("name"), "read".equals(tool.getString("effect"))
                ? EffectClass.READ : EffectClass.NON_IDEMPOTENT_WRITE)
            .approval("always".equals(tool.getString("approval")) ? ApprovalRule.always() : ApprovalRule.never())
            .handler(inv -> {
              runs.computeIfAbsent(counter, k -> new AtomicInteger()).incrementAndGet();
              return Future.succeededFuture(reply);
            }));
      });
      return AgentDefinition.builder(name).toolSource(tools).build();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(file.getFileName() + ": " + e.getMessage(), e);
    }
  }

  int runs(String counter) {
    AtomicInteger n = runs.get(counter);
    return n == null ? 0 : n.get();
  }

  @Override
  public List<Path> watched() {
    return List.of(dir);
  }
}
