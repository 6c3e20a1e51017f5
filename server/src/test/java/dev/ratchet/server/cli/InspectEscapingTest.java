package dev.ratchet.server.cli;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A journal written before ids were checked may hold a turn id with a newline, a tool name with a
 * terminal escape, a message with a bidi override: {@code inspect} prints each event on one line of
 * visible characters, so no stored value forges a line of the timeline or drives the terminal.
 */
class InspectEscapingTest {

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  private static final String SESSION = "forged-1";
  private static final String FORGED_TURN = "t1\n2026-01-01 00:00:00.000  turn.completed       turn t1  [succeeded]";
  private static final String CLEAR_SCREEN = "cancel_order\u001b[2J\u001b]0;owned\u0007";
  private static final String MESSAGE = "refund \u202eevil\u202c ok\r\u0085\u009b31m\u007f\u2028end \\n";

  private static Vertx vertx;
  private static Path conf;

  @BeforeAll
  static void journalWithForgedValues() throws Exception {
    vertx = Vertx.vertx();
    Redis redis = Redis.createClient(vertx, REDIS.url());
    String prefix = REDIS.keyPrefix() + ":{" + SESSION + "}:";
    await(redis.send(Request.cmd(Command.HSET).arg(prefix + "meta").arg("agent").arg("shop\u001b[31m")
        .arg("epoch").arg("1").arg("owner").arg("node-a\n2026-01-01 00:00:00.000  session.claimed")));
    await(redis.send(Request.cmd(Command.XADD).arg(prefix + "events").arg("*")
        .arg("type").arg("call.started").arg("turn").arg(FORGED_TURN).arg("at").arg("1767225600000")
        .arg("call").arg("c1").arg("data").arg(new JsonObject().put("tool", CLEAR_SCREEN).put("attempt", 1).encode())));
    await(redis.send(Request.cmd(Command.XADD).arg(prefix + "events").arg("*")
        .arg("type").arg("message.user").arg("at").arg("1767225600001")
        .arg("data").arg(new JsonObject().put("text", MESSAGE).encode())));
    redis.close();
    conf = InspectRun.config(REDIS.keyPrefix());
  }

  @AfterAll
  static void close() throws Exception {
    await(vertx.close());
    Files.deleteIfExists(conf);
  }

  @Test
  void aForgedIdOrTextPrintsEscapedOnTheEventsOwnLine() {
    List<String> lines = InspectRun.printed(SESSION, "--redis-url", REDIS.url(), "--config", conf.toString()).lines().toList();

    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).isEqualTo("session forged-1  agent shop\\x1b[31m  epoch 1  owner node-a\\n2026-01-01"
        + " 00:00:00.000  session.claimed");
    assertThat(lines.get(1)).endsWith("call.started         turn t1\\n2026-01-01 00:00:00.000  turn.completed       turn"
        + " t1  [succeeded] c1  cancel_order\\x1b[2J\\x1b]0;owned\\x07 attempt 1");
    assertThat(lines.get(2)).endsWith("message.user          user: refund \\u202eevil\\u202c ok\\r\\u0085\\u009b31m\\x7f"
        + "\\u2028end \\\\n");
    for (String line : lines) {
      assertThat(line.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
    }
  }

  @Test
  void theJsonLinesKeepTheValuesWithNothingATerminalActsOn() {
    List<String> lines = InspectRun.printed(SESSION, "--json", "--redis-url", REDIS.url(), "--config", conf.toString())
        .lines().toList();

    assertThat(lines).hasSize(3);
    List<JsonObject> events = lines.subList(1, 3).stream().map(JsonObject::new).toList();
    assertThat(events.get(0).getString("turn")).isEqualTo(FORGED_TURN);
    assertThat(events.get(0).getJsonObject("data").getString("tool")).isEqualTo(CLEAR_SCREEN);
    assertThat(events.get(1).getJsonObject("data").getString("text")).isEqualTo(MESSAGE);
    for (String line : lines) {
      assertThat(line.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
    }
  }
}
