package dev.ratchet.connectors;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Objects;

/**
 * One operation as a manifest describes it. Its effect class and the outcome of each branch come
 * from here only; a session's tool policy can change approval, never these.
 *
 * @param outputSchema JSON Schema of a successful result, or null when the manifest gives none
 */
public record OperationDefinition(String name, OperationKind kind, String description, JsonObject inputSchema,
                                  JsonObject outputSchema, Duration timeout, RetryPolicy retryPolicy,
                                  AgentSettings agent) {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  public OperationDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(inputSchema, "inputSchema");
    Objects.requireNonNull(agent, "agent");
    description = description == null ? "" : description;
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    retryPolicy = retryPolicy == null ? RetryPolicy.DEFAULT : retryPolicy;
  }

  /** query → read; mutation marked {@code agent.retry: safe} → idempotent_write; any other mutation → non_idempotent_write. */
  public EffectClass effectClass() {
    if (kind == OperationKind.QUERY) {
      return EffectClass.READ;
    }
    return agent.retrySafe() ? EffectClass.IDEMPOTENT_WRITE : EffectClass.NON_IDEMPOTENT_WRITE;
  }

  /** The retry policy the engine should use: a single attempt for non-idempotent writes, whatever the manifest says. */
  public RetryPolicy effectiveRetryPolicy() {
    return effectClass() == EffectClass.NON_IDEMPOTENT_WRITE ? RetryPolicy.NONE : retryPolicy;
  }

  /**
   * The outcome a call that ended in {@code branch} is recorded with. An unlisted branch of a
   * mutation is {@code outcome_unknown} because nobody said the write did not happen; an unlisted
   * branch of a query is simply {@code failed}.
   */
  public Outcome outcomeOf(String branch) {
    Outcome override = agent.branches().get(branch);
    if (override != null) {
      return override;
    }
    switch (branch == null ? "unknown" : branch) {
      case "success":
        return Outcome.SUCCEEDED;
      case "rejected":
      case "defect":
        return Outcome.FAILED;
      case "uncertain":
      case "unknown":
        return Outcome.OUTCOME_UNKNOWN;
      default:
        return kind == OperationKind.QUERY ? Outcome.FAILED : Outcome.OUTCOME_UNKNOWN;
    }
  }
}
