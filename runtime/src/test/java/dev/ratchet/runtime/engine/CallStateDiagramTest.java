package dev.ratchet.runtime.engine;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/ARCHITECTURE.md shows the call state machine the engine runs: the block between the markers
 * is {@link CallStateDiagram#render()} of {@link CallTransitions}. Run with
 * {@code -Dratchet.regenerateDocs=true} to rewrite the block after changing the table.
 */
class CallStateDiagramTest {

  @Test
  void theArchitecturePageShowsTheTransitionTableTheEngineRuns() throws IOException {
    Path page = root().resolve("docs/ARCHITECTURE.md");
    String text = Files.readString(page, StandardCharsets.UTF_8);
    int begin = text.indexOf(CallStateDiagram.BEGIN);
    int end = text.indexOf(CallStateDiagram.END);
    assertThat(begin).as("the begin marker in " + page).isGreaterThanOrEqualTo(0);
    assertThat(end).as("the end marker after the begin marker").isGreaterThan(begin);
    int from = begin + CallStateDiagram.BEGIN.length() + 1;
    String rendered = CallStateDiagram.render();
    if (Boolean.getBoolean("ratchet.regenerateDocs")) {
      text = text.substring(0, from) + rendered + text.substring(end);
      Files.writeString(page, text, StandardCharsets.UTF_8);
      end = text.indexOf(CallStateDiagram.END);
    }
    assertThat(text.substring(from, end))
        .as("docs/ARCHITECTURE.md's call states; regenerate with -Dratchet.regenerateDocs=true")
        .isEqualTo(rendered);
  }

  @Test
  void theDiagramHasOneArrowPerRowOfTheTable() {
    String rendered = CallStateDiagram.render();
    assertThat(rendered).contains("stateDiagram-v2");
    long arrows = rendered.lines().filter(l -> l.contains(" --> ") && !l.endsWith("--> [*]")).count();
    assertThat(arrows).isEqualTo(CallTransitions.rows().size());
    assertThat(rendered).contains("[*] --> new: submitted (submit_turn)");
  }

  private static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("docs/ARCHITECTURE.md"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no docs/ARCHITECTURE.md above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }
}
