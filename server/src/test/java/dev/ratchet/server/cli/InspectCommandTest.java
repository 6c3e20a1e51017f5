package dev.ratchet.server.cli;

import dev.ratchet.runtime.testing.TestRedis;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class InspectCommandTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @Test
  void inspectPrintsASessionsJournalAsATimelineAndAsJsonWithTheTurnsResults() throws Exception {
    InspectRun.journalCancelledOrder(RatchetOptions.create().redisUrl(REDIS.url()).keyPrefix(REDIS.keyPrefix()),
        "inspect-me");

    Path conf = InspectRun.config(REDIS.keyPrefix());
    String printed = InspectRun.printed("inspect-me", "--redis-url", REDIS.url(), "--config", conf.toString());
    assertThat(printed).contains("session inspect-me  agent shop");
    assertThat(printed).containsSubsequence("turn.submitted", "call.started", "cancel_order [non_idempotent_write]"
        + " succeeded", "turn.completed");

    // the journal's stream keeps only the result's size; the JSON lines show the turn's results whole
    JsonObject completed = InspectRun.printed("inspect-me", "--json", "--redis-url", REDIS.url(), "--config",
            conf.toString())
        .lines().filter(l -> l.startsWith("{")).map(JsonObject::new)
        .filter(e -> "turn.completed".equals(e.getString("type"))).findFirst().orElseThrow();
    assertThat(completed.getJsonObject("data").getJsonArray("results").getJsonObject(0).getValue("result"))
        .isEqualTo("cancelled");
  }

  @Test
  void inspectingAnUnknownSessionSaysSoAndFails() {
    assertThat(InspectRun.of("nobody-here", "--redis-url", REDIS.url()).code()).isEqualTo(1);
  }
}
