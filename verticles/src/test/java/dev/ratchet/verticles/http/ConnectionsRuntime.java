package dev.ratchet.verticles.http;

import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.connectors.provider.composio.ComposioToolProvider;
import dev.ratchet.connectors.provider.composio.FakeComposio;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.Ratchet;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A runtime serving the connections of a Composio provider that talks to the local Composio
 * protocol server, with users alice and bob (each their own caller), an operator and a viewer.
 */
final class ConnectionsRuntime implements AutoCloseable {

  static final String PASSWORD = "correct horse battery staple";

  final Vertx vertx = Vertx.vertx();
  final FakeComposio composio = new FakeComposio();
  final Ratchet ratchet;
  final HttpServerVerticle server;

  ConnectionsRuntime(TestRedis redis) {
    int port = composio.start(vertx);
    ratchet = await(Ratchet.deploy(vertx, RatchetOptions.create().redisUrl(redis.url()).keyPrefix(redis.keyPrefix())));
    String hash = PasswordHash.hashPassword(PASSWORD.toCharArray(), 1_000);
    HttpOptions options = HttpOptions.create().port(0).host("127.0.0.1")
        .user("alice", Role.APPROVER, hash, "alice")
        .user("bob", Role.APPROVER, hash, "bob")
        .user("olga", Role.APPROVER, hash, "olga", List.of("*"))
        .user("vic", Role.VIEWER, hash, "vic");
    server = new HttpServerVerticle(ratchet, options).providers(Map.of("composio", ComposioToolProvider.create(vertx,
        ToolProviderOptions.apiKey(Secret.of(FakeComposio.KEY)).baseUrl("http://127.0.0.1:" + port))));
    await(vertx.deployVerticle(server));
  }

  String baseUrl() {
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
