package dev.ratchet.verticles.http.impl.mcp;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolCatalog;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * How the agent's catalogue and a call's record look in MCP: a catalogue entry becomes a tool with
 * the entry's own schema and annotations that follow its effect class; a call's record becomes a
 * tool result, an error result for every outcome but {@code succeeded}, with the engine's wording.
 */
final class McpShapes {

  /** The {@code _meta} keys Ratchet reads on tools/call and writes on its results. */
  static final String META_TURN = "dev.ratchet/turn";
  static final String META_INDEX = "dev.ratchet/index";
  static final String META_COUNT = "dev.ratchet/count";
  /**
   * The {@code _meta} keys in which MCP clients send the model's own id of a tool call, which stays
   * the same when the client replays the model response, read in this order when no
   * {@link #META_TURN} is given. A progress token is no such id: it is new on every request.
   */
  static final List<String> CALL_ID_KEYS = List.of("claudecode/toolUseId");

  private McpShapes() {
  }

  /** The first of {@link #CALL_ID_KEYS} that {@code meta} has, or null. */
  static String callIdKey(JsonObject meta) {
    return CALL_ID_KEYS.stream().filter(meta::containsKey).findFirst().orElse(null);
  }

  /** The entry as MCP's {@code Tool}; its input schema is the catalogue's own object, unchanged. */
  static JsonObject tool(ToolCatalog.Entry entry) {
    Tool tool = entry.tool();
    JsonObject json = new JsonObject().put("name", tool.name());
    if (tool.title() != null) {
      json.put("title", tool.title());
    }
    json.put("description", tool.description() == null ? "" : tool.description())
        .put("inputSchema", tool.inputSchema())
        .put("annotations", annotations(tool))
        .put("_meta", new JsonObject().put("dev.ratchet/effectClass", tool.effectClass().wireName())
            .put("dev.ratchet/approval", entry.approval().describe()));
    return json;
  }

  /**
   * MCP's hints from the effect class: a read is read-only (and so idempotent, never destructive);
   * a write is not read-only, idempotent only when safe to retry, and destructive, since Ratchet
   * cannot tell an additive write from one that overwrites.
   */
  static JsonObject annotations(Tool tool) {
    EffectClass effect = tool.effectClass();
    JsonObject hints = new JsonObject();
    if (tool.title() != null) {
      hints.put("title", tool.title());
    }
    hints.put("readOnlyHint", effect == EffectClass.READ)
        .put("destructiveHint", effect != EffectClass.READ)
        .put("idempotentHint", effect != EffectClass.NON_IDEMPOTENT_WRITE);
    if (tool.openWorld() != null) {
      hints.put("openWorldHint", tool.openWorld());
    }
    return hints;
  }

  /** A call's record as MCP's {@code CallToolResult}. */
  static JsonObject result(String sessionId, String turnId, CallResult call) {
    boolean ok = call.outcome() == Outcome.SUCCEEDED;
    String text = ok ? text(call.result()) : call.error() == null ? call.outcome().wireName() : call.error();
    JsonObject json = new JsonObject()
        .put("content", new JsonArray().add(new JsonObject().put("type", "text").put("text", text)))
        .put("isError", !ok);
    if (ok && call.result() instanceof JsonObject) {
      json.put("structuredContent", call.result());
    }
    JsonObject meta = new JsonObject().put("dev.ratchet/sessionId", sessionId).put(META_TURN, turnId)
        .put(META_INDEX, call.index()).put("dev.ratchet/callId", call.callId().value())
        .put("dev.ratchet/outcome", call.outcome().wireName());
    if (call.skipped()) {
      meta.put("dev.ratchet/skipped", true);
    }
    return json.put("_meta", meta);
  }

  private static String text(Object result) {
    if (result == null) {
      return "null";
    }
    return result instanceof String ? (String) result : Json.encode(result);
  }
}
