package dev.ratchet.server.cluster;

import dev.ratchet.runtime.testing.FakeOpenAiServer;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Closeables.closeStarted;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent in its own clustered JVM ({@link BusAgent}) sends user messages on
 * {@code ratchet.messages.send} with a reply address, for sessions spread over two members, while
 * the model holds every answer. One member is killed with SIGKILL: the agent still hears the reply
 * to every message, from the session's owner when it survived (whichever member received the
 * message), and from the member that continued the round of the dead one's sessions, which found
 * the reply address journaled with the message (docs/EVENT-BUS.md, docs/CLUSTER.md).
 */
class ClusterBusMessageRepliesTest {

  private static final int SESSIONS_PER_MEMBER = 4;

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();
  private final List<HttpServerRequest> held = new CopyOnWriteArrayList<>();
  private volatile boolean answering;
  private ClusterRun cluster;
  private BusAgentProcess agent;
  private final List<String> heard = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() throws Exception {
    closeStarted(agent, cluster);
    await(vertx.close());
  }

  @Test
  void anAgentHearsTheReplyToEveryMessageWhenAMemberIsKilledWhileTheModelThinks() throws Exception {
    int model = await(vertx.createHttpServer().requestHandler(this::model).listen(0, "127.0.0.1")).actualPort();
    Files.createDirectories(dir.resolve("agents"));
    Files.writeString(dir.resolve("agents/chat.yaml"), "agent: chat\nmodel: openai:test-model\n");
    cluster = ClusterRun.start(REDIS, dir, new JsonObject(), Map.of("RATCHET_MODEL_BASE_URL",
        "http://127.0.0.1:" + model + "/v1", "OPENAI_API_KEY", "sk-test-key"), "a", "b");
    MemberProcess killed = cluster.members.get(0);
    MemberProcess survivor = cluster.members.get(1);
    agent = new BusAgentProcess(cluster, heard);

    List<String> sessions = ClusterRun.spread("chat-", SESSIONS_PER_MEMBER, killed, survivor);
    for (String session : sessions) {
      agent.command("message " + session + " m-" + session);
    }
    cluster.until(() -> count("accepted ") == sessions.size() || count("refused ") > 0, 60);
    assertThat(heard).as("every message accepted").filteredOn(l -> l.startsWith("accepted ")).hasSize(sessions.size());
    // every round waits for the model
    cluster.until(() -> held.size() == sessions.size(), 60);

    killed.kill();
    answering = true;
    held.forEach(this::answer);

    List<JsonObject> replies = BusAgentProcess.repliesFor(cluster, heard, sessions, 90);
    assertThat(replies).extracting(r -> r.getString("sessionId")).containsExactlyInAnyOrderElementsOf(sessions);
    for (JsonObject reply : replies) {
      assertThat(reply.getString("status")).as(reply.encode()).isEqualTo("answered");
      assertThat(reply.getString("messageId")).isEqualTo("m-" + reply.getString("sessionId"));
      assertThat(reply.getJsonObject("reply").getString("text")).as(reply.encode()).isEqualTo("noted");
    }
  }

  /** An OpenAI-compatible model that holds each request until the test lets it answer. */
  private void model(HttpServerRequest req) {
    req.pause();
    if (answering) {
      answer(req);
    } else {
      held.add(req);
    }
  }

  private void answer(HttpServerRequest req) {
    req.resume();
    req.body().onSuccess(body -> req.response().putHeader("Content-Type", "application/json")
        .end(FakeOpenAiServer.text("noted").encode()));
  }

  private long count(String prefix) {
    return BusAgentProcess.count(heard, prefix);
  }
}
