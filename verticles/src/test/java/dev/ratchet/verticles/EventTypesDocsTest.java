package dev.ratchet.verticles;

import dev.ratchet.runtime.EventType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every event type the journal or the event bus carries is described in docs/EVENT-BUS.md and docs/HTTP-API.md. */
class EventTypesDocsTest {

  @Test
  void everyEventTypeIsNamedInTheEventBusAndHttpReferences() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve("docs/EVENT-BUS.md"))) {
      root = root.getParent();
    }
    for (String doc : List.of("docs/EVENT-BUS.md", "docs/HTTP-API.md")) {
      String text = Files.readString(root.resolve(doc));
      List<String> missing = new ArrayList<>();
      for (EventType type : EventType.values()) {
        if (!text.contains("`" + type.wireName() + "`")) {
          missing.add(type.wireName());
        }
      }
      assertThat(missing).as("event types " + doc + " does not name").isEmpty();
    }
  }
}
