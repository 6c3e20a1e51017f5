package dev.ratchet.server.demo;

import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolResult;
import dev.ratchet.runtime.ToolSource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A tool under another name, everything else its own (effect class, approval, lookup). */
final class RenamedTool implements Tool {

  private final Tool tool;
  private final String name;

  RenamedTool(Tool tool, String name) {
    this.tool = tool;
    this.name = name;
  }

  /** The tools of a source, renamed by the map (tools it does not name keep their names). */
  static ToolSource renamed(ToolSource source, Map<String, String> names) {
    return new ToolSource() {
      @Override
      public String name() {
        return source.name();
      }

      @Override
      public Future<List<Tool>> tools(Vertx vertx) {
        return source.tools(vertx).map(list -> {
          List<Tool> out = new ArrayList<>();
          list.forEach(t -> out.add(names.containsKey(t.name()) ? new RenamedTool(t, names.get(t.name())) : t));
          return out;
        });
      }
    };
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return tool.description();
  }

  @Override
  public JsonObject inputSchema() {
    return tool.inputSchema();
  }

  @Override
  public EffectClass effectClass() {
    return tool.effectClass();
  }

  @Override
  public ApprovalRule approvalRule() {
    return tool.approvalRule();
  }

  @Override
  public Duration timeout() {
    return tool.timeout();
  }

  @Override
  public RetryPolicy retryPolicy() {
    return tool.retryPolicy();
  }

  @Override
  public String source() {
    return tool.source();
  }

  @Override
  public Future<ToolResult> invoke(ToolInvocation invocation) {
    return tool.invoke(invocation);
  }

  @Override
  public boolean announcesSending() {
    return tool.announcesSending();
  }

  @Override
  public boolean supportsLookup() {
    return tool.supportsLookup();
  }

  @Override
  public Future<Optional<ToolResult>> lookup(ToolInvocation invocation) {
    return tool.lookup(invocation);
  }
}
