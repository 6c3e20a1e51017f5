package dev.ratchet.runtime.journal;

import io.vertx.core.json.JsonObject;

/**
 * A decision on an approval request, as {@link DecisionSteps#approvalDecided} journals it.
 *
 * @param argumentsHash the hash of the arguments the approver was shown; must be the request's
 * @param status {@code approved}, {@code rejected} or {@code expired}
 * @param approver who decided
 * @param reason why (null: none)
 * @param editedArguments an approval's arguments as the approver edited them, already validated
 *     against the tool's schema, which the call then runs with (null: as requested; ignored
 *     for any other status)
 */
public record Verdict(String argumentsHash, String status, String approver, String reason, JsonObject editedArguments) {

  /** A decision with the arguments as requested. */
  public Verdict(String argumentsHash, String status, String approver, String reason) {
    this(argumentsHash, status, approver, reason, null);
  }
}
