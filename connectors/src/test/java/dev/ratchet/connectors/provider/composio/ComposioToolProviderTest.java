package dev.ratchet.connectors.provider.composio;

import dev.ratchet.connectors.provider.AuthStatus;
import dev.ratchet.connectors.provider.Authorization;
import dev.ratchet.connectors.provider.AuthorizeOptions;
import dev.ratchet.connectors.provider.ConnectionField;
import dev.ratchet.connectors.provider.ConnectionRef;
import dev.ratchet.connectors.provider.ConnectionScope;
import dev.ratchet.connectors.provider.FakeProviderTestBase;
import dev.ratchet.connectors.provider.ListConnectionsOptions;
import dev.ratchet.connectors.provider.ListToolsOptions;
import dev.ratchet.connectors.provider.ProviderConnection;
import dev.ratchet.connectors.provider.ProviderException;
import dev.ratchet.connectors.provider.ProviderHealth;
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
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static dev.ratchet.runtime.testing.Await.TIMEOUT_SECONDS;
import static dev.ratchet.connectors.mcp.TestInvocations.of;
import static dev.ratchet.runtime.testing.Await.await;
import static dev.ratchet.runtime.testing.Await.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ComposioToolProviderTest extends FakeProviderTestBase<FakeComposio> {

  ComposioToolProviderTest() {
    super(FakeComposio::new);
  }

  private ToolProviderOptions options() {
    return ToolProviderOptions.apiKey(Secret.of(FakeComposio.KEY)).baseUrl("http://127.0.0.1:" + port);
  }

  private ToolProvider provider(ToolProviderOptions options) {
    return ComposioToolProvider.create(vertx, options);
  }

  private static List<String> slugs(List<ProviderToolInfo> tools) {
    return tools.stream().map(ProviderToolInfo::slug).toList();
  }

  private List<ProviderToolInfo> allTools(ToolProvider provider, ListToolsOptions options) {
    List<ProviderToolInfo> all = new ArrayList<>();
    String cursor = null;
    do {
      ProviderPage<ProviderToolInfo> page = await(provider.listTools(options.withCursor(cursor)));
      all.addAll(page.items());
      cursor = page.nextCursor();
    } while (cursor != null);
    return all;
  }

  @Test
  void listsOnlyAllowedToolkitsAndTools() {
    ToolProvider composio = provider(options().allowedToolkits("github", "google*")
        .allowedTools(Map.of("github", List.of("GITHUB_GET_*", "GITHUB_CREATE_ISSUE"))));

    assertThat(await(composio.listToolkits()).items()).extracting(ProviderToolkit::slug)
        .containsExactly("github", "googledrive");
    assertThat(slugs(allTools(composio, ListToolsOptions.all().withPageSize(3))))
        .containsExactlyInAnyOrder("GITHUB_CREATE_ISSUE", "GITHUB_GET_REPO", "GITHUB_GET_ISSUE", "GOOGLEDRIVE_LIST_FILES");
    assertThat(await(composio.listTools(ListToolsOptions.toolkit("gmail"))).items()).isEmpty();
  }

  @Test
  void anythingNotAllowedCannotBeResolvedNorSeen() {
    ToolProvider composio = provider(options().allowedToolkits("github")
        .allowedTools(Map.of("github", List.of("GITHUB_GET_*"))));

    assertThat(await(composio.getToolSchema("GMAIL_SEND_EMAIL"))).isNull();
    assertThat(await(composio.getToolSchema("GITHUB_CREATE_ISSUE"))).isNull();
    assertThat(await(composio.getToolSchema("GITHUB_GET_REPO")).getJsonObject("properties")).isNotNull();
    assertThatThrownBy(() -> await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"), Map.of(),
        ResolveOptions.author("alice"))))
        .isInstanceOf(ProviderException.class).hasMessageContaining("not allowed");
    assertThat(fake.executions).isEmpty();
  }

  @Test
  void paginatesWithTheProvidersCursorAndSearches() {
    ToolProvider composio = provider(options());
    ProviderPage<ProviderToolInfo> first = await(composio.listTools(ListToolsOptions.toolkit("github").withPageSize(2)));
    assertThat(first.items()).hasSize(2);
    assertThat(first.nextCursor()).isNotNull();
    List<ProviderToolInfo> github = allTools(composio, ListToolsOptions.toolkit("github").withPageSize(2));
    assertThat(github).hasSize(7).extracting(ProviderToolInfo::toolkit).containsOnly("github");

    assertThat(slugs(await(composio.listTools(ListToolsOptions.all().withSearch("issue"))).items()))
        .containsExactlyInAnyOrder("GITHUB_CREATE_ISSUE", "GITHUB_GET_ISSUE");
  }

  @Test
  void effectClassesComeFromToolTagsUnlessTheApplicationPinsThem() {
    ToolProvider composio = provider(options());
    Map<String, Tool> tools = await(composio.resolveTools(
        List.of("GITHUB_GET_REPO", "GITHUB_CREATE_ISSUE", "SLACK_SEND_MESSAGE", "GMAIL_SEND_EMAIL"),
        Map.of("GMAIL_SEND_EMAIL", ProviderToolConfig.pin(EffectClass.NON_IDEMPOTENT_WRITE, false)),
        ResolveOptions.author("alice")));

    assertThat(tools.get("GITHUB_GET_REPO").effectClass()).isEqualTo(EffectClass.READ);
    assertThat(tools.get("GITHUB_GET_REPO").approvalRule().isNever()).isTrue();
    assertThat(tools.get("GITHUB_CREATE_ISSUE").effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(tools.get("GITHUB_CREATE_ISSUE").approvalRule().reasonToAsk(new JsonObject())).isNotNull();
    assertThat(tools.get("SLACK_SEND_MESSAGE").effectClass()).isEqualTo(EffectClass.IDEMPOTENT_WRITE);
    assertThat(tools.get("SLACK_SEND_MESSAGE").approvalRule().isNever()).isTrue();
    assertThat(tools.get("GMAIL_SEND_EMAIL").approvalRule().isNever()).isTrue();
    assertThat(tools.get("GITHUB_GET_REPO").source()).isEqualTo("provider:composio");
  }

  @Test
  void perAuthorToolsRunAsTheAgentsAuthor() {
    ToolProvider composio = provider(options());
    Tool create = await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"), Map.of(),
        ResolveOptions.caller("alice", "bob"))).get("GITHUB_CREATE_ISSUE");

    ToolResult result = await(create.invoke(of(new JsonObject().put("title", "Bug"))));
    assertThat(result.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(((JsonObject) result.value()).getString("user")).isEqualTo("alice");
    assertThat(fake.executions).hasSize(1);
    assertThat(fake.executions.get(0).getString("account")).isEqualTo("ca_alice_github");
  }

  @Test
  void callerSuppliedToolsRunAsTheSessionsCallerAndFailWithoutOne() {
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));

    assertThatThrownBy(() -> await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"), Map.of(),
        ResolveOptions.author("alice"))))
        .isInstanceOf(ProviderException.class).hasMessageContaining("no resource id");

    Tool asBob = await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"), Map.of(),
        ResolveOptions.caller("alice", "bob"))).get("GITHUB_CREATE_ISSUE");
    await(asBob.invoke(of(new JsonObject().put("title", "x"))));
    assertThat(fake.executions).extracting(e -> e.getString("user_id")).containsExactly("bob");
  }

  private static dev.ratchet.runtime.ToolInvocation as(String callerId, JsonObject args) {
    dev.ratchet.runtime.ToolInvocation i = of(args);
    return new dev.ratchet.runtime.ToolInvocation(i.sessionId(), i.callId(), i.idempotencyKey(), i.attempt(),
        i.arguments(), i.deadline(), callerId);
  }

  @Test
  void oneCallerSuppliedSourceRunsEachCallAsItsSessionsCaller() {
    fake.account("ca_acme_gmail", "acme", "gmail", "ACTIVE");
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    ProviderToolSource source = ProviderToolSource.create(composio, List.of("GITHUB_CREATE_ISSUE", "GMAIL_SEND_EMAIL"),
        Map.of(), ResolveOptions.author("author"));
    assertThat(source.isPerCaller()).isTrue();
    List<Tool> tools = await(source.tools(vertx));
    assertThat(tools).extracting(Tool::name).containsExactly("GITHUB_CREATE_ISSUE", "GMAIL_SEND_EMAIL");
    assertThat(tools.get(1).effectClass()).isEqualTo(EffectClass.NON_IDEMPOTENT_WRITE);
    assertThat(fake.executions).isEmpty();

    Tool issue = tools.get(0);
    assertThat(await(issue.invoke(as("alice", new JsonObject().put("title", "a")))).outcome())
        .isEqualTo(Outcome.SUCCEEDED);
    assertThat(await(issue.invoke(as("bob", new JsonObject().put("title", "b")))).outcome())
        .isEqualTo(Outcome.SUCCEEDED);
    assertThat(await(issue.invoke(as("alice", new JsonObject().put("title", "c")))).outcome())
        .isEqualTo(Outcome.SUCCEEDED);
    assertThat(fake.executions).extracting(e -> e.getString("user_id") + "/" + e.getString("account"))
        .containsExactly("alice/ca_alice_github", "bob/ca_bob_github", "alice/ca_alice_github");
    assertThat(await(tools.get(1).invoke(as("acme", new JsonObject()))).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(fake.executions.get(3).getString("account")).isEqualTo("ca_acme_gmail");

    // bob has no gmail connection: the provider refuses him, his call never borrows acme's or alice's
    ToolResult bobs = await(tools.get(1).invoke(as("bob", new JsonObject())));
    assertThat(bobs.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(fake.executions).hasSize(4);
  }

  @Test
  void aCallerSuppliedCallWithoutACallerDoesNotRunUnlessASharedIdentityIsNamed() {
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    Tool issue = await(ProviderToolSource.perCaller(composio, List.of("GITHUB_CREATE_ISSUE"), Map.of()).tools(vertx))
        .get(0);
    int before = fake.requests.get();
    assertThatThrownBy(() -> issue.invoke(as(null, new JsonObject())).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ToolNotSentException.class).hasMessageContaining("no resource id");
    assertThat(fake.requests.get()).isEqualTo(before);
    assertThat(fake.executions).isEmpty();

    fake.account("ca_shared", "shared-demo", "github", "ACTIVE");
    ToolProvider shared = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED).sharedIdentity("shared-demo"));
    Tool sharedIssue = await(ProviderToolSource.perCaller(shared, List.of("GITHUB_CREATE_ISSUE"), Map.of()).tools(vertx)
        ).get(0);
    await(sharedIssue.invoke(as(null, new JsonObject())));
    await(sharedIssue.invoke(as("bob", new JsonObject())));
    assertThat(fake.executions).extracting(e -> e.getString("user_id")).containsExactly("shared-demo", "bob");
  }

  @Test
  void aConfiguredConnectionRunsOnlyForTheCallerWhoOwnsIt() {
    ToolProvider composio = provider(options());
    Tool issue = await(ProviderToolSource.perCaller(composio, List.of("GITHUB_CREATE_ISSUE"),
        Map.of("GITHUB_CREATE_ISSUE", ProviderToolConfig.connection("ca_alice_github"))).tools(vertx)).get(0);
    assertThat(await(issue.invoke(as("alice", new JsonObject()))).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThatThrownBy(() -> issue.invoke(as("bob", new JsonObject())).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ToolNotSentException.class).hasMessageContaining("does not belong to this caller");
    assertThat(fake.executions).extracting(e -> e.getString("user_id")).containsExactly("alice");
  }

  @Test
  void aSourceBoundToOneResourceIdNeverRunsForAnotherCaller() {
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    Tool asBob = await(ProviderToolSource.create(composio, List.of("GITHUB_CREATE_ISSUE"), Map.of(),
        ResolveOptions.caller("author", "bob")).tools(vertx)).get(0);
    await(asBob.invoke(as(null, new JsonObject())));
    await(asBob.invoke(as("bob", new JsonObject())));
    assertThatThrownBy(() -> asBob.invoke(as("alice", new JsonObject())).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ToolNotSentException.class).hasMessageContaining("not this session's caller");
    assertThat(fake.executions).extracting(e -> e.getString("user_id")).containsExactly("bob", "bob");
  }

  @Test
  void aNamedSharedIdentityIsUsedOnlyWhenTheApplicationEnablesIt() {
    fake.account("ca_shared", "shared-demo", "github", "ACTIVE");
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED).sharedIdentity("shared-demo"));
    Tool shared = await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"), Map.of(),
        ResolveOptions.author("alice"))).get("GITHUB_CREATE_ISSUE");
    await(shared.invoke(of(new JsonObject())));
    assertThat(fake.executions).extracting(e -> e.getString("user_id")).containsExactly("shared-demo");
  }

  @Test
  void aTenantCanNeverRunAToolWithAnothersConnection() {
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));

    assertThatThrownBy(() -> await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"),
        Map.of("GITHUB_CREATE_ISSUE", ProviderToolConfig.connection("ca_alice_github")),
        ResolveOptions.caller("author", "bob"))))
        .isInstanceOf(ProviderException.class)
        .satisfies(e -> assertThat(((ProviderException) e).code()).isEqualTo("CONNECTION_NOT_OWNED"));

    List<ProviderConnection> bobs = await(composio.listConnections(new ListConnectionsOptions(
        ResolveOptions.caller("author", "bob"), null))).items();
    assertThat(bobs).extracting(ProviderConnection::id).containsExactly("ca_bob_github");

    // carol has no connection: her tool runs as carol and the provider refuses, it never borrows someone else's
    Tool carols = await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"), Map.of(),
        ResolveOptions.caller("author", "carol"))).get("GITHUB_CREATE_ISSUE");
    ToolResult r = await(carols.invoke(of(new JsonObject())));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error()).contains("carol");
    assertThat(fake.executions).isEmpty();
  }

  @Test
  void aRevokedConnectionFailsTheCallAndReportsDisconnected() {
    ToolProvider composio = provider(options());
    Tool create = await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"),
        Map.of("GITHUB_CREATE_ISSUE", ProviderToolConfig.connection("ca_alice_github")),
        ResolveOptions.author("alice"))).get("GITHUB_CREATE_ISSUE");
    ResolveOptions alice = ResolveOptions.author("alice");
    assertThat(await(composio.getConnectionStatus(List.of(new ConnectionRef("ca_alice_github", "github")), alice)))
        .containsEntry("ca_alice_github", true);

    await(composio.revokeConnection("ca_alice_github", alice));

    ToolResult r = await(create.invoke(of(new JsonObject())));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.retryable()).isFalse();
    assertThat(fake.executions).isEmpty();
    assertThat(await(composio.getConnectionStatus(List.of(new ConnectionRef("ca_alice_github", "github"),
        new ConnectionRef("ca_bob_github", "github")), ResolveOptions.author("bob"))))
        .containsEntry("ca_alice_github", false).containsEntry("ca_bob_github", true);
  }

  @Test
  void anotherCallersConnectionReadsAsMissingAndCannotBeRevoked() {
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    assertAnotherCallersConnectionIsHidden(composio, "ca_bob_github", "ca_nobody", ResolveOptions.caller("author", "alice"),
        ResolveOptions.caller("author", "bob"));

    Throwable nobody = failure(composio.revokeConnection("ca_bob_github", ResolveOptions.caller("author", null)));
    assertThat(((ProviderException) nobody).code()).isEqualTo("NO_IDENTITY");
  }

  @Test
  void providerErrorsMapToOutcomes() {
    ToolProvider composio = provider(options());
    Map<String, Tool> tools = await(composio.resolveTools(List.of("GITHUB_FLAKY_WRITE", "GITHUB_FLAKY_READ",
        "GITHUB_RATE_LIMITED", "GITHUB_NOT_FOUND"), Map.of(), ResolveOptions.author("alice")));

    assertThat(await(tools.get("GITHUB_FLAKY_WRITE").invoke(of(new JsonObject()))).outcome())
        .isEqualTo(Outcome.OUTCOME_UNKNOWN);
    ToolResult flakyRead = await(tools.get("GITHUB_FLAKY_READ").invoke(of(new JsonObject())));
    assertThat(flakyRead.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(flakyRead.retryable()).isTrue();
    ToolResult limited = await(tools.get("GITHUB_RATE_LIMITED").invoke(of(new JsonObject())));
    assertThat(limited.retryable()).isTrue();
    assertThat(limited.retryAfterMillis()).isEqualTo(2000);
    ToolResult notFound = await(tools.get("GITHUB_NOT_FOUND").invoke(of(new JsonObject())));
    assertThat(notFound.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(notFound.retryable()).isFalse();
    assertThat(notFound.error()).contains("Repository not found");

    fake.stop();
    assertThatThrownBy(() -> tools.get("GITHUB_FLAKY_WRITE").invoke(of(new JsonObject()))
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ToolNotSentException.class)
        .hasMessageStartingWith("the tool did not run, so it is safe to call again");
  }

  @Test
  void aMissingApiKeyFailsTheCallAsNotRunWithoutAnyRequest() {
    AtomicReference<String> key = new AtomicReference<>(FakeComposio.KEY);
    ToolProvider composio = provider(ToolProviderOptions.apiKey(Secret.from(key::get)).baseUrl("http://127.0.0.1:" + port));
    Tool create = await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"), Map.of(), ResolveOptions.author("alice"))
        ).get("GITHUB_CREATE_ISSUE");
    int before = fake.requests.get();

    key.set(null);
    assertThatThrownBy(() -> create.invoke(of(new JsonObject())).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ToolNotSentException.class).hasMessageContaining("credentials are missing");
    assertThat(fake.requests.get()).isEqualTo(before);
    assertThat(await(composio.getHealth()).configured()).isFalse();
  }

  @Test
  void theApiKeyNeverAppearsInTextErrorsOrResults() {
    String wrongKey = "wrong-key-abcdef-987";
    ToolProviderOptions options = ToolProviderOptions.apiKey(Secret.of(wrongKey)).baseUrl("http://127.0.0.1:" + port);
    ToolProvider composio = provider(options);

    assertThat(options.toString()).doesNotContain(wrongKey).contains("apiKey=***");
    assertThat(composio.toString()).doesNotContain(wrongKey);
    ProviderHealth health = await(composio.getHealth());
    assertThat(health.healthy()).isFalse();
    // the fake echoes the key it got, as some APIs do; it must be redacted before it reaches anyone
    assertThat(health.message()).contains("401").contains("***").doesNotContain(wrongKey);
    assertThatThrownBy(() -> composio.listTools(ListToolsOptions.all()).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(wrongKey).contains("401"));
    assertThat(await(provider(options()).getHealth()).healthy()).isTrue();
  }

  @Test
  void authorizationLinksConnectionFieldsAndStatus() {
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    Authorization auth = await(composio.authorize(AuthorizeOptions.toolkit("github", ResolveOptions.caller("a", "dave"))));
    assertThat(auth.url()).startsWith("https://connect.composio.example/");
    assertThat(fake.ownerOf(auth.authId())).isEqualTo("dave");
    assertThat(await(composio.getAuthStatus(auth.authId())).state()).isEqualTo(AuthStatus.PENDING);

    fake.accounts.get(auth.authId()).put("status", "ACTIVE");
    AuthStatus done = await(composio.getAuthStatus(auth.authId()));
    assertThat(done.completed()).isTrue();
    assertThat(done.connectionId()).isEqualTo(auth.authId());

    List<ConnectionField> fields = await(composio.listConnectionFields("gmail"));
    assertThat(fields).extracting(ConnectionField::name).containsExactly("api_key", "subdomain");
    assertThat(fields.get(0).required()).isTrue();
    assertThat(fields.get(0).secret()).isTrue();

    assertThatThrownBy(() -> composio.authorize(AuthorizeOptions.toolkit("github", ResolveOptions.author("a")))
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .hasMessageContaining("no resource id");
  }

  @Test
  void authorizeSendsTheConnectionFieldsTheToolkitAsksForAndRefusesMissingOrUnknownOnesUnsent() {
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    ResolveOptions dave = ResolveOptions.caller("a", "dave");
    Authorization auth = await(composio.authorize(AuthorizeOptions.toolkit("gmail", dave)
        .withFields(Map.of("api_key", "key-of-dave-123", "subdomain", "dave-co"))));
    assertThat(fake.ownerOf(auth.authId())).isEqualTo("dave");
    JsonObject state = fake.initiatedWith.get(auth.authId());
    assertThat(state).as("the account was initiated with the field values").isNotNull();
    assertThat(state.getString("authScheme")).isEqualTo("API_KEY");
    assertThat(state.getJsonObject("val").getString("api_key")).isEqualTo("key-of-dave-123");
    assertThat(state.getJsonObject("val").getString("subdomain")).isEqualTo("dave-co");

    int before = fake.created.size();
    assertThatThrownBy(() -> await(composio.authorize(AuthorizeOptions.toolkit("gmail", dave)
        .withFields(Map.of("subdomain", "dave-co")))))
        .hasMessageContaining("api_key").satisfies(e -> assertThat(e.getMessage()).doesNotContain("dave-co"));
    assertThatThrownBy(() -> await(composio.authorize(AuthorizeOptions.toolkit("gmail", dave)
        .withFields(Map.of("api_key", "secret-value-9", "colour", "blue")))))
        .hasMessageContaining("colour").hasMessageContaining("api_key, subdomain")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret-value-9"));
    assertThat(fake.created).as("no account was initiated for a refused authorization").hasSize(before);
  }

  @Test
  void connectionManagementToolsAreOfferedOnlyWhenAllowedAndActForTheCallerOnly() throws Exception {
    ToolProvider notAllowed = provider(options().allowedToolkits("github"));
    assertThat(slugs(await(notAllowed.listTools(ListToolsOptions.all())).items()))
        .doesNotContain(ComposioToolProvider.MANAGE_CONNECTIONS);
    assertThatThrownBy(() -> await(notAllowed.resolveTools(List.of(ComposioToolProvider.MANAGE_CONNECTIONS), Map.of(),
        ResolveOptions.author("a")))).hasMessageContaining("not allowed");

    ToolProvider composio = provider(options().allowedToolkits("composio", "github")
        .defaultScope(ConnectionScope.CALLER_SUPPLIED));
    assertThat(slugs(await(composio.listTools(ListToolsOptions.toolkit("composio"))).items()))
        .containsExactly(ComposioToolProvider.MANAGE_CONNECTIONS, ComposioToolProvider.WAIT_FOR_CONNECTIONS);
    Map<String, Tool> tools = await(composio.resolveTools(
        List.of(ComposioToolProvider.MANAGE_CONNECTIONS, ComposioToolProvider.WAIT_FOR_CONNECTIONS), Map.of(),
        ResolveOptions.caller("author", "erin")));

    ToolResult link = await(tools.get(ComposioToolProvider.MANAGE_CONNECTIONS)
        .invoke(of(new JsonObject().put("toolkit", "github"))));
    JsonObject value = (JsonObject) link.value();
    assertThat(value.getString("redirect_url")).startsWith("https://connect.composio.example/");
    String connectionId = value.getString("connection_id");
    assertThat(fake.ownerOf(connectionId)).isEqualTo("erin");

    ToolResult refused = await(tools.get(ComposioToolProvider.MANAGE_CONNECTIONS)
        .invoke(of(new JsonObject().put("toolkit", "gmail"))));
    assertThat(refused.outcome()).isEqualTo(Outcome.FAILED);

    // bob's active github account must not count as erin's
    vertx.setTimer(400, id -> fake.accounts.get(connectionId).put("status", "ACTIVE"));
    long started = System.currentTimeMillis();
    ToolResult waited = await(tools.get(ComposioToolProvider.WAIT_FOR_CONNECTIONS).invoke(of(new JsonObject()
        .put("toolkits", new JsonArray().add("github")).put("timeout_seconds", 10))));
    assertThat(((JsonObject) waited.value()).getBoolean("all_connected")).isTrue();
    assertThat(System.currentTimeMillis() - started).isGreaterThanOrEqualTo(300);
  }

  @Test
  void aCallRunsTheToolVersionWhoseSchemaTheModelSaw() {
    ToolProvider composio = provider(options());
    Tool create = await(composio.resolveTools(List.of("GITHUB_CREATE_ISSUE"), Map.of(), ResolveOptions.author("alice")))
        .get("GITHUB_CREATE_ISSUE");
    fake.release("GITHUB_CREATE_ISSUE", "20251001_00", new JsonObject().put("type", "object")
        .put("properties", new JsonObject().put("issue_title", new JsonObject().put("type", "string"))));
    assertThat(await(create.invoke(of(new JsonObject().put("title", "t")))).outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(fake.executions).extracting(e -> e.getString("version")).containsExactly(FakeComposio.VERSION);
  }

  @Test
  void listingsFollowComposiosCursorsAndHandThemBack() {
    fake.pageSize = 1;
    ToolProvider composio = provider(options());
    List<String> toolkits = new ArrayList<>();
    String cursor = null;
    do {
      ProviderPage<ProviderToolkit> page = await(composio.listToolkits(cursor));
      page.items().forEach(t -> toolkits.add(t.slug()));
      cursor = page.nextCursor();
    } while (cursor != null);
    assertThat(toolkits).containsExactly("composio", "github", "gmail", "googledrive", "slack");

    ResolveOptions alice = ResolveOptions.author("alice");
    ProviderPage<ProviderConnection> first = await(composio.listConnections(new ListConnectionsOptions(alice, null)));
    assertThat(first.items()).extracting(ProviderConnection::id).containsExactly("ca_alice_github");
    ProviderPage<ProviderConnection> second = await(composio.listConnections(new ListConnectionsOptions(alice, null)
        .withCursor(first.nextCursor())));
    assertThat(second.items()).extracting(ProviderConnection::id).containsExactly("ca_alice_gmail");
    assertThat(second.nextCursor()).isNull();

    Tool wait = await(composio.resolveTools(List.of(ComposioToolProvider.WAIT_FOR_CONNECTIONS), Map.of(), alice))
        .get(ComposioToolProvider.WAIT_FOR_CONNECTIONS);
    ToolResult both = await(wait.invoke(of(new JsonObject().put("toolkits", new JsonArray().add("github").add("gmail"))
        .put("timeout_seconds", 1))));
    assertThat(((JsonObject) both.value()).getBoolean("all_connected")).isTrue();
  }

  @Test
  void askingForAConnectionLinkTwiceGivesTheSamePendingAccount() {
    ToolProvider composio = provider(options().defaultScope(ConnectionScope.CALLER_SUPPLIED));
    Tool manage = await(composio.resolveTools(List.of(ComposioToolProvider.MANAGE_CONNECTIONS), Map.of(),
        ResolveOptions.caller("author", "erin"))).get(ComposioToolProvider.MANAGE_CONNECTIONS);
    JsonObject first = (JsonObject) await(manage.invoke(of(new JsonObject().put("toolkit", "gmail")))).value();
    JsonObject again = (JsonObject) await(manage.invoke(of(new JsonObject().put("toolkit", "gmail")))).value();
    assertThat(again.getString("connection_id")).isEqualTo(first.getString("connection_id"));
    assertThat(again.getString("redirect_url")).isEqualTo(first.getString("redirect_url")).isNotNull();
    assertThat(fake.created).hasSize(1);

    fake.accounts.get(first.getString("connection_id")).put("status", "ACTIVE");
    JsonObject connected = (JsonObject) await(manage.invoke(of(new JsonObject().put("toolkit", "gmail")))).value();
    assertThat(connected.getString("status")).isEqualTo("ACTIVE");
    assertThat(connected.getString("redirect_url")).isNull();
    assertThat(fake.created).hasSize(1);
  }
}
