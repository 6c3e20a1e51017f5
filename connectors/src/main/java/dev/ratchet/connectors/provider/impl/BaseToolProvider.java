package dev.ratchet.connectors.provider.impl;

import dev.ratchet.connectors.provider.AllowList;
import dev.ratchet.connectors.provider.ConnectionScope;
import dev.ratchet.connectors.provider.ProviderCapabilities;
import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.connectors.provider.ProviderHealth;
import dev.ratchet.connectors.provider.ProviderInfo;
import dev.ratchet.connectors.provider.ProviderToolConfig;
import dev.ratchet.connectors.provider.ResolveOptions;
import dev.ratchet.connectors.provider.ToolProvider;
import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Redaction;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolNotSentException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;

import java.util.Map;
import java.util.function.BiConsumer;

/** What the built-in providers share: HTTP, the allow-list and identity resolution. */
public abstract class BaseToolProvider implements ToolProvider {

  protected final Vertx vertx;
  protected final ToolProviderOptions options;
  protected final ProviderHttp http;
  protected final AllowList allow;
  protected final IdentityResolver identity;
  protected final String id;
  private final Kind kind;

  /** Who a built-in provider is, what it can do, and where its API is unless the options say otherwise. */
  public record Kind(String id, String name, String description, ProviderCapabilities capabilities,
                        String defaultBaseUrl) {
  }

  protected BaseToolProvider(Vertx vertx, Kind kind, ToolProviderOptions options,
                             BiConsumer<HttpRequest<Buffer>, String> auth) {
    this.vertx = vertx;
    this.kind = kind;
    this.id = kind.id();
    this.options = options;
    String base = options.baseUrl() == null ? kind.defaultBaseUrl() : options.baseUrl();
    this.http = new ProviderHttp(vertx, id, base, options.apiKey(), auth, options.requestTimeout());
    this.allow = options.allowList();
    this.identity = new IdentityResolver(id, options.defaultScope(), options.sharedIdentity());
  }

  @Override
  public ProviderInfo info() {
    return new ProviderInfo(kind.id(), kind.name(), kind.description(), options.displayName());
  }

  @Override
  public ProviderCapabilities capabilities() {
    return kind.capabilities();
  }

  @Override
  public ConnectionScope defaultScope() {
    return options.defaultScope();
  }

  /** Resolves the tools one after another, as the caller's identity; fails with the first that cannot be. */
  @Override
  public Future<Map<String, Tool>> resolveTools(List<String> slugs, Map<String, ProviderToolConfig> configs,
                                                ResolveOptions options) {
    Map<String, ProviderToolConfig> cfg = configs == null ? Map.of() : configs;
    return userId(options).compose(userId -> {
      Map<String, Tool> resolved = new LinkedHashMap<>();
      Future<Void> chain = Future.succeededFuture();
      for (String slug : slugs) {
        chain = chain.compose(v -> resolve(slug, cfg.get(slug), userId)).map(tool -> {
          resolved.put(slug, tool);
          return null;
        });
      }
      return chain.map(v -> resolved);
    });
  }

  /** One tool as {@code userId} runs it, once allowed and its configured connection found to be the user's. */
  protected abstract Future<Tool> resolve(String slug, ProviderToolConfig config, String userId);

  protected String source() {
    return "provider:" + id;
  }

  /** Resolves the identity inside a future, so a missing one fails the returned future instead of throwing. */
  protected Future<String> userId(ResolveOptions options) {
    try {
      return Future.succeededFuture(identity.userId(options));
    } catch (ProviderException e) {
      return Future.failedFuture(e);
    }
  }

  /** The one refusal for a connection that is not the identity's own, whether it exists or not. */
  protected ProviderException notOwned(String connectionId) {
    return new ProviderException(ErrorCode.CONNECTION_NOT_OWNED, "connection '" + connectionId + "' is not one of this"
        + " caller's connections at " + id);
  }

  protected static ProviderException notAllowed(String what) {
    return new ProviderException(ErrorCode.NOT_ALLOWED, what + " is not allowed by this provider's allow-list");
  }

  /** Checks the key and that the provider answers at {@code path}. */
  protected Future<ProviderHealth> health(String path, Map<String, String> query) {
    try {
      options.apiKey().reveal();
    } catch (ToolNotSentException e) {
      return Future.succeededFuture(new ProviderHealth(false, false, id + " API key: " + e.getMessage()));
    }
    return http.send(HttpMethod.GET, path, query, null).map(resp -> resp.statusCode() / 100 == 2
            ? new ProviderHealth(true, true, null)
            : new ProviderHealth(true, false, id + " answered " + resp.statusCode() + ": " + http.errorText(resp)))
        .otherwise(err -> new ProviderHealth(true, false, Redaction.scrub(err.getMessage())));
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{" + options + "}";
  }
}
