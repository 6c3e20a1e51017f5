package dev.ratchet.server;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The build's console output is plain text: Maven started with the project's settings
 * ({@code .mvn/jvm.config}) prints no terminal escape codes, which a CI log or a file shows as
 * garbage.
 */
class BuildOutputTest {

  @Test
  void mavenWithTheProjectsSettingsPrintsNoTerminalEscapeCodes() throws Exception {
    assumeTrue(onPath("mvn"), "mvn is not on the PATH");
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(root.resolve(".mvn"))) {
      root = root.getParent();
    }
    Path log = Files.createTempFile("ratchet-build", ".log");
    Process p = new ProcessBuilder("mvn", "-B", "-o", "-N", "validate").directory(root.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("mvn validate finished").isTrue();
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);
    assertThat(p.exitValue()).as(output).isZero();
    assertThat(output).as(output.replace("\u001b", "<ESC>")).doesNotContain("\u001b");
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    return path != null && Stream.of(path.split(File.pathSeparator))
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
  }
}
