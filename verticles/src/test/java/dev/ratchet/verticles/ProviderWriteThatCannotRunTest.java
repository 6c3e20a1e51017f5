package dev.ratchet.verticles;

import dev.ratchet.connectors.provider.ConnectionScope;
import dev.ratchet.connectors.provider.ProviderToolConfig;
import dev.ratchet.connectors.provider.ProviderToolSource;
import dev.ratchet.connectors.provider.ToolProviderOptions;
import dev.ratchet.connectors.provider.composio.ComposioToolProvider;
import dev.ratchet.connectors.provider.composio.FakeComposio;
import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider write that asks for approval but can never run (the caller has no active connection
 * for its toolkit) is refused at once as "did not run", and nobody is asked to approve it; a caller
 * whose connection is active is asked as before. Against the local Composio protocol server.
 */
class ProviderWriteThatCannotRunTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private Vertx vertx;
  private FakeComposio composio;
  private RatchetNode ratchet;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    composio = new FakeComposio();
    composio.account("ca_a_github", "tenant-a", "github", "ACTIVE");
    composio.account("ca_c_github", "tenant-c", "github", "DISABLED");
    int port = composio.start(vertx);
    ComposioToolProvider provider = ComposioToolProvider.create(vertx, ToolProviderOptions
        .apiKey(Secret.of(FakeComposio.KEY)).baseUrl("http://127.0.0.1:" + port)
        .defaultScope(ConnectionScope.CALLER_SUPPLIED));
    ProviderToolSource tools = ProviderToolSource.perCaller(provider, List.of("GITHUB_CREATE_ISSUE"),
        Map.of("GITHUB_CREATE_ISSUE", ProviderToolConfig.pin(EffectClass.NON_IDEMPOTENT_WRITE, true)));
    ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(REDIS.url())
        .keyPrefix(REDIS.keyPrefix())));
    await(ratchet.register(AgentDefinition.builder("github-helper").toolSource(tools).build()));
  }

  @AfterEach
  void stop() {
    await(ratchet.close());
    composio.stop();
    await(vertx.close());
  }

  private Future<TurnResult> createIssue(String session, String caller) {
    return ratchet.submit(TurnRequest.of("github-helper", session, Turn.of("t1",
        new ToolCall("GITHUB_CREATE_ISSUE", new JsonObject().put("owner", "o").put("repo", "r").put("title", "x"))))
            .callerId(caller));
  }

  @Test
  void aWriteForACallerWithoutAnActiveConnectionFailsAtOnceWithoutAskingAnyone() {
    for (String caller : List.of("tenant-b", "tenant-c")) {
      CallResult r = await(createIssue("s-" + caller, caller), 15).call(0);
      assertThat(r.outcome()).as(caller).isEqualTo(Outcome.FAILED);
      assertThat(r.error()).as(caller).startsWith(CallResult.NOT_RUN_PREFIX).contains("github");
      assertThat(r.approval()).as("nobody was asked").isNull();
    }
    assertThat(await(ratchet.pendingApprovals())).isEmpty();
    assertThat(composio.executions).isEmpty();

    // a caller whose connection is active is asked, as the tool's approval says
    createIssue("s-a", "tenant-a");
    Await.until(() -> !await(ratchet.pendingApprovals()).isEmpty(), 15);
    assertThat(await(ratchet.pendingApprovals()).get(0).sessionId()).isEqualTo("s-a");
  }
}
