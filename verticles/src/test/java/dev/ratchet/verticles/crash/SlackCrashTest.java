package dev.ratchet.verticles.crash;

import dev.ratchet.connectors.testing.ConnectionFiles;
import dev.ratchet.connectors.testing.SlackTestServer;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.testing.Await;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static dev.ratchet.runtime.testing.Closeables.closeStarted;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash tests of a Slack thread reply ({@code slack_post_thread_reply}, a single-attempt write
 * with a lookup): the runtime runs in a child JVM that is killed with SIGKILL mid-call, while the
 * Slack test server runs in this JVM, survives the crash and counts posts per call id.
 */
class SlackCrashTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String TOKEN = "xoxb-crash-test-token";
  private static final String CHANNEL = "C_SUPPORT";

  @TempDir
  Path dir;

  private final String session = "slack-crash-" + UUID.randomUUID().toString().substring(0, 8);
  private Vertx vertx;
  private SlackTestServer slack;
  private Path connections;
  private ChildRuntime child;
  private String threadTs;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    slack = new SlackTestServer(vertx, TOKEN).start();
    threadTs = slack.seedMessage(CHANNEL, "my order never arrived");
    connections = ConnectionFiles.writePrivate(dir.resolve("connections.json"),
        ConnectionFiles.slackConnection(ConnectorCrashNode.SLACK_CONNECTION, slack.baseUrl(), TOKEN));
    child = startChild();
  }

  @AfterEach
  void stop() throws Exception {
    closeStarted(child);
    slack.close();
    await(vertx.close());
  }

  private ChildRuntime startChild() throws Exception {
    return new ChildRuntime(ConnectorCrashNode.class, REDIS.url(), REDIS.keyPrefix(), "slack", connections.toString());
  }

  private void restart() throws Exception {
    child.kill();
    child = startChild();
  }

  private void submit(String agent, Turn turn) throws Exception {
    child.send(new JsonObject().put("cmd", "submit").put("agent", agent).put("session", session)
        .put("turn", turn.toJson()));
  }

  private JsonObject reply(String text) {
    return new JsonObject().put("channel", CHANNEL).put("thread_ts", threadTs).put("text", text);
  }

  private String callId(String turnId, int index) {
    return CallId.of(session, turnId, index).value();
  }

  private JsonObject onlyResult(String turnId) {
    return child.awaitResult(turnId, 60).getJsonArray("results").getJsonObject(0);
  }

  @Test
  void aReplyThatLandedBeforeTheCrashIsFoundByLookupAndRecordedSucceededWithoutPostingAgain() throws Exception {
    slack.failNext(SlackTestServer.Fault.HANG_AFTER_APPLYING);
    submit("slack", Turn.of("t1", new ToolCall("slack_post_thread_reply", reply("Refund sent, sorry!"))));
    String callId = callId("t1", 0);
    Await.until(() -> slack.postsFor(callId) == 1, 30);

    restart();

    JsonObject result = onlyResult("t1");
    assertThat(result.getString("outcome")).isEqualTo("succeeded");
    assertThat(slack.postsFor(callId)).isEqualTo(1);
    assertThat(slack.totalPosts()).isEqualTo(1);
    // the result names the reply that was posted before the crash
    JsonObject posted = slack.messages().stream().filter(m -> threadTs.equals(m.getString("thread_ts"))).findFirst()
        .orElseThrow();
    assertThat(result.getJsonObject("result").getString("ts")).isEqualTo(posted.getString("ts"));
    assertThat(result.getJsonObject("result").getString("thread_ts")).isEqualTo(threadTs);
  }

  @Test
  void aReplyThatHadNotLandedIsNotFoundByLookupEndsOutcomeUnknownAndIsNeverPostedAgain() throws Exception {
    slack.failNext(SlackTestServer.Fault.HANG_BEFORE_APPLYING);
    submit("slack", Turn.of("t1", new ToolCall("slack_post_thread_reply", reply("Refund sent, sorry!"))));
    String callId = callId("t1", 0);
    Await.until(() -> slack.heldUnapplied() == 1, 30);

    restart();

    JsonObject result = onlyResult("t1");
    assertThat(result.getString("outcome")).isEqualTo("outcome_unknown");
    // the lookup ran and answered (rather than failing), and the write was not sent again
    assertThat(result.getString("error")).contains("not sent again").contains("not found by lookup");
    assertThat(slack.postsFor(callId)).isZero();
    assertThat(slack.totalPosts()).isZero();
    assertThat(slack.messages()).hasSize(1);
  }

  @Test
  void anApprovalPendingAtTheCrashStaysPendingAndPostsExactlyOnceWhenApproved() throws Exception {
    JsonObject args = reply("We will call you back today");
    submit("slack-approval", Turn.of("t1", new ToolCall("slack_post_thread_reply", args)));
    Vertx local = Vertx.vertx();
    try {
      RedisJournal journal = await(RedisJournal.open(local, JournalOptions.of(REDIS.url())
          .withKeyPrefix(REDIS.keyPrefix())));
      Await.until(() -> !pendingOf(journal).isEmpty(), 30);
      assertThat(slack.requests()).isZero();

      restart();

      List<ApprovalRequest> pending = pendingOf(journal);
      assertThat(pending).hasSize(1);
      ApprovalRequest request = pending.get(0);
      assertThat(request.tool()).isEqualTo("slack_post_thread_reply");
      assertThat(request.callId().value()).isEqualTo(callId("t1", 0));
      assertThat(slack.requests()).isZero();

      child.send(new JsonObject().put("cmd", "approve").put("session", session)
          .put("callId", request.callId().value()).put("hash", request.argumentsHash()));
      JsonObject result = onlyResult("t1");
      assertThat(result.getString("outcome")).isEqualTo("succeeded");
      assertThat(result.getJsonObject("approval").getString("approver")).isEqualTo("tester");
      assertThat(slack.postsFor(callId("t1", 0))).isEqualTo(1);
      assertThat(slack.totalPosts()).isEqualTo(1);
      assertThat(pendingOf(journal)).isEmpty();
      journal.close();
    } finally {
      await(local.close());
    }
  }

  private List<ApprovalRequest> pendingOf(RedisJournal journal) {
    return await(journal.queries().pendingApprovals(1000)).stream().filter(r -> r.sessionId().equals(session)).toList();
  }
}
