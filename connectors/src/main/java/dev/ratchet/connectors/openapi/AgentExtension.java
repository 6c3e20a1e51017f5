package dev.ratchet.connectors.openapi;

import dev.ratchet.connectors.AgentSettings;
import dev.ratchet.connectors.ManifestException;
import dev.ratchet.connectors.OperationKind;
import dev.ratchet.runtime.Outcome;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads an operation's {@code x-ratchet-agent} extension. Without one, an operation the
 * application names is exposed (naming it is the choice), PUT and DELETE are safe to retry, and
 * nothing asks for approval.
 */
final class AgentExtension {

  private AgentExtension() {
  }

  static AgentSettings read(JsonObject ext, OperationKind kind, String method, String origin, String operationId) {
    checkEnum(ext, "retry", Set.of("safe", "unsafe"), origin, operationId);
    checkEnum(ext, "approval", Set.of("recommended", "none"), origin, operationId);
    boolean retrySafe = kind == OperationKind.MUTATION && ext.getValue("retry") instanceof String r
        ? r.equals("safe") : method.equals("put") || method.equals("delete");
    Map<String, Outcome> branches = new LinkedHashMap<>();
    if (ext.getValue("branches") instanceof JsonObject b) {
      for (String branch : b.fieldNames()) {
        try {
          branches.put(branch, Outcome.fromWireName(String.valueOf(b.getValue(branch))));
        } catch (IllegalArgumentException e) {
          throw new ManifestException(origin + ": operation '" + operationId + "': field 'x-ratchet-agent.branches."
              + branch + "': " + e.getMessage());
        }
      }
    }
    return new AgentSettings(!Boolean.FALSE.equals(ext.getValue("exposed")), retrySafe,
        "recommended".equals(ext.getValue("approval")), branches);
  }

  private static void checkEnum(JsonObject ext, String field, Set<String> allowed, String origin, String operationId) {
    Object v = ext.getValue(field);
    if (v != null && !allowed.contains(String.valueOf(v))) {
      throw new ManifestException(origin + ": operation '" + operationId + "': field 'x-ratchet-agent." + field
          + "': must be one of " + allowed);
    }
  }
}
