package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.connectors.mcp.McpHealth;
import dev.ratchet.connectors.mcp.McpServerConfig;
import dev.ratchet.runtime.Redaction;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The live MCP session with one server: connects, notices when the server goes away, and
 * reconnects with exponential backoff. Only a session that finished {@code initialize} counts as
 * connected, so a tool never sends on a half-open session.
 */
final class McpConnection {

  private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);

  private final Vertx vertx;
  private final McpServerConfig config;

  private McpAsyncClient client;
  private ObservedTransport transport;
  private Future<Void> connecting;
  private boolean closed;
  private long reconnectTimer = -1;
  private long reconnectAt;
  private int attempts;
  private McpHealth health;

  private final Runnable toolsChanged;

  /** {@code toolsChanged}: run when the server says its tools changed ({@code notifications/tools/list_changed}). */
  McpConnection(Vertx vertx, McpServerConfig config, Runnable toolsChanged) {
    this.vertx = vertx;
    this.config = config;
    this.toolsChanged = toolsChanged;
    this.health = new McpHealth(config.name(), false, "not connected yet", System.currentTimeMillis(), 0);
  }

  synchronized McpAsyncClient client() {
    return client;
  }

  /** The transport of the live session, or null while disconnected. */
  synchronized ObservedTransport transport() {
    return client == null ? null : transport;
  }

  synchronized McpHealth health() {
    return health;
  }

  synchronized Future<Void> connect() {
    if (closed) {
      return Future.failedFuture(new IllegalStateException("MCP source '" + config.name() + "' is closed"));
    }
    if (client != null) {
      return Future.succeededFuture();
    }
    if (connecting != null) {
      return connecting;
    }
    Promise<Void> done = Promise.promise();
    connecting = done.future();
    // process start, secret reads and the initialize handshake may block: keep them off the event loop
    vertx.<McpClients.Created>executeBlocking(() -> {
      McpClients.Created created = McpClients.create(config, toolsChanged);
      try {
        Mono<?> initialize = created.client().initialize();
        if (created.stdio() != null) {
          // a server that dies while starting fails the attempt at once, not when the request timeout runs out;
          // the watch outlives a successful initialize (suppressCancel), it reports a later exit
          Mono<Object> exit = Mono.fromFuture(created.stdio().exited(), true)
              .flatMap(code -> Mono.error(new ServerExitedException(code)));
          initialize = Mono.firstWithSignal(initialize, exit);
        }
        initialize.block(config.startupTimeout());
      } catch (RuntimeException e) {
        closeQuietly(created.client());
        throw e;
      }
      return created;
    }, false).onComplete(ar -> {
      synchronized (this) {
        connecting = null;
        if (ar.succeeded() && !closed) {
          client = ar.result().client();
          transport = ar.result().transport();
          attempts = 0;
          health = new McpHealth(config.name(), true, health.lastError(), System.currentTimeMillis(), 0);
          if (ar.result().stdio() != null) {
            watchProcess(ar.result());
          }
          done.complete();
          return;
        }
        if (ar.succeeded()) {
          closeQuietly(ar.result().client());
          done.fail("MCP source '" + config.name() + "' is closed");
          return;
        }
        String error = describe(ar.cause());
        markUnhealthy(error);
        scheduleReconnect();
        done.fail(new IllegalStateException("could not connect to MCP server '" + config.name() + "': " + error,
            ar.cause()));
      }
    });
    return connecting;
  }

  /**
   * After a first attempt failed with {@code first}: while the server refuses connections (it is
   * still starting), tries again after each backoff until {@code startupTimeout} has passed. Any
   * other failure (credentials refused, a process that exited) fails at once.
   */
  Future<Void> connectWhileStarting(Throwable first) {
    return retryBefore(first, System.currentTimeMillis() + config.startupTimeout().toMillis());
  }

  private Future<Void> retryBefore(Throwable failure, long deadline) {
    long left = deadline - System.currentTimeMillis();
    if (left <= 0 || !McpOutcomes.stillStarting(failure)) {
      return Future.failedFuture(failure);
    }
    Promise<Void> again = Promise.promise();
    vertx.setTimer(Math.max(1, Math.min(untilReconnect(), left)),
        t -> connect().recover(err -> retryBefore(err, deadline)).onComplete(again));
    return again.future();
  }

  /**
   * How long until the session could be back: until the next reconnect attempt, or the first backoff
   * while an attempt runs; 0 when connected.
   */
  synchronized long untilReconnect() {
    if (client != null) {
      return 0;
    }
    if (reconnectTimer >= 0) {
      return Math.max(1, reconnectAt - System.currentTimeMillis());
    }
    return Math.max(1, config.initialBackoff().toMillis());
  }

  /** Starts a connect attempt unless one is running or the backoff says to wait, so calls cannot defeat the backoff. */
  synchronized void nudge() {
    if (client == null && connecting == null && reconnectTimer < 0 && !closed) {
      connect();
    }
  }

  /** Called when a request proved the session unusable, or the server process exited. */
  void lost(McpAsyncClient which, String reason) {
    synchronized (this) {
      if (which != client || client == null) {
        return;
      }
      client = null;
      markUnhealthy(reason);
      scheduleReconnect();
    }
    LOG.warn("MCP server '{}' went away: {}", config.name(), health().lastError());
    closeQuietly(which);
  }

  synchronized Future<Void> close() {
    closed = true;
    if (reconnectTimer >= 0) {
      vertx.cancelTimer(reconnectTimer);
      reconnectTimer = -1;
    }
    McpAsyncClient c = client;
    client = null;
    health = new McpHealth(config.name(), false, "closed", System.currentTimeMillis(), attempts);
    if (c == null) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(() -> {
      try {
        c.closeGracefully().block(config.requestTimeout());
      } catch (RuntimeException ignored) {
        c.close();
      }
      return null;
    }, false);
  }

  String describe(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root instanceof ServerExitedException) {
      return root.getMessage();
    }
    String prefix = "";
    for (Throwable c = t; c != null && c != root; c = c.getCause()) {
      if (c instanceof McpLiveness.ServerGoneException) {
        prefix = c.getMessage() + ": ";
      }
    }
    String msg = root.getMessage() == null ? root.getClass().getSimpleName()
        : root.getClass().getSimpleName() + ": " + root.getMessage();
    return Redaction.scrub(prefix + msg);
  }

  private void markUnhealthy(String error) {
    String scrubbed = Redaction.scrub(error);
    long since = health.healthy() ? System.currentTimeMillis() : health.since();
    health = new McpHealth(config.name(), false, scrubbed, since, attempts);
  }

  private void scheduleReconnect() {
    if (closed || reconnectTimer >= 0) {
      return;
    }
    long initial = Math.max(1, config.initialBackoff().toMillis());
    long delay = (long) Math.min(initial * Math.pow(2, Math.min(attempts, 20)), config.maxBackoff().toMillis());
    attempts++;
    health = new McpHealth(config.name(), false, health.lastError(), health.since(), attempts);
    reconnectAt = System.currentTimeMillis() + Math.max(1, delay);
    reconnectTimer = vertx.setTimer(Math.max(1, delay), id -> {
      synchronized (this) {
        reconnectTimer = -1;
      }
      connect();
    });
  }

  private void watchProcess(McpClients.Created created) {
    created.stdio().exited().thenAccept(code -> lost(created.client(), ServerExitedException.describe(code)));
  }

  /** The stdio server's process ended; its message is the whole story, so it is reported without a class name. */
  static final class ServerExitedException extends RuntimeException {
    ServerExitedException(int code) {
      super(describe(code), null, false, false);
    }

    static String describe(int code) {
      return code < 0 ? "the server process exited" : "the server process exited with code " + code;
    }
  }

  private static void closeQuietly(McpAsyncClient c) {
    try {
      c.closeGracefully().subscribe(v -> { }, e -> { });
    } catch (RuntimeException ignored) {
      // already closing
    }
  }
}
