package dev.ratchet.verticles.http;

import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.connectors.provider.composio.ComposioToolProvider;
import dev.ratchet.connectors.provider.composio.FakeComposio;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.testing.TestRedis;

import java.util.List;
import java.util.Map;

/**
 * A runtime serving the connections of a Composio provider that talks to the local Composio
 * protocol server, with users alice and bob (each their own caller), an operator and a viewer.
 */
final class ConnectionsRuntime extends HttpRuntime {

  static final String PASSWORD = "correct horse battery staple";

  final FakeComposio composio = new FakeComposio();

  ConnectionsRuntime(TestRedis redis) {
    super(redis, o -> o);
    int port = composio.start(vertx);
    String hash = PasswordHash.hashPassword(PASSWORD.toCharArray(), 1_000);
    HttpOptions options = HttpOptions.create().port(0).host("127.0.0.1")
        .user("alice", Role.APPROVER, hash, "alice")
        .user("bob", Role.APPROVER, hash, "bob")
        .user("olga", Role.APPROVER, hash, "olga", List.of("*"))
        .user("vic", Role.VIEWER, hash, "vic");
    serve(new HttpServerVerticle(ratchet, options).providers(Map.of("composio", ComposioToolProvider.create(vertx,
        ToolProviderOptions.apiKey(Secret.of(FakeComposio.KEY)).baseUrl("http://127.0.0.1:" + port)))));
  }
}
