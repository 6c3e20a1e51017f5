package dev.ratchet.server.config.impl;

import dev.ratchet.connectors.ConnectorOperation;
import dev.ratchet.connectors.ConnectorTool;
import dev.ratchet.connectors.ConnectorToolSource;
import dev.ratchet.connectors.OperationOverride;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ToolSource;
import dev.ratchet.server.config.AgentFileError.Kind;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The tools of one connector entry of an agent file (an OpenAPI document, Slack): the operations
 * it selects ({@link OperationSelection}), each with the entry's decisions over the connector's
 * (approval, effect, timeout, tool name). An operation the entry names exactly and that cannot be
 * offered is a problem; one selected by {@code all}, a glob or a tag is left out with a warning.
 */
final class ConnectorEntry {

  /** The connector behind an entry. */
  record Connector(String where, List<String> known, Function<String, List<String>> tags,
                   Function<String, String> refusal, BiFunction<String, OperationOverride, ConnectorOperation> operation,
                   String sourceName) {
  }

  private ConnectorEntry() {
  }

  /** The entry's tool source, or null after reporting what is wrong. */
  static ToolSource tools(JsonObject entry, String at, Connector connector, Findings findings) {
    int before = findings.errorCount();
    OperationSelection.Selected selected = OperationSelection.select(entry, at, connector.where(), connector.known(),
        connector.tags(), findings);
    List<String> ids = new ArrayList<>();
    List<String> left = new ArrayList<>();
    for (String id : selected.ids()) {
      String refusal = connector.refusal().apply(id);
      if (refusal == null) {
        ids.add(id);
      } else if (selected.named().contains(id)) {
        findings.error(Kind.OPERATION, pointerOf(entry, at, id), refusal);
      } else {
        left.add(id);
      }
    }
    if (!left.isEmpty()) {
      findings.warning(at + "/operations", left.size() + " operation(s) of " + connector.where() + " that the entry"
          + " selects cannot be offered and are left out (" + String.join(", ", left.subList(0, Math.min(5,
          left.size()))) + (left.size() > 5 ? ", ..." : "") + "; ratchet check --report says why)");
    }
    JsonObject approval = entry.getJsonObject("approval", new JsonObject());
    JsonObject rename = entry.getJsonObject("rename", new JsonObject());
    JsonObject effect = entry.getJsonObject("effect", new JsonObject());
    JsonObject timeouts = entry.getJsonObject("timeouts", new JsonObject());
    for (Map.Entry<String, JsonObject> decided : Map.of("approval", approval, "rename", rename, "effect", effect,
        "timeouts", timeouts).entrySet()) {
      for (String named : decided.getValue().fieldNames()) {
        if (!selected.ids().contains(named)) {
          findings.error(Kind.REFERENCE, LocatedDocument.pointer(at + "/" + decided.getKey(), named), "operation '"
              + named + "' is not among this entry's operations" + NearMatches.hint(named, selected.ids()));
        }
      }
    }
    List<ConnectorTool> tools = new ArrayList<>();
    for (String id : ids) {
      OperationOverride override = new OperationOverride(
          effect.containsKey(id) ? EffectClass.fromWireName(effect.getString(id)) : null,
          timeouts.containsKey(id) ? Duration.ofMillis(((Number) timeouts.getValue(id)).longValue()) : null);
      try {
        ConnectorTool tool = ConnectorTool.connectorTool(connector.operation().apply(id, override));
        if (rename.containsKey(id)) {
          tool = tool.named(rename.getString(id));
        }
        if (approval.containsKey(id)) {
          ApprovalRule rule = ApprovalRules.of(approval.getValue(id), LocatedDocument.pointer(at + "/approval", id),
              findings);
          tool = rule == null ? tool : tool.approval(rule);
        }
        tools.add(tool);
      } catch (RuntimeException e) {
        findings.error(Kind.OPERATION, pointerOf(entry, at, id), String.valueOf(e.getMessage()));
      }
    }
    ToolSource source;
    try {
      source = ConnectorToolSource.of(tools).named(connector.sourceName());
    } catch (RuntimeException e) {
      findings.error(Kind.REFERENCE, at, e.getMessage() + " (rename one of them with 'rename')");
      return null;
    }
    return findings.errorCount() > before ? null : source;
  }

  /** Where the entry names an operation: its place in the list, else the list. */
  private static String pointerOf(JsonObject entry, String at, String id) {
    if (entry.getValue("operations") instanceof io.vertx.core.json.JsonArray list && list.contains(id)) {
      return at + "/operations/" + list.getList().indexOf(id);
    }
    return at + "/operations";
  }
}
