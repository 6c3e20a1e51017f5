package dev.ratchet.connectors.mcp;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.TIMEOUT_SECONDS;
import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class McpStartupDeathTest extends McpSourceTestBase {

  @Test
  void aServerThatDiesWhileStartingIsReportedAtOnceAndAFixedOneIsBackWithinTheBackoff() throws Exception {
    Path script = Files.createTempFile("mcp-server-", ".sh");
    Files.writeString(script, "exit 3\n");
    // the SDK's classes loaded once, so that the time measured below is the start-up and its death alone
    McpToolSource warm = McpToolSource.create(vertx, McpServerConfig.stdio("warm", "sh", script.toString()).build());
    assertThatThrownBy(() -> warm.connect().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).hasMessageContaining("exited");
    await(warm.close());

    // the default request timeout of 30 s: the start-up death must not wait for it
    source = McpToolSource.create(vertx, McpServerConfig.stdio("flaky", "sh", script.toString())
        .reconnectBackoff(Duration.ofMillis(200), Duration.ofMillis(500)).build());

    long start = System.nanoTime();
    assertThatThrownBy(() -> source.connect()
        .await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).hasMessageContaining("exited with code 3");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
    assertThat(source.health().healthy()).isFalse();
    assertThat(source.health().lastError()).isEqualTo("the server process exited with code 3");

    // the same command, fixed: the next reconnect attempt finds a working server
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = ProcessHandle.current().info().command().orElse("java");
    Files.writeString(script, "exec '" + java + "' -cp '" + classpath + "' " + TestMcpServer.class.getName() + "\n");
    long fixed = System.nanoTime();
    while (!source.health().healthy() && Duration.ofNanos(System.nanoTime() - fixed).toSeconds() < 20) {
      Thread.sleep(20);
    }
    // a few reconnect attempts of 500 ms each and one JVM start, rather than the request timeout per attempt
    assertThat(source.health().healthy()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - fixed)).isLessThan(Duration.ofSeconds(15));
    assertThat(await(source.tools(vertx))).isNotEmpty();
  }
}
