package dev.ratchet.runtime;

import dev.ratchet.runtime.engine.ArgumentsValidator;
import dev.ratchet.runtime.impl.CanonicalJson;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tools an agent has, resolved from its tool sources with the application's policies applied.
 * A policy changes a tool's approval rule only; the effect class always stays the tool's own.
 */
public final class ToolCatalog {

  /** A tool as the agent sees it: the tool, its effective approval rule and its compiled schema. */
  public record Entry(Tool tool, String sourceName, ApprovalRule approval, ArgumentsValidator validator) {

    public JsonObject toJson() {
      JsonObject json = new JsonObject()
          .put("name", tool.name())
          .put("description", tool.description())
          .put("source", tool.source())
          .put("toolSource", sourceName)
          .put("effectClass", tool.effectClass().wireName())
          .put("step", tool.effectClass().step().wireName())
          .put("approval", approval.describe())
          .put("inputSchema", tool.inputSchema());
      if (tool.title() != null) {
        json.put("title", tool.title());
      }
      if (tool.openWorld() != null) {
        json.put("openWorld", tool.openWorld());
      }
      return json;
    }
  }

  private final String agent;
  private final Map<String, Entry> entries;
  private final List<ToolSource> sources;
  private final String origin;
  private final Map<String, String> sourceOrigins;
  private final String version;

  private ToolCatalog(AgentDefinition agent, Map<String, Entry> entries) {
    this.agent = agent.name();
    this.entries = entries;
    this.sources = agent.toolSources();
    this.origin = agent.origin();
    this.sourceOrigins = agent.sourceOrigins();
    JsonArray described = new JsonArray();
    entries.values().forEach(e -> described.add(e.toJson()));
    this.version = CanonicalJson.sha256Hex(CanonicalJson.encode(described)).substring(0, VERSION_DIGITS);
  }

  /** Hex digits of a catalogue version: enough that two catalogues of one agent never share one by chance. */
  private static final int VERSION_DIGITS = 16;

  /** Lists every source's tools; fails when two sources offer the same name or a policy names no tool. */
  public static Future<ToolCatalog> resolve(Vertx vertx, AgentDefinition agent) {
    List<Future<List<Tool>>> lists = new ArrayList<>();
    for (ToolSource source : agent.toolSources()) {
      lists.add(source.tools(vertx).recover(err -> Future.failedFuture(new RatchetException(ErrorCode.TOOL_SOURCE,
          "agent '" + agent.name() + "': tool source '" + source.name() + "' failed: " + err.getMessage(), err))));
    }
    return Future.all(lists).map(cf -> {
      Map<String, Entry> entries = new LinkedHashMap<>();
      for (int i = 0; i < cf.size(); i++) {
        ToolSource source = agent.toolSources().get(i);
        List<Tool> tools = cf.resultAt(i);
        for (Tool tool : tools) {
          if (!tool.name().matches("[A-Za-z0-9_.-]{1,128}")) {
            throw new RatchetException(ErrorCode.INVALID_TOOL, "agent '" + agent.name() + "': tool name '" + tool.name()
                + "' from source '" + source.name() + "' must be 1-128 of [A-Za-z0-9_.-]");
          }
          ToolPolicy policy = agent.policies().get(tool.name());
          ApprovalRule approval = policy != null ? policy.approval()
              : agent.askForOpenWorldTools() && Boolean.TRUE.equals(tool.openWorld())
              ? ApprovalRule.always().withSource("agent policy: ask for open-world tools") : tool.approvalRule();
          Entry previous = entries.put(tool.name(),
              new Entry(tool, source.name(), approval, new ArgumentsValidator(tool.inputSchema())));
          if (previous != null) {
            throw new RatchetException(ErrorCode.DUPLICATE_TOOL, "agent '" + agent.name() + "': tool '" + tool.name()
                + "' is offered by both '" + previous.sourceName() + "' and '" + source.name() + "'");
          }
        }
      }
      for (String named : agent.policies().keySet()) {
        if (!entries.containsKey(named)) {
          throw new RatchetException(ErrorCode.UNKNOWN_TOOL, "agent '" + agent.name() + "': a policy names tool '" + named
              + "', which none of its tool sources offers");
        }
      }
      return new ToolCatalog(agent, entries);
    });
  }

  public String agent() {
    return agent;
  }

  /**
   * The catalogue's version: a digest of every tool as the catalogue shows it (name, source,
   * effect class, approval, input schema), so equal catalogues share a version. A turn's journaled
   * spec records the version it was validated against.
   */
  public String version() {
    return version;
  }

  /** Where the agent was declared: {@code java}, or a file and line. */
  public String origin() {
    return origin;
  }

  /** Where a tool source was declared: its own file and line when it has one, else the agent's origin. */
  public String origin(String sourceName) {
    return sourceOrigins.getOrDefault(sourceName, origin);
  }

  public Entry get(String name) {
    return entries.get(name);
  }

  public Collection<Entry> entries() {
    return entries.values();
  }

  /**
   * The health of each of the agent's tool sources; a source whose check fails, or does not answer
   * within {@code timeoutMillis}, is reported unhealthy.
   */
  public Future<List<SourceHealth>> sourcesHealth(Vertx vertx, long timeoutMillis) {
    List<Future<SourceHealth>> checks = new ArrayList<>();
    for (ToolSource source : sources) {
      io.vertx.core.Promise<SourceHealth> answer = io.vertx.core.Promise.promise();
      long timer = vertx.setTimer(timeoutMillis, t -> answer.tryComplete(SourceHealth.unhealthy(source.name(),
          "did not answer a health check within " + timeoutMillis + " ms")));
      Future<SourceHealth> check;
      try {
        check = source.sourceHealth();
      } catch (RuntimeException e) {
        check = Future.failedFuture(e);
      }
      check.onComplete(ar -> {
        vertx.cancelTimer(timer);
        answer.tryComplete(ar.succeeded() ? ar.result()
            : SourceHealth.unhealthy(source.name(), String.valueOf(ar.cause().getMessage())));
      });
      checks.add(answer.future());
    }
    return Future.join(checks).map(cf -> {
      List<SourceHealth> list = new ArrayList<>();
      for (int i = 0; i < cf.size(); i++) {
        list.add(cf.resultAt(i));
      }
      return list;
    });
  }

  public JsonArray toJson() {
    JsonArray array = new JsonArray();
    entries.values().forEach(e -> array.add(e.toJson()));
    return array;
  }
}
