package dev.ratchet.connectors.mcp;

import dev.ratchet.connectors.mcp.impl.CredentialNames;
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
 * How to reach one MCP server and which of its features to offer.
 *
 * <p>A stdio server starts with a minimal environment: {@code PATH}, {@code HOME}, {@code LANG},
 * {@code TMPDIR} and a few like them (those this process has), plus the variables its
 * configuration names. It never sees the rest of this JVM's environment, where other servers' and
 * connections' credentials live, unless {@link Builder#inheritEnvironment(boolean)} asks for it.
 *
 * <p>An environment variable or header given as a {@link Secret} is a secret: revealed only when
 * the process starts or a request is sent, printed as {@code ***}, and scrubbed from everything the
 * server answers. One given as a {@code String} is a plain value (a mode, a region, a URL) and is
 * left as it is, unless its name says it holds a credential ({@code GITHUB_TOKEN},
 * {@code X-Api-Key}, {@code Authorization}: see {@link Builder#env(String, String)}), in which case
 * it is a secret too.
 * <pre>{@code
 * McpServerConfig github = McpServerConfig.stdio("github", "npx", "-y", "@modelcontextprotocol/server-github")
 *     .env("GITHUB_TOKEN", Secret.from(() -> System.getenv("GITHUB_TOKEN")))
 *     .env("GITHUB_TOOLSETS", "issues")
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
  private final Map<String, String> plainEnv;
  private final boolean inheritEnvironment;
  private final String url;
  private final Map<String, Secret> headers;
  private final Map<String, String> plainHeaders;
  private final Map<String, McpToolPin> pins;
  private final String toolPrefix;
  private final boolean offerResources;
  private final boolean offerPrompts;
  private final Duration requestTimeout;
  private final Duration startupTimeout;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration healthCheckInterval;
  private final Duration inFlightCheck;

  private McpServerConfig(Builder b) {
    this.name = b.name;
    this.transport = b.transport;
    this.command = b.command;
    this.args = List.copyOf(b.args);
    this.env = Collections.unmodifiableMap(new LinkedHashMap<>(b.env));
    this.plainEnv = Collections.unmodifiableMap(new LinkedHashMap<>(b.plainEnv));
    this.inheritEnvironment = b.inheritEnvironment;
    this.url = b.url;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
    this.plainHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(b.plainHeaders));
    this.pins = Collections.unmodifiableMap(new LinkedHashMap<>(b.pins));
    this.toolPrefix = b.toolPrefix;
    this.offerResources = b.offerResources;
    this.offerPrompts = b.offerPrompts;
    this.requestTimeout = b.requestTimeout;
    this.startupTimeout = b.startupTimeout;
    this.initialBackoff = b.initialBackoff;
    this.maxBackoff = b.maxBackoff;
    this.healthCheckInterval = b.healthCheckInterval;
    this.inFlightCheck = b.inFlightCheck;
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

  /** The environment variables of a stdio server whose values are secrets. */
  public Map<String, Secret> env() {
    return env;
  }

  /** The environment variables of a stdio server whose values are plain configuration. */
  public Map<String, String> plainEnv() {
    return plainEnv;
  }

  /** Whether a stdio server starts with this JVM's whole environment rather than a minimal one. */
  public boolean inheritEnvironment() {
    return inheritEnvironment;
  }

  public String url() {
    return url;
  }

  /** The HTTP headers whose values are secrets. */
  public Map<String, Secret> headers() {
    return headers;
  }

  /** The HTTP headers whose values are plain configuration. */
  public Map<String, String> plainHeaders() {
    return plainHeaders;
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

  /** How long the server may take to start and answer {@code initialize}; see {@link Builder#startupTimeout}. */
  public Duration startupTimeout() {
    return startupTimeout;
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

  /** How often a streamable HTTP server is pinged while a call waits for its answer ({@link Duration#ZERO}: never). */
  public Duration inFlightCheck() {
    return inFlightCheck;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("McpServerConfig{name=").append(name).append(", transport=").append(transport);
    if (transport == McpTransportKind.STDIO) {
      sb.append(", command=").append(command).append(", args=").append(args).append(", env=")
          .append(shown(env, plainEnv));
      if (inheritEnvironment) {
        sb.append(", inheritEnvironment=true");
      }
    } else {
      sb.append(", url=").append(url).append(", headers=").append(shown(headers, plainHeaders));
    }
    return sb.append(", pins=").append(pins.keySet()).append('}').toString();
  }

  private static String shown(Map<String, Secret> secrets, Map<String, String> plain) {
    StringBuilder sb = new StringBuilder("{");
    plain.forEach((k, v) -> sb.append(sb.length() > 1 ? ", " : "").append(k).append('=').append(v));
    secrets.keySet().forEach(k -> sb.append(sb.length() > 1 ? ", " : "").append(k).append("=***"));
    return sb.append('}').toString();
  }

  /** Builds a {@link McpServerConfig}. */
  public static final class Builder {
    private final String name;
    private final McpTransportKind transport;
    private String command;
    private final List<String> args = new ArrayList<>();
    private final Map<String, Secret> env = new LinkedHashMap<>();
    private final Map<String, String> plainEnv = new LinkedHashMap<>();
    private boolean inheritEnvironment;
    private String url;
    private final Map<String, Secret> headers = new LinkedHashMap<>();
    private final Map<String, String> plainHeaders = new LinkedHashMap<>();
    private final Map<String, McpToolPin> pins = new LinkedHashMap<>();
    private String toolPrefix = "";
    private boolean offerResources;
    private boolean offerPrompts;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration startupTimeout = Duration.ofSeconds(60);
    private Duration initialBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(30);
    private Duration healthCheckInterval = Duration.ofSeconds(30);
    private Duration inFlightCheck = Duration.ofSeconds(5);

    private Builder(String name, McpTransportKind transport) {
      if (name == null || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("an MCP server name is 1 to 40 letters, digits, '_' or '-'");
      }
      this.name = name;
      this.transport = transport;
    }

    /** An environment variable of the child process whose value is a secret. */
    public Builder env(String key, Secret value) {
      requireTransport(McpTransportKind.STDIO, "env");
      plainEnv.remove(Objects.requireNonNull(key));
      env.put(key, Objects.requireNonNull(value));
      return this;
    }

    /**
     * An environment variable of the child process with a plain value, shown as it is and never
     * scrubbed from results. A name that says it holds a credential (a part such as {@code TOKEN},
     * {@code SECRET}, {@code PASSWORD}, {@code KEY}, {@code AUTH} or {@code CREDENTIALS}, as in
     * {@code GITHUB_TOKEN}) makes it a secret all the same; pass a {@link Secret} to say so outright.
     */
    public Builder env(String key, String value) {
      Objects.requireNonNull(value);
      if (CredentialNames.looksSecret(key)) {
        return env(key, Secret.of(value));
      }
      requireTransport(McpTransportKind.STDIO, "env");
      env.remove(Objects.requireNonNull(key));
      plainEnv.put(key, value);
      return this;
    }

    /**
     * Starts a stdio server with this JVM's whole environment instead of a minimal one. Every
     * variable of this process, credentials of other servers and connections included, is then
     * readable by the server and may come back in its answers (a debugging tool that prints its
     * environment does exactly that). Only for a server that is trusted with all of them.
     */
    public Builder inheritEnvironment(boolean inherit) {
      requireTransport(McpTransportKind.STDIO, "inheritEnvironment");
      this.inheritEnvironment = inherit;
      return this;
    }

    /** An HTTP header sent with every request whose value is a secret. */
    public Builder header(String key, Secret value) {
      requireTransport(McpTransportKind.STREAMABLE_HTTP, "header");
      plainHeaders.remove(Objects.requireNonNull(key));
      headers.put(key, Objects.requireNonNull(value));
      return this;
    }

    /**
     * An HTTP header with a plain value. {@code Authorization}, {@code Proxy-Authorization},
     * {@code Cookie} and names with a credential part ({@code X-Api-Key}, {@code X-Auth-Token})
     * are secrets all the same.
     */
    public Builder header(String key, String value) {
      Objects.requireNonNull(value);
      if (CredentialNames.looksSecret(key)) {
        return header(key, Secret.of(value));
      }
      requireTransport(McpTransportKind.STREAMABLE_HTTP, "header");
      headers.remove(Objects.requireNonNull(key));
      plainHeaders.put(key, value);
      return this;
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

    /**
     * Offers {@code <server>_list_resources}, {@code <server>_list_resource_templates} and
     * {@code <server>_read_resource} as read tools.
     */
    public Builder offerResources(boolean offer) {
      this.offerResources = offer;
      return this;
    }

    /** Offers {@code <server>_list_prompts} and {@code <server>_get_prompt} as read tools. */
    public Builder offerPrompts(boolean offer) {
      this.offerPrompts = offer;
      return this;
    }

    /** How long one request of a started server may take (30 s by default). */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /**
     * How long the server may take to start (60 s by default): a stdio process to answer
     * {@code initialize}, an HTTP server to accept connections. Listing the tools of a server still
     * starting (at registration) keeps trying, after each backoff, until it is over; a server that
     * refuses the credentials, or whose process exits, fails at once.
     */
    public Builder startupTimeout(Duration timeout) {
      if (Objects.requireNonNull(timeout).isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("an MCP server's startupTimeout must be positive");
      }
      this.startupTimeout = timeout;
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

    /**
     * While a call to a streamable HTTP server waits for its answer, the server is pinged this often
     * (5 s by default), each ping to be answered within the same time. One that fails or goes
     * unanswered fails the call at once, as possibly run, instead of when the request timeout runs
     * out: a server that died mid-call is known within about twice this. {@link Duration#ZERO}
     * turns it off. A stdio server's process is watched instead.
     */
    public Builder inFlightCheck(Duration every) {
      this.inFlightCheck = Objects.requireNonNull(every);
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
