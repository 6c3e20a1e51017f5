package dev.ratchet.connectors;

import dev.ratchet.runtime.EffectClass;

import java.time.Duration;

/**
 * What an application (an agent file) decides about one operation over what its document says:
 * its effect class (a POST that only reads is {@code read}) and its timeout. Null leaves the
 * document's.
 */
public record OperationOverride(EffectClass effect, Duration timeout) {

  public static final OperationOverride NONE = new OperationOverride(null, null);

  /** The definition with this override applied. */
  public OperationDefinition applyTo(OperationDefinition d) {
    if (effect == null && timeout == null) {
      return d;
    }
    OperationKind kind = effect == null ? d.kind() : effect == EffectClass.READ ? OperationKind.QUERY
        : OperationKind.MUTATION;
    AgentSettings agent = d.agent();
    if (effect != null && effect != EffectClass.READ) {
      agent = new AgentSettings(agent.exposed(), effect == EffectClass.IDEMPOTENT_WRITE, agent.approvalRecommended(),
          agent.branches());
    }
    return new OperationDefinition(d.name(), kind, d.description(), d.inputSchema(), d.outputSchema(),
        timeout == null ? d.timeout() : timeout, d.retryPolicy(), agent);
  }
}
