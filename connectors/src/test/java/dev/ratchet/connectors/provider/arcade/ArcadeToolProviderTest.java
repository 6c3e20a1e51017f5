package dev.ratchet.connectors.provider.arcade;

import dev.ratchet.connectors.provider.AuthStatus;
import dev.ratchet.connectors.provider.Authorization;
import dev.ratchet.connectors.provider.AuthorizeOptions;
import dev.ratchet.connectors.provider.ConnectionRef;
import dev.ratchet.connectors.provider.ConnectionScope;
import dev.ratchet.connectors.provider.FakeProviderTestBase;
import dev.ratchet.connectors.provider.ListConnectionsOptions;
import dev.ratchet.connectors.provider.ListToolsOptions;
import dev.ratchet.connectors.provider.ProviderConnection;
import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.connectors.provider.ProviderPage;
import dev.ratchet.connectors.provider.ProviderToolConfig;
import dev.ratchet.connectors.provider.ProviderToolInfo;
import dev.ratchet.connectors.provider.ProviderToolSource;
import dev.ratchet.connectors.provider.ProviderToolkit;
import dev.ratchet.connectors.provider.ResolveOptions;
import dev.ratchet.connectors.provider.ToolProvider;
import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.TIMEOUT_SECONDS;
import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArcadeToolProviderTest extends FakeProviderTestBase<FakeArcade> {

  ArcadeToolProviderTest() {
    super(FakeArcade::new);
  }

  private ToolProviderOptions options() {
    return ToolProviderOptions.apiKey(Secret.of(FakeArcade.KEY)).baseUrl("http://127.0.0.1:" + port + "/");
  }

  private ToolProvider provider(ToolProviderOptions options) {
    return ArcadeToolProvider.create(vertx, options);
  }

  @Test
  void listsAllowedToolsPageByPageAndFindsToolkits() {
    ToolProvider arcade = provider(options().allowedToolkits("github", "slack"));
    List<ProviderToolInfo> all = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      ProviderPage<ProviderToolInfo> page = await(arcade.listTools(ListToolsOptions.all().withPageSize(2).withCursor(cursor)));
      all.addAll(page.items());
      cursor = page.nextCursor();
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(3);
    assertThat(all).extracting(ProviderToolInfo::slug).containsExactly(
        "Github.GetRepository", "Github.CreateIssue", "Github.Flaky", "Slack.SendMessage");
    assertThat(await(arcade.listToolkits()).items()).extracting(ProviderToolkit::slug).containsExactly("Github", "Slack");
    assertThat(await(arcade.listTools(ListToolsOptions.all().withSearch("issue"))).items())
        .extracting(ProviderToolInfo::slug).containsExactly("Github.CreateIssue");
    assertThat(await(arcade.getToolSchema("Gmail.SendEmail"))).isNull();
  }

  @Test
  void schemaAndEffectClassComeFromTheDefinition() {
    ToolProvider arcade = provider(options());
    JsonObject schema = await(arcade.getToolSchema("Github.CreateIssue"));
    assertThat(schema.getJsonArray("required").getList()).containsExactly("repo");
    assertThat(schema.getJsonObject("properties").getJsonObject("labels").getJsonObject("items").getString("type"))
        .isEqualTo("string");

    Map<String, Tool> tools = await(arcade.resolveTools(List.of("Github.GetRepository", "Github.CreateIssue",
        "Slack.SendMessage"), Map.of(), ResolveOptions.author("alice")));
    assertThat(tools.get("Github.GetRepository").name()).isEqualTo("Github_GetRepository");
    assertThat(tools.get("Github.GetRepository").effectClass()).isEqualTo(EffectClass.READ);
    assertThat(tools.get("Github.CreateIssue").effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(tools.get("Github.CreateIssue").approvalRule().reasonToAsk(new JsonObject())).isNotNull();
    assertThat(tools.get("Slack.SendMessage").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(tools.get("Slack.SendMessage").approvalRule().isNever()).isTrue();
    assertThat(tools.get("Slack.SendMessage").source()).isEqualTo("provider:arcade");
  }

  @Test
  void toolsRunAsTheIdentityTheyWereResolvedFor() {
    ToolProvider arcade = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    Tool asAlice = await(arcade.resolveTools(List.of("Github.CreateIssue"), Map.of(),
        ResolveOptions.caller("author", "alice"))).get("Github.CreateIssue");
    Tool asBob = await(arcade.resolveTools(List.of("Github.CreateIssue"), Map.of(),
        ResolveOptions.caller("author", "bob"))).get("Github.CreateIssue");

    ToolResult ok = await(asAlice.invoke(of(new JsonObject().put("repo", "acme/app"))));
    assertThat(ok.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(((JsonObject) ok.value()).getString("user")).isEqualTo("alice");

    // bob has not authorized: his call is refused with the link, it never runs with alice's grant
    ToolResult needsAuth = await(asBob.invoke(of(new JsonObject().put("repo", "acme/app"))));
    assertThat(needsAuth.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(needsAuth.error()).contains("https://auth.arcade.example/auth_");
    assertThat(fake.executions).extracting(e -> e.getString("user_id")).containsExactly("alice");

    assertThatThrownBy(() -> await(arcade.resolveTools(List.of("Github.CreateIssue"), Map.of(),
        ResolveOptions.author("author")))).isInstanceOf(ProviderException.class)
        .hasMessageContaining("no resource id");
  }

  @Test
  void retryableProviderErrorsAreRetryableAndUnknownToolsFailToResolve() {
    ToolProvider arcade = provider(options());
    Tool flaky = await(arcade.resolveTools(List.of("Github.Flaky"), Map.of(), ResolveOptions.author("alice")))
        .get("Github.Flaky");
    ToolResult r = await(flaky.invoke(of(new JsonObject())));
    assertThat(r.retryable()).isTrue();
    assertThat(r.retryAfterMillis()).isEqualTo(1500);
    assertThat(r.error()).contains("GitHub is busy");

    assertThatThrownBy(() -> arcade.resolveTools(List.of("Github.Nope"), Map.of(), ResolveOptions.author("alice"))
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .hasMessageContaining("no tool Github.Nope");
  }

  @Test
  void authorizationFlowAndConnectionsAreScopedToTheCaller() {
    ToolProvider arcade = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    Authorization auth = await(arcade.authorize(AuthorizeOptions.tool("Github.CreateIssue",
        ResolveOptions.caller("author", "bob"))));
    assertThat(auth.url()).isEqualTo("https://auth.arcade.example/" + auth.authId());
    assertThat(fake.authFlows.get(auth.authId()).getString("user_id")).isEqualTo("bob");
    assertThat(await(arcade.getAuthStatus(auth.authId())).state()).isEqualTo(AuthStatus.PENDING);
    fake.authFlows.get(auth.authId()).put("status", "completed");
    assertThat(await(arcade.getAuthStatus(auth.authId())).completed()).isTrue();

    List<ProviderConnection> bobs = await(arcade.listConnections(new ListConnectionsOptions(
        ResolveOptions.caller("author", "bob"), "github"))).items();
    assertThat(bobs).extracting(ProviderConnection::id).containsExactly("uc_bob");
    assertThat(await(arcade.listConnectionFields("github"))).isEmpty();
    assertThat(await(arcade.getHealth()).healthy()).isTrue();
  }

  @Test
  void aRevokedConnectionIsReportedDisconnectedAndItsToolsStopRunning() {
    ToolProvider arcade = provider(options());
    Tool create = await(arcade.resolveTools(List.of("Github.CreateIssue"), Map.of(), ResolveOptions.author("alice")))
        .get("Github.CreateIssue");
    ResolveOptions alice = ResolveOptions.author("alice");
    assertThat(await(arcade.getConnectionStatus(List.of(new ConnectionRef("uc_alice", "github")), alice)))
        .containsEntry("uc_alice", true);

    await(arcade.revokeConnection("uc_alice", alice));

    assertThat(await(arcade.getConnectionStatus(List.of(new ConnectionRef("uc_alice", "github")), alice)))
        .containsEntry("uc_alice", false);
    ToolResult r = await(create.invoke(of(new JsonObject().put("repo", "acme/app"))));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(fake.executions).isEmpty();
  }

  @Test
  void anotherCallersConnectionReadsAsMissingAndCannotBeRevoked() {
    assertAnotherCallersConnectionIsHidden(provider(options()), "uc_bob", "uc_nobody", ResolveOptions.author("alice"),
        ResolveOptions.author("bob"));
  }

  @Test
  void aProviderToolSourceOffersTheSelectedToolsForOneIdentity() {
    ToolProvider arcade = provider(options());
    ProviderToolSource source = ProviderToolSource.create(arcade, List.of("Github.GetRepository"), Map.of(),
        ResolveOptions.author("alice"));
    assertThat(source.name()).isEqualTo("provider:arcade");
    List<Tool> tools = await(source.tools(vertx));
    assertThat(tools).extracting(Tool::name).containsExactly("Github_GetRepository");
    assertThat(await(tools.get(0).invoke(of(new JsonObject().put("repo", "a/b")))).outcome())
        .isEqualTo(Outcome.SUCCEEDED);
  }

  @Test
  void aPerCallerSourceRunsEachCallWithItsSessionsCallerAsArcadeUser() {
    fake.authorized.put("bob", java.util.concurrent.ConcurrentHashMap.newKeySet());
    fake.authorized.get("bob").add("Github.GetRepository");
    ToolProvider arcade = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    Tool repo = await(ProviderToolSource.create(arcade, List.of("Github.GetRepository"), Map.of(),
        ResolveOptions.author("author")).tools(vertx)).get(0);
    for (String caller : List.of("alice", "bob", "alice")) {
      dev.ratchet.runtime.ToolInvocation i = of(new JsonObject().put("repo", "a/b"));
      assertThat(await(repo.invoke(new dev.ratchet.runtime.ToolInvocation(i.sessionId(), i.callId(), i.idempotencyKey(),
          i.attempt(), i.arguments(), i.deadline(), caller))).outcome()).isEqualTo(Outcome.SUCCEEDED);
    }
    assertThat(fake.executions).extracting(e -> e.getString("user_id")).containsExactly("alice", "bob", "alice");
    assertThatThrownBy(() -> repo.invoke(of(new JsonObject().put("repo", "a/b")))
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(dev.ratchet.runtime.ToolNotSentException.class).hasMessageContaining("no resource id");
    assertThat(fake.executions).hasSize(3);
  }

  @Test
  void aSearchFillsItsPageFromLaterPagesOfTheCatalogue() {
    ToolProvider arcade = provider(options());
    ProviderPage<ProviderToolInfo> first = await(arcade.listTools(ListToolsOptions.all().withSearch("send").withPageSize(1)));
    assertThat(first.items()).extracting(ProviderToolInfo::slug).containsExactly("Slack.SendMessage");
    ProviderPage<ProviderToolInfo> second = await(arcade.listTools(ListToolsOptions.all().withSearch("send").withPageSize(1)
        .withCursor(first.nextCursor())));
    assertThat(second.items()).extracting(ProviderToolInfo::slug).containsExactly("Gmail.SendEmail");
    assertThat(second.nextCursor()).isNull();
  }

  @Test
  void anUpstreamServerErrorDuringAWriteIsAnUnknownOutcomeNotASafeRetry() {
    ToolProvider arcade = provider(options());
    Map<String, Tool> tools = await(arcade.resolveTools(List.of("Github.CreateIssue", "Github.GetRepository"), Map.of(),
        ResolveOptions.author("alice")));
    JsonObject serverError = new JsonObject().put("kind", "UPSTREAM_RUNTIME_SERVER_ERROR").put("can_retry", true)
        .put("message", "GitHub answered 502").put("status_code", 502);

    fake.nextErrors.add(serverError);
    ToolResult write = await(tools.get("Github.CreateIssue").invoke(of(new JsonObject().put("repo", "acme/app"))));
    assertThat(write.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(write.error()).contains("GitHub answered 502");

    fake.nextErrors.add(serverError);
    ToolResult read = await(tools.get("Github.GetRepository").invoke(of(new JsonObject().put("repo", "acme/app"))));
    assertThat(read.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(read.retryable()).isTrue();

    fake.nextErrors.add(new JsonObject().put("kind", "TOOL_RUNTIME_RETRY").put("can_retry", true)
        .put("message", "title too long").put("additional_prompt_content", "use at most 80 characters"));
    ToolResult retry = await(tools.get("Github.CreateIssue").invoke(of(new JsonObject().put("repo", "acme/app"))));
    assertThat(retry.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(retry.retryable()).isFalse();
    assertThat(retry.error()).contains("title too long").contains("use at most 80 characters");
  }

  @Test
  void eachExecutionCarriesTheCallsIdempotencyKey() {
    ToolProvider arcade = provider(options());
    Tool create = await(arcade.resolveTools(List.of("Github.CreateIssue"), Map.of(), ResolveOptions.author("alice")))
        .get("Github.CreateIssue");
    dev.ratchet.runtime.ToolInvocation call = of(new JsonObject().put("repo", "acme/app"));
    await(create.invoke(call));
    await(create.invoke(call));
    assertThat(fake.idempotencyKeys).containsExactly(call.idempotencyKey().value(), call.idempotencyKey().value());
  }

  @Test
  void anExecutionRefusedForWantOfAuthorizationAnswersWithTheLinkToAuthorize() {
    ToolProvider arcade = provider(options());
    Tool asBob = await(arcade.resolveTools(List.of("Github.CreateIssue"), Map.of(), ResolveOptions.author("bob")))
        .get("Github.CreateIssue");
    ToolResult refused = await(asBob.invoke(of(new JsonObject().put("repo", "acme/app"))));
    assertThat(refused.outcome()).isEqualTo(Outcome.FAILED);
    JsonObject flow = fake.authFlows.values().stream().filter(f -> "bob".equals(f.getString("user_id")))
        .findFirst().orElseThrow();
    assertThat(flow.getString("tool")).isEqualTo("Github.CreateIssue");
    assertThat(refused.error()).contains(flow.getString("url"));

    fake.expiredGrants.add("alice");
    Tool asAlice = await(arcade.resolveTools(List.of("Github.CreateIssue"), Map.of(), ResolveOptions.author("alice")))
        .get("Github.CreateIssue");
    ToolResult expired = await(asAlice.invoke(of(new JsonObject().put("repo", "acme/app"))));
    assertThat(expired.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(expired.retryable()).isFalse();
    assertThat(expired.error()).contains("https://auth.arcade.example/auth_");
  }

  @Test
  void connectionsAreFoundByTheAuthProviderTheirToolkitNeedsOnWhicheverPageTheyAre() {
    for (int i = 0; i < 130; i++) {
      fake.connection(String.format("uc_a%03d", i), "alice", "slack");
    }
    fake.connection("uc_alice_google", "alice", "google");
    ToolProvider arcade = provider(options());
    ResolveOptions alice = ResolveOptions.author("alice");

    assertThat(await(arcade.listConnections(new ListConnectionsOptions(alice, "Gmail"))).items())
        .extracting(ProviderConnection::id, ProviderConnection::toolkit).containsExactly(
            org.assertj.core.groups.Tuple.tuple("uc_alice_google", "google"));
    assertThat(await(arcade.getConnectionStatus(List.of(new ConnectionRef("uc_alice", "Github"),
        new ConnectionRef("uc_alice_google", "Gmail"), new ConnectionRef("uc_alice_google", "Github")), alice)))
        .containsEntry("uc_alice", true).containsEntry("uc_alice_google", false);
    assertThat(await(arcade.getConnectionStatus(List.of(new ConnectionRef("uc_alice_google", "Gmail")), alice)))
        .containsEntry("uc_alice_google", true);

    List<String> all = new ArrayList<>();
    String cursor = null;
    do {
      ProviderPage<ProviderConnection> page = await(arcade.listConnections(new ListConnectionsOptions(alice, null)
          .withCursor(cursor)));
      page.items().forEach(c -> all.add(c.id()));
      cursor = page.nextCursor();
    } while (cursor != null);
    assertThat(all).hasSize(132).contains("uc_alice", "uc_alice_google").doesNotContain("uc_bob");

    await(arcade.revokeConnection("uc_alice_google", alice));
    assertThat(fake.connections).doesNotContainKey("uc_alice_google");
  }

  @Test
  void aConfiguredConnectionMustBeTheCallersOwnForTheToolsAuthProvider() {
    fake.connection("uc_alice_google", "alice", "google");
    ToolProvider arcade = provider(options());
    ResolveOptions alice = ResolveOptions.author("alice");
    List<String> create = List.of("Github.CreateIssue");

    Throwable bobs = failure(arcade.resolveTools(create,
        Map.of("Github.CreateIssue", ProviderToolConfig.connection("uc_bob")), alice));
    assertThat(((ProviderException) bobs).code()).isEqualTo("CONNECTION_NOT_OWNED");
    Throwable otherProvider = failure(arcade.resolveTools(create,
        Map.of("Github.CreateIssue", ProviderToolConfig.connection("uc_alice_google")), alice));
    assertThat(((ProviderException) otherProvider).code()).isEqualTo("CONNECTION_NOT_OWNED");

    Tool own = await(arcade.resolveTools(create, Map.of("Github.CreateIssue", ProviderToolConfig.connection("uc_alice")),
        alice)).get("Github.CreateIssue");
    assertThat(await(own.invoke(of(new JsonObject().put("repo", "a/b")))).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(fake.executions).extracting(e -> e.getString("user_id")).containsExactly("alice");
  }

  @Test
  void aCallerSuppliedToolRunsAsTheResourceIdThenTheNamedUserThenTheSharedIdentity() {
    List<String> repo = List.of("Github.GetRepository");
    ToolProvider arcade = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    ToolProvider shared = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED).sharedIdentity("team"));

    assertThat(boundTo(arcade, new ResolveOptions("author", "alice", null, "carol"))).isEqualTo("alice");
    assertThat(boundTo(arcade, new ResolveOptions("author", null, null, "carol"))).isEqualTo("carol");
    assertThat(boundTo(shared, new ResolveOptions("author", null, null, "carol"))).isEqualTo("carol");
    assertThat(boundTo(shared, ResolveOptions.author("author"))).isEqualTo("team");
    // never the author's own connections, and never anybody's when nothing names a user
    Throwable nobody = failure(arcade.resolveTools(repo, Map.of(), ResolveOptions.author("author")));
    assertThat(((ProviderException) nobody).code()).isEqualTo("NO_IDENTITY");
    // the per-author scope runs as the author whatever else is given
    assertThat(boundTo(arcade, new ResolveOptions("author", "alice", ConnectionScope.PER_AUTHOR, "carol")))
        .isEqualTo("author");
  }

  private static String boundTo(ToolProvider provider, ResolveOptions options) {
    return ((dev.ratchet.connectors.provider.impl.ProviderTool) await(provider.resolveTools(List.of("Github.GetRepository"),
        Map.of(), options)).get("Github.GetRepository")).boundTo();
  }
}
