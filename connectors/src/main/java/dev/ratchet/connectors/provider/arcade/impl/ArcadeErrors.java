package dev.ratchet.connectors.provider.arcade.impl;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.json.JsonObject;

/**
 * What an Arcade execution error means for one attempt, decided by its {@code kind} rather than by
 * {@code can_retry}: Arcade marks an upstream server error retryable even when the upstream may
 * already have acted, which for a write is an unknown outcome, never "did not run".
 */
final class ArcadeErrors {

  private ArcadeErrors() {
  }

  /** The kinds that mean the user must (re)authorize the tool. */
  static boolean needsAuthorization(String kind) {
    return "TOOL_REQUIREMENTS_NOT_MET".equals(kind) || "UPSTREAM_RUNTIME_AUTH_ERROR".equals(kind);
  }

  static ToolResult result(JsonObject error, EffectClass effect) {
    String kind = error.getString("kind");
    String message = Redaction.scrub("arcade reported " + (kind == null ? "an error" : kind) + ": "
        + error.getString("message", "unknown error"));
    boolean canRetry = error.getBoolean("can_retry", false);
    long after = error.getLong("retry_after_ms", 0L);
    return switch (kind == null ? "UNKNOWN" : kind) {
      case "UPSTREAM_RUNTIME_RATE_LIMIT" -> ToolResult.retryable(message, after);
      // the tool asks the model to call again differently: the model reads the hint
      case "TOOL_RUNTIME_RETRY" -> ToolResult.rejected(error.getString("additional_prompt_content") == null ? message
          : message + " (" + Redaction.scrub(error.getString("additional_prompt_content")) + ")");
      // refused before the tool or its upstream applied anything
      case "TOOLKIT_LOAD_FAILED", "TOOL_DEFINITION_BAD_DEFINITION", "TOOL_DEFINITION_BAD_INPUT_SCHEMA",
           "TOOL_DEFINITION_BAD_OUTPUT_SCHEMA", "TOOL_RUNTIME_BAD_INPUT_VALUE", "TOOL_RUNTIME_CONTEXT_REQUIRED",
           "CONTEXT_CHECK_FAILED", "CONTEXT_DENIED", "UPSTREAM_RUNTIME_BAD_REQUEST", "UPSTREAM_RUNTIME_NOT_FOUND",
           "UPSTREAM_RUNTIME_VALIDATION_ERROR", "TOOL_REQUIREMENTS_NOT_MET", "UPSTREAM_RUNTIME_AUTH_ERROR" ->
          canRetry ? ToolResult.retryable(message, after) : ToolResult.rejected(message);
      // upstream server and network failures, crashes mid-run, unknown kinds: the upstream may have acted
      default -> effect.isWrite() ? ToolResult.uncertain(message)
          : canRetry ? ToolResult.retryable(message, after) : ToolResult.rejected(message);
    };
  }
}
