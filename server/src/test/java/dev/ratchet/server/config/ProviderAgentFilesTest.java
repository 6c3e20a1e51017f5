package dev.ratchet.server.config;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.Connections;
import dev.ratchet.connectors.provider.arcade.FakeArcade;
import dev.ratchet.connectors.provider.composio.FakeComposio;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.host.FreePorts;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Composio and Arcade entries of agent files, against local servers that speak their APIs: the
 * allowed tools of the named toolkits are offered with their pins, and every mistake is reported
 * with its file, line and field before anything is served.
 */
class ProviderAgentFilesTest extends AgentFilesFixture {

  private Connections connections;

  @BeforeEach
  void setUp() throws IOException {
    int composio = new FakeComposio().start(vertx);
    int arcade = new FakeArcade().start(vertx);
    connections = Connections.of(
        provider("composio-main", "composio", composio, FakeComposio.KEY),
        provider("arcade-main", "arcade", arcade, FakeArcade.KEY),
        Connection.of("composio-keyless", "composio", new JsonObject(), Map.of()),
        Connection.of("shop-api", "openapi", new JsonObject().put("baseUrl", "http://127.0.0.1:1"), Map.of()),
        provider("composio-down", "composio", FreePorts.next(), FakeComposio.KEY));
  }

  @Test
  void aComposioEntryOffersTheAllowedToolsOfItsToolkitsWithTheirPins() throws IOException {
    write("github.yaml", """
        agent: github-helper
        tools:
          - composio: { connection: composio-main, toolkits: [github], allow: ["GITHUB_GET_*", GITHUB_CREATE_ISSUE] }
            pin:
              GITHUB_CREATE_ISSUE: { approval: always }
              GITHUB_GET_ISSUE: { effect: idempotent_write, approval: never }
        """);
    LoadedAgents loaded = await(AgentFiles.load(vertx, agents, connections, models));
    AgentDefinition agent = loaded.agents().get(0);
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, agent));
    assertThat(catalog.entries().stream().map(e -> e.tool().name()))
        .containsExactlyInAnyOrder("GITHUB_GET_REPO", "GITHUB_GET_ISSUE", "GITHUB_CREATE_ISSUE");
    assertThat(catalog.get("GITHUB_CREATE_ISSUE").approval().isNever()).isFalse();
    assertThat(catalog.get("GITHUB_GET_REPO").tool().effectClass()).isEqualTo(EffectClass.READ);
    assertThat(catalog.get("GITHUB_GET_ISSUE").tool().effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(catalog.origin(catalog.get("GITHUB_CREATE_ISSUE").sourceName()))
        .isEqualTo(agents.resolve("github.yaml") + ":3");
    await(loaded.close());
  }

  @Test
  void anArcadeEntryRunsAsItsNamedUserWithScopePerAuthor() throws IOException {
    write("arcade.yaml", """
        agent: arcade-helper
        tools:
          - arcade: { connection: arcade-main, toolkits: [github], allow: ["Github.*"], scope: per-author, user: ops@example.com }
        """);
    LoadedAgents loaded = await(AgentFiles.load(vertx, agents, connections, models));
    ToolCatalog catalog = await(ToolCatalog.resolve(vertx, loaded.agents().get(0)));
    assertThat(catalog.entries().stream().map(e -> e.tool().name()))
        .containsExactlyInAnyOrder("Github_GetRepository", "Github_CreateIssue", "Github_Flaky");
    await(loaded.close());
  }

  @Test
  void anAllowPatternThatMatchesNoToolNamesTheToolkits() throws IOException {
    write("a.yaml", """
        agent: a
        tools:
          - composio: { connection: composio-main, toolkits: [github], allow: [GITHUB_GET_REPO, "JIRA_*"] }
        """);
    assertThat(errors()).containsExactly(file("a.yaml") + ":3: tools[0].composio.allow[1]: 'JIRA_*' matches no tool"
        + " of the composio catalogue for toolkits github");
  }

  @Test
  void aPinForAToolTheEntryDoesNotOfferIsRefused() throws IOException {
    write("a.yaml", """
        agent: a
        tools:
          - composio: { connection: composio-main, toolkits: [github], allow: [GITHUB_GET_REPO] }
            pin:
              GMAIL_SEND_EMAIL: { approval: always }
        """);
    assertThat(errors()).containsExactly(file("a.yaml") + ":5: tools[0].pin.GMAIL_SEND_EMAIL: 'GMAIL_SEND_EMAIL' is"
        + " not among the tools this entry offers (GITHUB_GET_REPO)");
  }

  @Test
  void scopePerAuthorWithoutAUserAndAUserWithoutItAreRefused() throws IOException {
    write("a.yaml", """
        agent: a
        tools:
          - arcade: { connection: arcade-main, allow: ["Github.*"], scope: per-author }
        """);
    write("b.yaml", """
        agent: b
        tools:
          - composio:
              connection: composio-main
              allow: [GITHUB_GET_REPO]
              user: ops@example.com
        """);
    assertThat(errors()).containsExactlyInAnyOrder(
        file("a.yaml") + ":3: tools[0].arcade.scope: scope per-author runs every call as one provider user: name it"
            + " with 'user'",
        file("b.yaml") + ":6: tools[0].composio.user: 'user' is for scope per-author; with caller-supplied each call"
            + " runs as its session's caller");
  }

  @Test
  void aConnectionOfAnotherConnectorOrWithoutAnApiKeyIsRefused() throws IOException {
    write("a.yaml", """
        agent: a
        tools:
          - composio: { connection: shop-api, allow: [GITHUB_GET_REPO] }
          - composio: { connection: composio-keyless, allow: [GITHUB_GET_REPO] }
          - arcade: { connection: nowhere, allow: ["Github.*"] }
        """);
    assertThat(errors()).containsExactly(
        file("a.yaml") + ":3: tools[0].composio.connection: connection 'shop-api' is for the connector 'openapi', not"
            + " for a tool provider (composio or arcade)",
        file("a.yaml") + ":4: tools[1].composio.connection: connection 'composio-keyless' has no credential 'apiKey'"
            + " (the composio API key)",
        file("a.yaml") + ":5: tools[2].arcade.connection: connection 'nowhere' is not configured in the connections"
            + " file or RATCHET_CONNECTION_* variables (configured: composio-main, arcade-main,"
            + " composio-keyless, shop-api, composio-down)");
  }

  @Test
  void aProviderThatDoesNotAnswerIsReportedWithTheConnection() throws IOException {
    write("a.yaml", """
        agent: a
        tools:
          - composio: { connection: composio-down, allow: [GITHUB_GET_REPO] }
        """);
    List<String> errors = errors();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).startsWith(file("a.yaml") + ":3: tools[0].composio: the composio catalogue of"
        + " connection 'composio-down' could not be listed (");
    assertThat(String.join("\n", errors)).doesNotContain(FakeComposio.KEY);
  }

  @Test
  void anUnknownFieldOfAProviderEntryNamesTheKnownFields() throws IOException {
    write("a.yaml", """
        agent: a
        tools:
          - composio: { connection: composio-main, allow: [GITHUB_GET_REPO], toolkit: github }
        """);
    assertThat(errors()).containsExactly(file("a.yaml") + ":3: tools[0].composio: unknown field 'toolkit' (known:"
        + " connection, toolkits, allow, scope, user)");
  }

  private static Connection provider(String name, String connector, int port, String key) {
    return Connection.of(name, connector, new JsonObject().put("baseUrl", "http://127.0.0.1:" + port),
        Map.of("apiKey", Secret.of(key)));
  }

  private List<String> errors() {
    return errors(connections);
  }
}
