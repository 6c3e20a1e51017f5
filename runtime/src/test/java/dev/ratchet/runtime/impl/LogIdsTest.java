package dev.ratchet.runtime.impl;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A log line about a session, turn or call carries their ids as fields of its message and, for a
 * binding that prints MDC keys, in the MDC for that line only: the next line on the same thread,
 * about another session or about nothing, never shows them, and the application's own MDC keys
 * stay. Run in a child JVM whose binding prints each line's MDC ({@link MdcPrintingLogs}).
 */
class LogIdsTest {

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

  @Test
  void aLinesIdsAreInItsMessageAndInTheMdcForThatLineOnly() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-Dslf4j.provider=" + MdcPrintingLogs.class.getName(), "-cp",
        System.getProperty("java.class.path"), Child.class.getName()).redirectErrorStream(true).start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> lines = out.lines().filter(l -> l.startsWith("INFO ") || l.startsWith("WARN ")).toList();

    assertThat(lines).as(out).containsExactly(
        "INFO {app.request=r-7, ratchet.call.id=call_1, ratchet.session.id=s-1, ratchet.turn.id=t1, trace_id=" + TRACE
            + "} session=s-1 turn=t1 call=call_1 trace=" + TRACE + ": attempt 1 of look_up failed, retrying in 80 ms",
        "INFO {app.request=r-7} a line about nothing",
        "WARN {app.request=r-7, ratchet.session.id=s-2} session=s-2: the agent loop stopped: {} stays as it is",
        "INFO {app.request=r-7} another line about nothing");
  }

  /** Logs as the runtime does on one thread, between lines of the application's own. */
  public static final class Child {

    private Child() {
    }

    public static void main(String[] args) {
      Logger log = LoggerFactory.getLogger(LogIdsTest.class);
      MDC.put("app.request", "r-7");
      new LogIds("s-1", "t1", "call_1", TRACE)
          .info(log, "attempt {} of {} failed, retrying in {} ms", 1, "look_up", 80);
      log.info("a line about nothing");
      LogIds.session("s-2").warn(log, "the agent loop stopped: {}", "{} stays as it is");
      log.info("another line about nothing");
    }
  }
}
