package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "when attempts run out" column of the effect-class table in docs/ARCHITECTURE.md names
 * exactly the outcomes {@link OutcomeRules} gives a call's last attempt, so a reader learns when a
 * write that ran out of attempts is {@code failed} rather than {@code outcome_unknown}.
 */
class OutcomeTableDocTest {

  private static final Pattern NAME = Pattern.compile("`([a-z_]+)`");

  @Test
  void theLastColumnNamesEveryOutcomeALastAttemptCanEndWith() throws Exception {
    Path doc = Path.of("").toAbsolutePath().getParent().resolve("docs/ARCHITECTURE.md");
    List<String> rows = Files.readAllLines(doc).stream()
        .filter(l -> l.startsWith("|") && l.split("\\|").length > 5).toList();
    Set<EffectClass> seen = EnumSet.noneOf(EffectClass.class);
    for (EffectClass ec : EffectClass.values()) {
      for (String row : rows) {
        String[] cells = row.split("\\|");
        if (!cells[2].trim().equals(ec.wireName())) {
          continue;
        }
        seen.add(ec);
        Set<String> documented = new TreeSet<>();
        Matcher m = NAME.matcher(cells[5]);
        while (m.find()) {
          documented.add(m.group(1));
        }
        assertThat(documented).as(ec + ": " + cells[5]).isEqualTo(lastAttemptOutcomes(ec));
      }
    }
    assertThat(seen).as("a row for every effect class").containsExactlyInAnyOrder(EffectClass.values());
  }

  /** Every outcome a call's last attempt can end with when it did not succeed and was not refused. */
  private static Set<String> lastAttemptOutcomes(EffectClass ec) {
    Set<String> outcomes = new TreeSet<>();
    for (AttemptKind kind : List.of(AttemptKind.RETRYABLE, AttemptKind.NOT_SENT, AttemptKind.UNCERTAIN)) {
      for (boolean earlierUncertain : new boolean[] {false, true}) {
        OutcomeRules.Verdict v = OutcomeRules.judge(ec, kind, 3, 3, earlierUncertain);
        assertThat(v.retry()).isFalse();
        outcomes.add(v.outcome().wireName());
      }
    }
    outcomes.remove(Outcome.SUCCEEDED.wireName());
    return outcomes;
  }
}
