package dev.ratchet.runtime;

import dev.ratchet.runtime.agent.ChatModel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An agent: a name, the tool sources it may use, and per-tool policies that change approval only.
 * With a {@link ChatModel} the agent also runs Ratchet's own loop: user messages in, the model's
 * tool calls run as turns, the final answer out.
 */
public final class AgentDefinition {

  private final String name;
  private final List<ToolSource> toolSources;
  private final Map<String, ToolPolicy> policies;
  private final ChatModel model;
  private final int maxTurns;
  private final RetryPolicy modelRetry;
  private final Duration modelTimeout;
  private final String systemPrompt;
  private final boolean askForOpenWorldTools;
  private final String origin;
  private final Map<String, String> sourceOrigins;

  /** Tool turns per user message when none is configured. */
  public static final int DEFAULT_MAX_TURNS = 10;

  private AgentDefinition(Builder b) {
    this.name = b.name;
    this.toolSources = List.copyOf(b.toolSources);
    this.policies = Map.copyOf(b.policies);
    this.model = b.model;
    this.maxTurns = b.maxTurns;
    this.modelRetry = b.modelRetry;
    this.modelTimeout = b.modelTimeout;
    this.systemPrompt = b.systemPrompt;
    this.askForOpenWorldTools = b.askForOpenWorldTools;
    this.origin = b.origin;
    this.sourceOrigins = Map.copyOf(b.sourceOrigins);
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

  /** Whether every tool that says it may reach an open world asks for approval, unless a policy names it. */
  public boolean askForOpenWorldTools() {
    return askForOpenWorldTools;
  }

  /** The model of the agent loop, or null when the agent only runs turns handed to it. */
  public ChatModel model() {
    return model;
  }

  /** At most this many tool turns (model responses with tool calls) answer one user message. */
  public int maxTurns() {
    return maxTurns;
  }

  /** Attempts and backoff for model requests that fail. */
  public RetryPolicy modelRetry() {
    return modelRetry;
  }

  /** How long one model request may take before it counts as a failed attempt. */
  public Duration modelTimeout() {
    return modelTimeout;
  }

  /** Where the agent was declared, shown in the catalogue: {@code java}, or a file and line. */
  public String origin() {
    return origin;
  }

  /** Where each tool source was declared, by source name; a source not named here comes from the agent's origin. */
  public Map<String, String> sourceOrigins() {
    return sourceOrigins;
  }

  /** Instructions given to the model before the conversation, or null. */
  public String systemPrompt() {
    return systemPrompt;
  }

  /** Builds an {@link AgentDefinition}. */
  public static final class Builder {
    private final String name;
    private final List<ToolSource> toolSources = new ArrayList<>();
    private final Map<String, ToolPolicy> policies = new LinkedHashMap<>();
    private ChatModel model;
    private int maxTurns = DEFAULT_MAX_TURNS;
    private RetryPolicy modelRetry = RetryPolicy.DEFAULT;
    private Duration modelTimeout = Duration.ofSeconds(120);
    private String systemPrompt;
    private boolean askForOpenWorldTools;
    private String origin = "java";
    private final Map<String, String> sourceOrigins = new LinkedHashMap<>();

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

    /** A tool source declared at {@code origin} (for example {@code conf/agents/shop.yaml:5}). */
    public Builder toolSource(ToolSource source, String origin) {
      toolSource(source);
      sourceOrigins.put(source.name(), Objects.requireNonNull(origin, "origin"));
      return this;
    }

    /** Where the agent was declared; {@code java} unless said otherwise. */
    public Builder origin(String origin) {
      this.origin = Objects.requireNonNull(origin, "origin");
      return this;
    }

    /**
     * Asks for approval of every call of a tool that says it may reach an open world (MCP's
     * {@code openWorldHint}: the web, anyone's inbox), reads included. A policy naming the tool wins.
     */
    public Builder askForOpenWorldTools(boolean ask) {
      this.askForOpenWorldTools = ask;
      return this;
    }

    public Builder policy(ToolPolicy policy) {
      policies.put(policy.toolName(), policy);
      return this;
    }

    /** Runs Ratchet's agent loop with this model for the agent's sessions. */
    public Builder model(ChatModel model) {
      this.model = Objects.requireNonNull(model, "model");
      return this;
    }

    public Builder maxTurns(int maxTurns) {
      if (maxTurns < 1) {
        throw new IllegalArgumentException("maxTurns must be at least 1");
      }
      this.maxTurns = maxTurns;
      return this;
    }

    public Builder modelRetry(RetryPolicy retry) {
      this.modelRetry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    public Builder modelTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("modelTimeout must be positive");
      }
      this.modelTimeout = timeout;
      return this;
    }

    public Builder systemPrompt(String prompt) {
      this.systemPrompt = prompt;
      return this;
    }

    public AgentDefinition build() {
      return new AgentDefinition(this);
    }
  }
}
