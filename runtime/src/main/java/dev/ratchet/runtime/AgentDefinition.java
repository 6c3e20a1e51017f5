package dev.ratchet.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** An agent: a name, the tool sources it may use, and per-tool policies that change approval only. */
public final class AgentDefinition {

  private final String name;
  private final List<ToolSource> toolSources;
  private final Map<String, ToolPolicy> policies;

  private AgentDefinition(Builder b) {
    this.name = b.name;
    this.toolSources = List.copyOf(b.toolSources);
    this.policies = Map.copyOf(b.policies);
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  public List<ToolSource> toolSources() {
    return toolSources;
  }

  public Map<String, ToolPolicy> policies() {
    return policies;
  }

  /** Builds an {@link AgentDefinition}. */
  public static final class Builder {
    private final String name;
    private final List<ToolSource> toolSources = new ArrayList<>();
    private final Map<String, ToolPolicy> policies = new LinkedHashMap<>();

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (!name.matches("[A-Za-z0-9_.-]{1,64}")) {
        throw new IllegalArgumentException("agent name must be 1-64 of [A-Za-z0-9_.-]: '" + name + "'");
      }
      this.name = name;
    }

    public Builder toolSource(ToolSource source) {
      toolSources.add(Objects.requireNonNull(source));
      return this;
    }

    public Builder policy(ToolPolicy policy) {
      policies.put(policy.toolName(), policy);
      return this;
    }

    public AgentDefinition build() {
      return new AgentDefinition(this);
    }
  }
}
