package dev.ratchet.verticles.crash;

import dev.ratchet.runtime.testing.FakeOpenAiServer;
import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

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
  private Process child;
  private final List<JsonObject> lines = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() throws Exception {
    if (child != null) {
      child.destroyForcibly();
      child.waitFor(20, TimeUnit.SECONDS);
    }
    model.close();
    provider.close();
  }

  private void startChild(String mode) throws IOException {
    lines.clear();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        AgentCrashNode.class.getName(), REDIS.url(), REDIS.keyPrefix(), model.baseUrl(), provider.url(), mode)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Process p = child;
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.startsWith("{")) {
            lines.add(new JsonObject(line));
          }
        }
      } catch (IOException e) {
        // the child died
      }
    }, "agent-child-stdout");
    reader.setDaemon(true);
    reader.start();
    await(j -> "ready".equals(j.getString("event")), 60);
  }

  private JsonObject await(Predicate<JsonObject> match, int seconds) {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (System.currentTimeMillis() < deadline) {
      for (JsonObject j : lines) {
        if (match.test(j)) {
          return j;
        }
      }
      if (!child.isAlive()) {
        throw new AssertionError("the child exited with " + child.exitValue() + "; saw " + lines);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    throw new AssertionError("no matching line within " + seconds + " s; saw " + lines);
  }

  private int payments() {
    return provider.requests.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  @Test
  void aModelResponseJournaledBeforeACrashIsNotRequestedAgainAndItsToolRunsOnce() throws Exception {
    startChild("hold");
    child.getOutputStream().write((new JsonObject().put("cmd", "send").put("session", session)
        .put("text", "pay 10 please").encode() + "\n").getBytes(StandardCharsets.UTF_8));
    child.getOutputStream().flush();
    JsonObject journaled = await(j -> "model-journaled".equals(j.getString("event")), 60);
    assertThat(journaled.getJsonObject("data").getLong("step")).isEqualTo(1L);
    assertThat(modelRequests.get()).isEqualTo(1);
    Thread.sleep(300);
    assertThat(payments()).isZero();

    child.destroyForcibly();   // SIGKILL, with the response journaled and its tool not run
    assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
    startChild("run");

    JsonObject answer = await(j -> "answer".equals(j.getString("event")), 60).getJsonObject("reply");
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
