package dev.ratchet.connectors;

import dev.ratchet.runtime.Outcome;

import java.util.Map;

/**
 * The {@code agent} block of a manifest operation: whether agents may be offered it, whether a
 * mutation is safe to repeat with the same call id, whether approval is recommended, and branch
 * outcome overrides.
 */
public record AgentSettings(boolean exposed, boolean retrySafe, boolean approvalRecommended,
                            Map<String, Outcome> branches) {

  public static final AgentSettings DEFAULTS = new AgentSettings(false, false, false, Map.of());

  public AgentSettings {
    branches = Map.copyOf(branches);
  }
}
