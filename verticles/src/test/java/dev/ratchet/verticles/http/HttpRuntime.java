package dev.ratchet.verticles.http;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;

import java.util.function.UnaryOperator;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A Ratchet of a test, on its own Vert.x and the test's Redis, serving HTTP on a free port of
 * 127.0.0.1 once the subclass has registered its agents and deployed {@link #serve its server}.
 */
public abstract class HttpRuntime implements AutoCloseable {

  protected final Vertx vertx = Vertx.vertx();
  protected final RatchetNode ratchet;
  protected HttpServerVerticle server;

  /** The runtime on {@code redis}, with the options changed by {@code tune}. */
  protected HttpRuntime(TestRedis redis, UnaryOperator<RatchetOptions> tune) {
    ratchet = await(RatchetNode.deploy(vertx, tune.apply(RatchetOptions.create().redisUrl(redis.url())
        .keyPrefix(redis.keyPrefix()))));
  }

  /** A runtime serving one agent over HTTP with these options (their port and host are set here). */
  public static HttpRuntime serving(TestRedis redis, UnaryOperator<RatchetOptions> tune, AgentDefinition agent,
                                    HttpOptions http) {
    HttpRuntime runtime = new HttpRuntime(redis, tune) { };
    await(runtime.ratchet.register(agent));
    runtime.serve(new HttpServerVerticle(runtime.ratchet, http.port(0).host("127.0.0.1")));
    return runtime;
  }

  /** Deploys the HTTP server; its deployment id. */
  protected String serve(HttpServerVerticle http) {
    server = http;
    return await(vertx.deployVerticle(http));
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  @Override
  public void close() {
    try {
      await(ratchet.close());
    } finally {
      await(vertx.close());
    }
  }
}
