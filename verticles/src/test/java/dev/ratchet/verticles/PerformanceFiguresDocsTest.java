package dev.ratchet.verticles;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * README.md quotes the recovery figure as docs/PERFORMANCE.md measured it: the same range, with the
 * machine it was measured on and what else held its cores.
 */
class PerformanceFiguresDocsTest {

  private static final Pattern README_RECOVERY = Pattern.compile(
      "resume after a crash in ([0-9.]+–[0-9.]+ s) on an? ([^(]+?) with nothing else running");

  @Test
  void theReadmesRecoveryRangeAndItsConditionsAreThoseOfThePerformancePage() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve("docs/PERFORMANCE.md"))) {
      root = root.getParent();
    }
    String readme = Files.readString(root.resolve("README.md")).replaceAll("\\s+", " ");
    String performance = Files.readString(root.resolve("docs/PERFORMANCE.md")).replaceAll("\\s+", " ");
    Matcher m = README_RECOVERY.matcher(readme);
    assertThat(m.find()).as("README.md quotes the recovery figure as a range with its conditions").isTrue();
    assertThat(performance).contains("resumed in " + m.group(1) + " on the " + m.group(2) + " with nothing else running");
    assertThat(readme).containsPattern("load average [0-9]+");
    assertThat(performance).containsPattern("load average [0-9]+");
  }
}
