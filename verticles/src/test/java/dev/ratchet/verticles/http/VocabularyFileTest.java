package dev.ratchet.verticles.http;

import dev.ratchet.runtime.EventType;
import dev.ratchet.verticles.http.impl.Vocabulary;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's vocabulary file is what the enums generate, and the dashboard keeps no copies of
 * it. Run with {@code -Dratchet.vocabulary.write=true} to regenerate the file after changing an enum.
 */
class VocabularyFileTest {

  private static final Path FILE = Path.of(Vocabulary.FILE);
  private static final Path APP_JS = Path.of("src/main/resources/webroot/assets/app.js");

  @Test
  void theVocabularyFileIsWhatTheEnumsGenerate() throws IOException {
    if (Boolean.getBoolean("ratchet.vocabulary.write")) {
      Files.writeString(FILE, Vocabulary.text(), StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
        .as("%s is generated: run this test with -Dratchet.vocabulary.write=true to regenerate it", FILE)
        .isEqualTo(Vocabulary.text());
  }

  @Test
  void theFileNamesEveryErrorCodeWithItsStatusAndEveryEventType() throws IOException {
    JsonObject vocab = new JsonObject(Files.readString(FILE, StandardCharsets.UTF_8));
    assertThat(vocab.getJsonObject("errorCodes").getJsonObject("UNKNOWN_SESSION").getInteger("status"))
        .isEqualTo(404);
    assertThat(vocab.getJsonObject("errorCodes").getJsonObject("FOUR_EYES").getInteger("status")).isEqualTo(403);
    assertThat(vocab.getJsonObject("eventTypes").fieldNames()).contains("approval.requested", "call.completed");
    assertThat(vocab.getJsonObject("callStatuses").getJsonObject("outcome_unknown").getString("label"))
        .isEqualTo("outcome unknown");
  }

  @Test
  void theDashboardKeepsNoCopyOfTheEventTypesOrStatusLabels() throws IOException {
    String app = Files.readString(APP_JS, StandardCharsets.UTF_8);
    assertThat(app).contains("/assets/vocabulary.json");
    for (EventType t : EventType.values()) {
      assertThat(app).as("app.js names %s itself", t.wireName()).doesNotContain("'" + t.wireName() + "'");
    }
    for (TimelineStatus s : TimelineStatus.values()) {
      if (!s.label().equals(s.wireName())) {
        assertThat(app).as("app.js labels %s itself", s.wireName()).doesNotContain("'" + s.label() + "'");
      }
    }
  }
}
