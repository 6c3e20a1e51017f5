package dev.ratchet.server.cli;

import dev.ratchet.server.Main;
import dev.ratchet.verticles.http.PasswordHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Every command, misused, says what is wrong and how to use it, never with a stack trace: run as a user runs them. */
class CliErrorsTest {

  @TempDir
  Path dir;

  /** Exit code and everything printed by {@code java <main> args}, with no standard input. */
  private String[] run(Class<?> main, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.environment().keySet().removeIf(k -> k.startsWith("RATCHET_"));
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new String[] {String.valueOf(p.exitValue()), out};
  }

  private static void noStackTrace(String out) {
    assertThat(out).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void anUnknownCommandNamesItAndPrintsTheUsageLine() throws Exception {
    String[] r = run(Main.class, "frobnicate");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).contains("ratchet: Unmatched argument at index 0: 'frobnicate'").contains("Usage: ratchet");
    noStackTrace(r[1]);
  }

  @Test
  void aBadFlagNamesItAndPrintsTheCommandsUsageLine() throws Exception {
    String[] r = run(Main.class, "inspect", "s1", "--bogus");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).contains("ratchet inspect: Unknown option: '--bogus'").contains("Usage: ratchet inspect");
    noStackTrace(r[1]);
  }

  @Test
  void aCommandThatFailsSaysWhyInOneLine() throws Exception {
    Files.writeString(dir.resolve("broken.json"), "{ not json");
    String[] r = run(Main.class, "inspect", "s1", "--config", "broken.json");
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[1]).contains("ratchet inspect failed: ").contains("Usage: ratchet inspect");
    noStackTrace(r[1]);
  }

  @Test
  void passwordHashWithoutArgumentsOrWithoutAPasswordPrintsItsUsage() throws Exception {
    String[] none = run(PasswordHash.class);
    assertThat(none[0]).isEqualTo("2");
    assertThat(none[1]).contains("usage: java -cp ratchet.jar dev.ratchet.verticles.http.PasswordHash"
        + " hash-password [password] | new-token");
    noStackTrace(none[1]);

    String[] noPassword = run(PasswordHash.class, "hash-password");
    assertThat(noPassword[0]).isEqualTo("2");
    assertThat(noPassword[1]).contains("no password given").contains("usage:");
    noStackTrace(noPassword[1]);

    String[] unknown = run(PasswordHash.class, "hash");
    assertThat(unknown[0]).isEqualTo("2");
    assertThat(unknown[1]).contains("unknown command 'hash'").contains("usage:");
  }

  @Test
  void runInClusterModeWithoutASharedRedisSaysWhyBeforeStartingAnything() throws Exception {
    String[] r = run(Main.class, "run", "--cluster", "--no-demo", "--config", "none.json");
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[1]).contains("cluster mode needs one Redis that every member journals to");
    assertThat(dir.resolve("data/redis")).as("no embedded Redis started").doesNotExist();
    noStackTrace(r[1]);
  }

  @Test
  void reloadWithoutARunningServerSaysSo() throws Exception {
    String[] r = run(Main.class, "reload", "--config", "none.json");
    assertThat(r[0]).isEqualTo("1");
    assertThat(r[1]).contains("ratchet reload: no running server found");
    noStackTrace(r[1]);
  }
}
