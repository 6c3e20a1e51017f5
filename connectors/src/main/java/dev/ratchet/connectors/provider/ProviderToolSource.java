package dev.ratchet.connectors.provider;

import dev.ratchet.connectors.provider.impl.CallerBoundTool;
import dev.ratchet.runtime.SourceHealth;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolSource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A saved selection of a provider's tools as a {@link ToolSource}.
 * <p>
 * With the {@link ConnectionScope#PER_AUTHOR} scope the tools run as the agent's author. With the
 * {@link ConnectionScope#CALLER_SUPPLIED} scope and no resource id in the {@link ResolveOptions}
 * (see {@link #perCaller}), one agent serves every tenant: each call runs as the caller of its
 * session ({@link dev.ratchet.runtime.ToolInvocation#callerId()}), resolved once per caller and
 * cached. A call in a session without a caller does not run, unless the provider names a shared
 * identity. A source bound to one resource id runs only for sessions of that caller or of none.
 */
public final class ProviderToolSource implements ToolSource {

  /**
   * Resolves the catalogue's descriptions of per-caller tools, which are never run. Not a valid
   * caller id (it has a space), so it can never be mistaken for, or collide with, a tenant.
   */
  static final String DESCRIBE_ONLY = "ratchet describe-only";
  /** Callers whose resolved tools are kept; beyond this, the least recently used are resolved again. */
  static final int MAX_CACHED_CALLERS = 1024;

  private final ToolProvider provider;
  private final List<String> slugs;
  private final Map<String, ProviderToolConfig> configs;
  private final ResolveOptions identity;
  private final boolean perCaller;
  private final Map<String, Future<Map<String, Tool>>> byCaller =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Future<Map<String, Tool>>> eldest) {
          return size() > MAX_CACHED_CALLERS;
        }
      };

  private ProviderToolSource(ToolProvider provider, List<String> slugs, Map<String, ProviderToolConfig> configs,
                             ResolveOptions identity) {
    this.provider = provider;
    this.slugs = List.copyOf(slugs);
    this.configs = Map.copyOf(configs);
    this.identity = identity == null ? new ResolveOptions(null, null, null) : identity;
    ConnectionScope scope = this.identity.scope() == null ? provider.defaultScope() : this.identity.scope();
    this.perCaller = scope == ConnectionScope.CALLER_SUPPLIED && blank(this.identity.resourceId());
  }

  /**
   * The tools resolved for {@code identity}. With the caller-supplied scope and no resource id in
   * it, the tools run as each session's caller, as {@link #perCaller} makes them.
   */
  public static ProviderToolSource create(ToolProvider provider, List<String> slugs,
                                          Map<String, ProviderToolConfig> configs, ResolveOptions identity) {
    return new ProviderToolSource(provider, slugs, configs, identity);
  }

  /** Tools that run as the caller of each call's session, whatever the provider's default scope. */
  public static ProviderToolSource perCaller(ToolProvider provider, List<String> slugs,
                                             Map<String, ProviderToolConfig> configs) {
    return new ProviderToolSource(provider, slugs, configs, new ResolveOptions(null, null,
        ConnectionScope.CALLER_SUPPLIED));
  }

  @Override
  public String name() {
    return "provider:" + provider.info().id();
  }

  /** True when each call runs as its session's caller. */
  public boolean isPerCaller() {
    return perCaller;
  }

  @Override
  public Future<SourceHealth> sourceHealth() {
    return provider.getHealth().map(h -> h.healthy() ? SourceHealth.healthy(name())
        : SourceHealth.unhealthy(name(), h.message()));
  }

  @Override
  public Future<List<Tool>> tools(Vertx vertx) {
    if (!perCaller) {
      String boundTo = identity.resourceId();
      return provider.resolveTools(slugs, configs, identity).map(tools -> {
        List<Tool> list = new ArrayList<>();
        ConnectionScope scope = identity.scope() == null ? provider.defaultScope() : identity.scope();
        for (Tool tool : tools.values()) {
          list.add(scope == ConnectionScope.CALLER_SUPPLIED
              ? new CallerBoundTool(tool, caller -> onlyFor(boundTo, caller, tool)) : tool);
        }
        return list;
      });
    }
    // a configured connection is checked against each caller when that caller's tools resolve
    Map<String, ProviderToolConfig> described = new HashMap<>();
    configs.forEach((slug, c) -> described.put(slug, new ProviderToolConfig(null, c.effectClass(),
        c.requireApproval())));
    return provider.resolveTools(slugs, described, new ResolveOptions(identity.authorId(), DESCRIBE_ONLY,
        ConnectionScope.CALLER_SUPPLIED)).map(tools -> {
          List<Tool> list = new ArrayList<>();
          tools.forEach((slug, tool) -> list.add(new CallerBoundTool(tool,
              caller -> forCaller(caller).map(resolved -> resolved.get(slug)))));
          return list;
        });
  }

  private Future<Tool> onlyFor(String boundTo, String caller, Tool tool) {
    if (caller == null || caller.equals(boundTo)) {
      return Future.succeededFuture(tool);
    }
    return Future.failedFuture(new ToolNotSentException("tool provider '" + provider.info().id()
        + "': this tool source runs as one fixed resource id, which is not this session's caller"));
  }

  /** The selected tools bound to {@code caller} (null: the provider's shared identity, if it names one). */
  private Future<Map<String, Tool>> forCaller(String caller) {
    String key = caller == null ? "" : caller;
    Future<Map<String, Tool>> tools;
    synchronized (byCaller) {
      tools = byCaller.get(key);
      if (tools == null) {
        tools = provider.resolveTools(slugs, configs, new ResolveOptions(identity.authorId(), caller,
            ConnectionScope.CALLER_SUPPLIED));
        byCaller.put(key, tools);
        Future<Map<String, Tool>> resolving = tools;
        // a failure is not kept: the caller may connect an account, or the provider come back
        resolving.onFailure(err -> {
          synchronized (byCaller) {
            byCaller.remove(key, resolving);
          }
        });
      }
    }
    return tools;
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
