package dev.ratchet.server;

import dev.ratchet.runtime.testing.SecretSpellings;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The logging of {@code ratchet run}, checked in a child JVM set up as {@link Main} sets itself up:
 * no spelling of a secret that a library logs or prints reaches standard error or output.
 */
class RunLoggingRedactionTest {

  /** With the characters that JSON, URL and base64 encoding change, and unique to this run. */
  private final String secret = "sk-test-" + UUID.randomUUID().toString().substring(0, 8) + "/\"q\" +é-"
      + UUID.randomUUID().toString().substring(0, 8);

  @Test
  void aThirdPartyLoggerCannotPrintASecretUnderRunsLogging() throws Exception {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = ProcessHandle.current().info().command().orElse("java");
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", classpath, RedactedLogChild.class.getName());
    pb.environment().put("LEAK_TEST_SECRET", secret);
    Process child = pb.start();
    child.getOutputStream().close();
    byte[][] err = new byte[1][];
    Thread errReader = new Thread(() -> {
      try {
        err[0] = child.getErrorStream().readAllBytes();
      } catch (java.io.IOException e) {
        err[0] = new byte[0];
      }
    });
    errReader.start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    errReader.join(10_000);
    String errText = new String(err[0], StandardCharsets.UTF_8);

    assertThat(errText).contains("STDERR Message received: token was ***").contains("the end")
        .contains("Authorization: Basic ");
    assertThat(out).contains("printed in pieces: *** and ***");
    assertThat(SecretSpellings.foundIn(errText + out, secret)).isEmpty();
    assertThat(errText).doesNotContain(SecretSpellings.embeddedBase64("bot:", secret).substring(8, 40));
  }
}
