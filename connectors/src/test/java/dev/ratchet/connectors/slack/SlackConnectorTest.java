package dev.ratchet.connectors.slack;

import dev.ratchet.connectors.Connection;
import dev.ratchet.connectors.ConnectorToolSource;
import dev.ratchet.connectors.Connections;
import dev.ratchet.connectors.SlackConnector;
import dev.ratchet.connectors.testing.ConnectionFiles;
import dev.ratchet.connectors.testing.SlackTestServer;
import dev.ratchet.connectors.testing.SlackTestServer.Fault;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.Tool;
import dev.ratchet.runtime.ToolInvocation;
import dev.ratchet.runtime.ToolNotSentException;
import dev.ratchet.runtime.ToolResult;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static dev.ratchet.connectors.ConnectorTool.connectorTool;
import static dev.ratchet.connectors.testing.Invocations.await;
import static dev.ratchet.connectors.testing.Invocations.failure;
import static dev.ratchet.connectors.testing.Invocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

class SlackConnectorTest {

  static final String TOKEN = "xoxb-test-secret-4711";

  @TempDir
  Path dir;

  Vertx vertx;
  SlackTestServer server;
  Path connectionsFile;
  SlackConnector slack;
  String thread;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    server = new SlackTestServer(vertx, TOKEN).start();
    connectionsFile = ConnectionFiles.writePrivate(dir.resolve("connections.json"),
        ConnectionFiles.slackConnection("support-slack", server.baseUrl(), TOKEN));
    Connection connection = Connections.load(Map.of(Connections.FILE_VARIABLE, connectionsFile.toString()))
        .connection("support-slack");
    slack = SlackConnector.connect(vertx, connection);
    thread = server.seedMessage("C1", "Where is order 1002?");
  }

  @AfterEach
  void tearDown() {
    slack.close();
    server.close();
    await(vertx.close());
  }

  private Tool tool(dev.ratchet.connectors.ConnectorOperation op) {
    return await(ConnectorToolSource.of(connectorTool(op)).tools(vertx)).get(0);
  }

  private JsonObject reply(String text) {
    return new JsonObject().put("channel", "C1").put("thread_ts", thread).put("text", text);
  }

  private static void assertNoSecret(ToolResult r) {
    assertThat(String.valueOf(r.error())).doesNotContain(TOKEN);
    assertThat(String.valueOf(r.value())).doesNotContain(TOKEN);
  }

  @Test
  void threadReplyIsPostedOnceWithTheCallIdInMessageMetadata() {
    ToolInvocation inv = invocation("t1", 0, reply("Order 1002 ships on Thursday."));
    ToolResult r = await(tool(slack.postThreadReply()).invoke(inv));
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    JsonObject value = (JsonObject) r.value();
    assertThat(value.getString("channel")).isEqualTo("C1");
    assertThat(value.getString("thread_ts")).isEqualTo(thread);
    assertThat(value.getString("ts")).isNotBlank();
    assertThat(server.postsFor(inv.callId().value())).isEqualTo(1);
    JsonObject posted = server.messages().get(server.messages().size() - 1);
    assertThat(posted.getJsonObject("metadata")).isEqualTo(new JsonObject().put("event_type", "ratchet_call")
        .put("event_payload", new JsonObject().put("call_id", inv.callId().value())));
    assertThat(server.authorizations()).containsOnly("Bearer " + TOKEN);
  }

  @Test
  void lookupFindsTheEarlierReplyOfTheSameCallAndNothingForAnotherCall() {
    Tool tool = tool(slack.postThreadReply());
    ToolInvocation inv = invocation("t1", 0, reply("hello"));
    ToolResult posted = await(tool.invoke(inv));
    Optional<ToolResult> found = await(tool.lookup(inv));
    assertThat(found).isPresent();
    assertThat(found.get().outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(found.get().value()).isEqualTo(posted.value());
    assertThat(await(tool.lookup(invocation("t2", 0, reply("hello"))))).isEmpty();
  }

  @Test
  void lookupPagesThroughLongThreads() {
    Tool tool = tool(slack.postThreadReply());
    ToolInvocation inv = invocation("t1", 0, reply("first"));
    await(tool.invoke(inv));
    for (int i = 1; i <= 450; i++) {
      await(tool.invoke(invocation("t1", i, reply("later " + i))));
    }
    ToolInvocation last = invocation("t1", 450, reply("later 450"));
    assertThat(await(tool.lookup(inv))).isPresent();
    assertThat(await(tool.lookup(last))).isPresent();
  }

  @Test
  void connectionLostAfterSendingIsOutcomeUnknownAndRecoveryFindsThePostInsteadOfPostingAgain() {
    Tool tool = tool(slack.postThreadReply());
    ToolInvocation inv = invocation("t1", 0, reply("Refund approved."));
    server.failNext(Fault.DROP_AFTER_APPLYING);
    ToolResult r = await(tool.invoke(inv));
    assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r.branch()).isEqualTo("uncertain");
    assertThat(r.error()).contains("may have been applied");
    assertNoSecret(r);
    // what a recovering engine does for a write with a lookup: look first, send only if nothing is found
    Optional<ToolResult> earlier = await(tool.lookup(inv));
    assertThat(earlier).isPresent();
    assertThat(earlier.get().outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(server.postsFor(inv.callId().value())).isEqualTo(1);
  }

  @Test
  void timeoutAfterSendingAWriteIsOutcomeUnknownAndTheLookupStillFindsIt() {
    Tool tool = tool(slack.postThreadReply());
    server.failNext(Fault.HANG_AFTER_APPLYING);
    ToolInvocation inv = new ToolInvocation("session-1", dev.ratchet.runtime.CallId.of("session-1", "t9", 0),
        dev.ratchet.runtime.IdempotencyKey.of(dev.ratchet.runtime.CallId.of("session-1", "t9", 0), reply("hi")), 1,
        reply("hi"), System.currentTimeMillis() + 500);
    ToolResult r = await(tool.invoke(inv));
    assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r.error()).contains("may have been applied");
    assertThat(await(tool.lookup(inv))).isPresent();
    assertThat(server.postsFor(inv.callId().value())).isEqualTo(1);
  }

  @Test
  void rateLimitIsRetryableWithSlacksRetryAfterAndNothingPosted() {
    server.failNext(Fault.RATE_LIMITED);
    ToolResult r = await(tool(slack.postThreadReply()).invoke(invocation("t1", 0, reply("hi"))));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.retryable()).isTrue();
    assertThat(r.retryAfterMillis()).isEqualTo(7000);
    assertThat(server.totalPosts()).isZero();
  }

  @Test
  void serverErrorOrInternalErrorAfterSendingAWriteIsOutcomeUnknown() {
    server.failNext(Fault.SERVER_ERROR_AFTER_APPLYING);
    ToolResult r = await(tool(slack.postChannelMessage()).invoke(invocation("t1", 0,
        new JsonObject().put("channel", "C1").put("text", "hi"))));
    assertThat(r.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r.error()).contains("HTTP 500");
    server.failNext(Fault.INTERNAL_ERROR_AFTER_APPLYING);
    ToolResult r2 = await(tool(slack.postThreadReply()).invoke(invocation("t1", 1, reply("hi"))));
    assertThat(r2.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(r2.error()).contains("internal_error");
  }

  @Test
  void answerThatIsNotJsonIsAClearErrorThatLosesNoWrite() {
    server.failNext(Fault.HTML_AFTER_APPLYING);
    ToolInvocation inv = invocation("t1", 0, reply("hi"));
    Tool post = tool(slack.postThreadReply());
    ToolResult write = await(post.invoke(inv));
    assertThat(write.outcome()).isEqualTo(Outcome.OUTCOME_UNKNOWN);
    assertThat(write.error()).contains("not JSON").contains("text/html");
    assertThat(await(post.lookup(inv))).isPresent();

    server.failNext(Fault.HTML_AFTER_APPLYING);
    ToolResult read = await(tool(slack.listThreadMessages()).invoke(invocation("t2", 0,
        new JsonObject().put("channel", "C1").put("thread_ts", thread))));
    assertThat(read.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(read.branch()).isEqualTo("defect");
    assertThat(read.error()).contains("not JSON");
  }

  @Test
  void slackErrorCodeIsRejectedNamingTheCode() {
    ToolResult r = await(tool(slack.postChannelMessage()).invoke(invocation("t1", 0,
        new JsonObject().put("channel", "C_MISSING").put("text", "hi"))));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.branch()).isEqualTo("rejected");
    assertThat(r.retryable()).isFalse();
    assertThat(r.error()).contains("channel_not_found");
  }

  @Test
  void connectionRefusedMeansNothingWasSent() {
    server.close();
    Throwable t = failure(tool(slack.postThreadReply()).invoke(invocation("t1", 0, reply("hi"))));
    assertThat(t).isInstanceOf(ToolNotSentException.class).hasMessageContaining("nothing was sent");
    assertThat(t.getMessage()).doesNotContain(TOKEN);
  }

  @Test
  void invalidArgumentsAreRefusedBeforeSending() {
    Throwable t = failure(tool(slack.postThreadReply()).invoke(invocation("t1", 0,
        new JsonObject().put("channel", "C1").put("thread_ts", "yesterday").put("text", "hi"))));
    assertThat(t).isInstanceOf(ToolNotSentException.class).hasMessageContaining("thread_ts");
    assertThat(server.requests()).isZero();
  }

  @Test
  void expiredOrMissingTokenIsRefusedBeforeSending() {
    JsonObject content = ConnectionFiles.slackConnection("support-slack", server.baseUrl(), TOKEN);
    content.getJsonObject("connections").getJsonObject("support-slack").put("expiresAt", "2020-01-01T00:00:00Z");
    ConnectionFiles.writePrivate(connectionsFile, content);
    Throwable expired = failure(tool(slack.postThreadReply()).invoke(invocation("t1", 0, reply("hi"))));
    assertThat(expired).isInstanceOf(ToolNotSentException.class).hasMessageContaining("expired");

    JsonObject removed = ConnectionFiles.slackConnection("support-slack", server.baseUrl(), TOKEN);
    removed.getJsonObject("connections").getJsonObject("support-slack").getJsonObject("credentials").clear();
    ConnectionFiles.writePrivate(connectionsFile, removed);
    Throwable missing = failure(tool(slack.postThreadReply()).invoke(invocation("t1", 1, reply("hi"))));
    assertThat(missing).isInstanceOf(ToolNotSentException.class).hasMessageContaining("botToken");
    assertThat(server.requests()).isZero();
  }

  @Test
  void rotatedTokenIsUsedOnTheNextCallWithoutRestart() {
    server.acceptToken("xoxb-rotated-99");
    ConnectionFiles.writePrivate(connectionsFile,
        ConnectionFiles.slackConnection("support-slack", server.baseUrl(), "xoxb-rotated-99"));
    ToolResult r = await(tool(slack.postThreadReply()).invoke(invocation("t1", 0, reply("hi"))));
    assertThat(r.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(server.authorizations()).containsExactly("Bearer xoxb-rotated-99");
  }

  @Test
  void wrongTokenIsRejectedAndNeverEchoed() {
    server.acceptToken("xoxb-other");
    ToolResult r = await(tool(slack.postThreadReply()).invoke(invocation("t1", 0, reply("hi"))));
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.error()).contains("invalid_auth");
    assertNoSecret(r);
  }

  @Test
  void addingAReactionTwiceHasOneEffectAndBothSucceed() {
    Tool react = tool(slack.addReaction());
    JsonObject args = new JsonObject().put("channel", "C1").put("timestamp", thread).put("name", "eyes");
    ToolResult first = await(react.invoke(invocation("t1", 0, args)));
    ToolResult again = await(react.invoke(invocation("t1", 0, args)));
    assertThat(first.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(first.branch()).isEqualTo("success");
    assertThat(again.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(again.branch()).isEqualTo("already_reacted");
    assertThat(server.reactionEffects()).isEqualTo(1);
  }

  @Test
  void threadMessagesAndOneReplyCanBeRead() {
    ToolInvocation inv = invocation("t1", 0, reply("Ships Thursday."));
    String ts = ((JsonObject) await(tool(slack.postThreadReply()).invoke(inv)).value()).getString("ts");
    ToolResult list = await(tool(slack.listThreadMessages()).invoke(invocation("t2", 0,
        new JsonObject().put("channel", "C1").put("thread_ts", thread))));
    assertThat(list.outcome()).isEqualTo(Outcome.SUCCEEDED);
    JsonArray messages = ((JsonObject) list.value()).getJsonArray("messages");
    assertThat(messages).hasSize(2);
    assertThat(messages.getJsonObject(0).getString("text")).isEqualTo("Where is order 1002?");
    assertThat(messages.getJsonObject(1).getString("call_id")).isEqualTo(inv.callId().value());

    ToolResult one = await(tool(slack.getThreadReply()).invoke(invocation("t2", 1,
        new JsonObject().put("channel", "C1").put("thread_ts", thread).put("ts", ts))));
    assertThat(((JsonObject) one.value()).getString("text")).isEqualTo("Ships Thursday.");

    ToolResult none = await(tool(slack.getThreadReply()).invoke(invocation("t2", 2,
        new JsonObject().put("channel", "C1").put("thread_ts", thread).put("ts", "1.000001"))));
    assertThat(none.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(none.branch()).isEqualTo("not_found");
  }

  @Test
  void connectingRequiresASlackConnectionWithABotToken() {
    Connection notSlack = Connection.of("orders", "openapi", new JsonObject(), Map.of());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SlackConnector.connect(vertx, notSlack))
        .hasMessageContaining("not 'slack'");
    Connection noToken = Connection.of("s", "slack", new JsonObject(), Map.of());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SlackConnector.connect(vertx, noToken))
        .hasMessageContaining("botToken");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> slack.operation("deleteChannel"))
        .hasMessageContaining("deleteChannel");
  }
}
