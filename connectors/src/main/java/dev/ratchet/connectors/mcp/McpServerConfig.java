package dev.ratchet.connectors.mcp;

import dev.ratchet.runtime.Secret;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How to reach one MCP server and which of its features to offer. Environment values and HTTP
 * headers are held as {@link Secret}s: they are revealed only when a process starts or a request
 * is sent, and {@link #toString()} prints every one of them as {@code ***}.
 * <pre>{@code
 * McpServerConfig github = McpServerConfig.stdio("github", "npx", "-y", "@modelcontextprotocol/server-github")
 *     .env("GITHUB_TOKEN", Secret.from(() -> System.getenv("GITHUB_TOKEN")))
 *     .pin("create_issue", McpToolPin.of(EffectClass.NON_IDEMPOTENT_WRITE, true))
 *     .build();
 * }</pre>
 */
public final class McpServerConfig {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,40}");

  private final String name;
  private final McpTransportKind transport;
  private final String command;
  private final List<String> args;
  private final Map<String, Secret> env;
  private final String url;
  private final Map<String, Secret> headers;
  private final Map<String, McpToolPin> pins;
  private final String toolPrefix;
  private final boolean offerResources;
  private final boolean offerPrompts;
  private final Duration requestTimeout;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration healthCheckInterval;

  private McpServerConfig(Builder b) {
    this.name = b.name;
    this.transport = b.transport;
    this.command = b.command;
    this.args = List.copyOf(b.args);
    this.env = Collections.unmodifiableMap(new LinkedHashMap<>(b.env));
    this.url = b.url;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
    this.pins = Collections.unmodifiableMap(new LinkedHashMap<>(b.pins));
    this.toolPrefix = b.toolPrefix;
    this.offerResources = b.offerResources;
    this.offerPrompts = b.offerPrompts;
    this.requestTimeout = b.requestTimeout;
    this.initialBackoff = b.initialBackoff;
    this.maxBackoff = b.maxBackoff;
    this.healthCheckInterval = b.healthCheckInterval;
  }

  /** A server started as a child process that speaks MCP on its standard input and output. */
  public static Builder stdio(String name, String command, String... args) {
    Builder b = new Builder(name, McpTransportKind.STDIO);
    b.command = Objects.requireNonNull(command, "command");
    b.args.addAll(List.of(args));
    return b;
  }

  /** A server reached over streamable HTTP at {@code url} (the MCP endpoint, for example {@code http://host/mcp}). */
  public static Builder http(String name, String url) {
    Builder b = new Builder(name, McpTransportKind.STREAMABLE_HTTP);
    b.url = Objects.requireNonNull(url, "url");
    return b;
  }

  public String name() {
    return name;
  }

  public McpTransportKind transport() {
    return transport;
  }

  public String command() {
    return command;
  }

  public List<String> args() {
    return args;
  }

  public Map<String, Secret> env() {
    return env;
  }

  public String url() {
    return url;
  }

  public Map<String, Secret> headers() {
    return headers;
  }

  public Map<String, McpToolPin> pins() {
    return pins;
  }

  public String toolPrefix() {
    return toolPrefix;
  }

  public boolean offerResources() {
    return offerResources;
  }

  public boolean offerPrompts() {
    return offerPrompts;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public Duration initialBackoff() {
    return initialBackoff;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  public Duration healthCheckInterval() {
    return healthCheckInterval;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("McpServerConfig{name=").append(name).append(", transport=").append(transport);
    if (transport == McpTransportKind.STDIO) {
      sb.append(", command=").append(command).append(", args=").append(args).append(", env=").append(redacted(env));
    } else {
      sb.append(", url=").append(url).append(", headers=").append(redacted(headers));
    }
    return sb.append(", pins=").append(pins.keySet()).append('}').toString();
  }

  private static String redacted(Map<String, Secret> values) {
    StringBuilder sb = new StringBuilder("{");
    values.keySet().forEach(k -> sb.append(sb.length() > 1 ? ", " : "").append(k).append("=***"));
    return sb.append('}').toString();
  }

  /** Builds a {@link McpServerConfig}. */
  public static final class Builder {
    private final String name;
    private final McpTransportKind transport;
    private String command;
    private final List<String> args = new ArrayList<>();
    private final Map<String, Secret> env = new LinkedHashMap<>();
    private String url;
    private final Map<String, Secret> headers = new LinkedHashMap<>();
    private final Map<String, McpToolPin> pins = new LinkedHashMap<>();
    private String toolPrefix = "";
    private boolean offerResources;
    private boolean offerPrompts;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration initialBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(30);
    private Duration healthCheckInterval = Duration.ofSeconds(30);

    private Builder(String name, McpTransportKind transport) {
      if (name == null || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("an MCP server name is 1 to 40 letters, digits, '_' or '-'");
      }
      this.name = name;
      this.transport = transport;
    }

    /** An environment variable of the child process; its value is treated as a secret. */
    public Builder env(String key, Secret value) {
      requireTransport(McpTransportKind.STDIO, "env");
      env.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
      return this;
    }

    public Builder env(String key, String value) {
      return env(key, Secret.of(value));
    }

    /** An HTTP header sent with every request; its value is treated as a secret. */
    public Builder header(String key, Secret value) {
      requireTransport(McpTransportKind.STREAMABLE_HTTP, "header");
      headers.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
      return this;
    }

    public Builder header(String key, String value) {
      return header(key, Secret.of(value));
    }

    /** Fixes the effect class and/or approval of one tool (by its name on the server). */
    public Builder pin(String toolName, McpToolPin pin) {
      pins.put(Objects.requireNonNull(toolName), Objects.requireNonNull(pin));
      return this;
    }

    /** A prefix added to every tool name, to keep names unique across servers. */
    public Builder toolPrefix(String prefix) {
      this.toolPrefix = Objects.requireNonNull(prefix);
      return this;
    }

    /** Offers {@code <server>_list_resources} and {@code <server>_read_resource} as read tools. */
    public Builder offerResources(boolean offer) {
      this.offerResources = offer;
      return this;
    }

    /** Offers {@code <server>_get_prompt} as a read tool. */
    public Builder offerPrompts(boolean offer) {
      this.offerPrompts = offer;
      return this;
    }

    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /** Delay before the first reconnect attempt; it doubles up to {@code max} while the server stays away. */
    public Builder reconnectBackoff(Duration initial, Duration max) {
      this.initialBackoff = Objects.requireNonNull(initial);
      this.maxBackoff = Objects.requireNonNull(max);
      return this;
    }

    /**
     * How often a connected server is pinged, so that one that went away quietly shows as
     * unhealthy (and gets reconnected) before a call finds out. {@link Duration#ZERO} turns it off.
     */
    public Builder healthCheckInterval(Duration interval) {
      this.healthCheckInterval = Objects.requireNonNull(interval);
      return this;
    }

    public McpServerConfig build() {
      return new McpServerConfig(this);
    }

    private void requireTransport(McpTransportKind kind, String what) {
      if (transport != kind) {
        throw new IllegalStateException(what + " applies only to " + kind + " servers");
      }
    }
  }
}
