package dev.ratchet.server.config.impl;

import dev.ratchet.connectors.openapi.MetaSchema;
import dev.ratchet.runtime.ApprovalRule;
import dev.ratchet.server.config.AgentFileError.Kind;
import io.vertx.core.json.JsonObject;

/** The approval an agent file gives a tool: {@code always}, {@code never} or {@code {when?: schema, allowEdit?: boolean}}. */
final class ApprovalRules {

  private static final String RULE_SOURCE = "agent file";

  private ApprovalRules() {
  }

  /** The rule, or null after reporting a {@code when} that is not a usable JSON Schema. */
  static ApprovalRule of(Object value, String at, Findings findings) {
    if ("always".equals(value)) {
      return ApprovalRule.always().withSource(RULE_SOURCE);
    }
    if ("never".equals(value)) {
      return ApprovalRule.never().withSource(RULE_SOURCE);
    }
    boolean allowEdit = ((JsonObject) value).getBoolean("allowEdit", false);
    JsonObject when = ((JsonObject) value).getJsonObject("when");
    if (when == null) {
      return ApprovalRule.always().withSource(RULE_SOURCE).withEdit(allowEdit);
    }
    String problem = MetaSchema.problem(when);
    if (problem != null) {
      findings.error(Kind.SCHEMA, at + "/when", "not a valid JSON Schema: " + problem);
      return null;
    }
    try {
      return ApprovalRule.whenMatches(when).withSource(RULE_SOURCE).withEdit(allowEdit);
    } catch (RuntimeException e) {
      findings.error(Kind.SCHEMA, at + "/when", "not a usable JSON Schema: " + e.getMessage());
      return null;
    }
  }
}
