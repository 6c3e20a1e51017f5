package dev.ratchet.connectors.provider;

import dev.ratchet.runtime.Secret;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Settings shared by the built-in providers. The API key is a {@link Secret}: it is read at each
 * request and never printed. {@code sharedIdentity} is off by default: with
 * {@link ConnectionScope#CALLER_SUPPLIED} and no caller resource id, resolving or running a tool
 * fails unless the application names a shared identity here on purpose.
 */
public final class ToolProviderOptions {

  private Secret apiKey;
  private String baseUrl;
  private List<String> allowedToolkits;
  private Map<String, List<String>> allowedTools;
  private ConnectionScope defaultScope = ConnectionScope.PER_AUTHOR;
  private String sharedIdentity;
  private Duration requestTimeout = Duration.ofSeconds(30);
  private String displayName;

  public static ToolProviderOptions apiKey(Secret apiKey) {
    ToolProviderOptions o = new ToolProviderOptions();
    o.apiKey = Objects.requireNonNull(apiKey, "apiKey");
    return o;
  }

  public ToolProviderOptions baseUrl(String baseUrl) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    return this;
  }

  /**
   * Allowed toolkits: exact names, or patterns where {@code *} stands for any characters
   * ({@code google*}, {@code *drive}); see {@link AllowList}.
   *
   * @throws IllegalArgumentException for an empty entry
   */
  public ToolProviderOptions allowedToolkits(String... toolkits) {
    this.allowedToolkits = List.of(toolkits);
    AllowList.of(allowedToolkits, allowedTools);
    return this;
  }

  /**
   * Allowed tools per toolkit: exact slugs, or patterns with {@code *} ({@code GMAIL_SEND_*},
   * {@code *_DELETE}); toolkit keys may be patterns too. See {@link AllowList}.
   *
   * @throws IllegalArgumentException for an empty entry
   */
  public ToolProviderOptions allowedTools(Map<String, List<String>> tools) {
    this.allowedTools = Map.copyOf(tools);
    AllowList.of(allowedToolkits, allowedTools);
    return this;
  }

  public ToolProviderOptions defaultScope(ConnectionScope scope) {
    this.defaultScope = Objects.requireNonNull(scope);
    return this;
  }

  /** Names one identity that every caller without a resource id shares; use only for deliberately shared integrations. */
  public ToolProviderOptions sharedIdentity(String identity) {
    this.sharedIdentity = identity;
    return this;
  }

  public ToolProviderOptions requestTimeout(Duration timeout) {
    this.requestTimeout = Objects.requireNonNull(timeout);
    return this;
  }

  public ToolProviderOptions displayName(String displayName) {
    this.displayName = displayName;
    return this;
  }

  public Secret apiKey() {
    return apiKey;
  }

  public String baseUrl() {
    return baseUrl;
  }

  public AllowList allowList() {
    return AllowList.of(allowedToolkits, allowedTools);
  }

  public ConnectionScope defaultScope() {
    return defaultScope;
  }

  public String sharedIdentity() {
    return sharedIdentity;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public String displayName() {
    return displayName;
  }

  @Override
  public String toString() {
    return "ToolProviderOptions{apiKey=***, baseUrl=" + baseUrl + ", " + allowList() + ", defaultScope=" + defaultScope
        + ", sharedIdentity=" + sharedIdentity + "}";
  }
}
