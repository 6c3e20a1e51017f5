package dev.ratchet.verticles.crash;

import dev.ratchet.runtime.testing.FakeOpenAiServer;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent loop under SIGKILL: the runtime dies after a model response is journaled and before its
 * tool calls ran. After a restart the model is not asked for that response again, and the tools run once.
 */
class AgentLoopCrashTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private final String session = "agent-crash-" + UUID.randomUUID().toString().substring(0, 8);
  private final AtomicInteger modelRequests = new AtomicInteger();
  private final FakeOpenAiServer model = new FakeOpenAiServer(body -> {
    modelRequests.incrementAndGet();
    JsonArray messages = body.getJsonArray("messages");
    JsonObject last = messages.getJsonObject(messages.size() - 1);
    return "tool".equals(last.getString("role"))
        ? FakeOpenAiServer.text("Paid 10; the provider answered " + last.getString("content"))
        : FakeOpenAiServer.toolCalls("call_pay_1", "pay", "{\"amount\":10}");
  });
  private final Provider provider = new Provider();
  private ChildRuntime child;

  @AfterEach
  void stop() throws Exception {
    if (child != null) {
      child.close();
    }
    model.close();
    provider.close();
  }

  private void startChild(String mode) throws IOException {
    child = new ChildRuntime(AgentCrashNode.class, REDIS.url(), REDIS.keyPrefix(), model.baseUrl(), provider.url(), mode);
  }

  private int payments() {
    return provider.requests.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  @Test
  void aModelResponseJournaledBeforeACrashIsNotRequestedAgainAndItsToolRunsOnce() throws Exception {
    startChild("hold");
    child.send(new JsonObject().put("cmd", "send").put("session", session).put("text", "pay 10 please"));
    JsonObject journaled = child.awaitEvent("model-journaled", 60);
    assertThat(journaled.getJsonObject("data").getLong("step")).isEqualTo(1L);
    assertThat(modelRequests.get()).isEqualTo(1);
    // the child holds the session's thread where it printed that, before the loop submits the tool turn
    assertThat(payments()).isZero();

    // SIGKILL, with the response journaled and its tool not run
    assertThat(child.kill()).isTrue();
    startChild("run");

    JsonObject answer = child.awaitEvent("answer", 60).getJsonObject("reply");
    assertThat(answer.getString("status")).isEqualTo("answered");
    assertThat(answer.getString("text")).startsWith("Paid 10");
    assertThat(payments()).isEqualTo(1);
    assertThat(provider.applied("pay")).isEqualTo(1);
    // one request before the crash (step 1), one after it with the tool's result (step 2)
    assertThat(modelRequests.get()).isEqualTo(2);
    JsonArray second = model.requests().get(1).getJsonArray("messages");
    JsonObject toolMessage = second.getJsonObject(second.size() - 1);
    assertThat(toolMessage.getString("role")).isEqualTo("tool");
    assertThat(toolMessage.getString("tool_call_id")).isEqualTo("call_pay_1");
    assertThat(toolMessage.getString("content")).contains("succeeded");
  }
}
