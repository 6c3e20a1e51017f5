package dev.ratchet.testing;

import dev.ratchet.runtime.AgentDefinition;
import dev.ratchet.runtime.FunctionToolSource;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * What the extension leaves behind once an application's test class has run: nothing. Each class
 * is run here through the JUnit launcher, as a build tool runs it.
 */
class RatchetExtensionLifecycleTest {

  /** An application's test class, with a redis-server of its own. */
  static class ApplicationTest {

    static volatile String redisUrl;
    static volatile String keyPrefix;

    @RegisterExtension
    static final RatchetExtension RATCHET = RatchetExtension.create().withOwnRedis()
        .agent(AgentDefinition.builder("echo").toolSource(FunctionToolSource.create("echo")
            .read("echo", "echoes", new JsonObject().put("type", "object"),
                inv -> Future.succeededFuture(inv.arguments())))
            .build());

    @Test
    void echoes() throws Exception {
      redisUrl = RATCHET.redisUrl();
      keyPrefix = RATCHET.keyPrefix();
      RATCHET.ratchet().submit("echo", "s1", Turn.of("t1", new ToolCall("echo", new JsonObject())))
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** Another one, its Ratchet configured further. */
  static class OtherApplicationTest {

    static volatile String keyPrefix;

    @RegisterExtension
    static final RatchetExtension RATCHET = RatchetExtension.create().options(o -> o.sessionIdleMillis(500));

    @Test
    void runs() {
      keyPrefix = RATCHET.keyPrefix();
    }
  }

  @Test
  void afterTheClassItsRedisServerIsStopped() throws Exception {
    TestExecutionSummary summary = run(ApplicationTest.class);

    assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(1);
    URI redis = URI.create(ApplicationTest.redisUrl);
    assertThatThrownBy(() -> connect(redis.getHost(), redis.getPort()))
        .as("the redis-server the extension started is gone").isInstanceOf(IOException.class);
  }

  @Test
  void eachClassJournalsUnderAPrefixOfItsOwn() {
    assertThat(run(ApplicationTest.class).getTestsSucceededCount()).isEqualTo(1);
    assertThat(run(OtherApplicationTest.class).getTestsSucceededCount()).isEqualTo(1);

    assertThat(ApplicationTest.keyPrefix).isNotBlank().isNotEqualTo(OtherApplicationTest.keyPrefix);
  }

  @Test
  void outsideItsTestsTheExtensionSaysHowToRegisterIt() {
    assertThatThrownBy(() -> RatchetExtension.create().ratchet())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("@RegisterExtension");
  }

  private static TestExecutionSummary run(Class<?> testClass) {
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(request().selectors(selectClass(testClass)).build(), listener);
    return listener.getSummary();
  }

  private static String failures(TestExecutionSummary summary) {
    StringWriter out = new StringWriter();
    summary.printFailuresTo(new PrintWriter(out), 20);
    return out.toString();
  }

  private static void connect(String host, int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 1_000);
    }
  }
}
