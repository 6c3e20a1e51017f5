package dev.ratchet.runtime.retention;

import dev.ratchet.runtime.journal.ClaimedSession;
import dev.ratchet.runtime.journal.TurnSubmission;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.InMemoryJournal;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sweeping a session of many turns costs time in proportion to its size: each removed turn's
 * events are looked up, not searched for among all of the session's events (which made a session of
 * thousands of turns take seconds per check, on an event loop).
 */
class LargeSessionSweepTest {

  private static final int TURNS = 4_000;
  private static final int CALLS = 8;

  private final Vertx vertx = Vertx.vertx();

  @TempDir
  Path archiveDir;

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void aSessionOfThousandsOfTurnsIsSweptInTimeLinearInItsEvents() throws Exception {
    InMemoryJournal journal = InMemoryJournal.create(vertx);
    String session = "large-1";
    long epoch = await(journal.claim(session, "node-1").map(ClaimedSession::epoch));
    for (int t = 0; t < TURNS; t++) {
      List<ToolCall> calls = new ArrayList<>();
      for (int c = 0; c < CALLS; c++) {
        calls.add(new ToolCall("look_up", new JsonObject().put("c", c)));
      }
      Turn turn = new Turn("t" + t, calls);
      await(journal.submitTurn(TurnSubmission.of(session, epoch, "agent", turn)));
      List<CallResult> records = new ArrayList<>();
      for (int c = 0; c < CALLS; c++) {
        records.add(new CallResult(c, turn.callId(session, c), "look_up", null, EffectClass.READ, Outcome.SUCCEEDED,
            "ok", null, 1, false, false, null, 1, null));
      }
      await(journal.callsCompleted(session, epoch, turn.turnId(), records, new TurnResult(session,
          turn.turnId(), records), null, noText -> null));
    }
    RetentionSweeper sweeper = new RetentionSweeper(vertx, journal.retention(), ArchiveSink.jsonLines(vertx,
        archiveDir, 1L << 30),
        RetentionOptions.DISABLED.withEnabled(true).withDefaultPolicy(new RetentionPolicy(null, 1, null))
            .withTombstoneWindow(Duration.ofHours(1)));

    Context loop = vertx.getOrCreateContext();
    Promise<Void> swept = Promise.promise();
    long t0 = System.nanoTime();
    loop.runOnContext(v -> sweeper.check(session, System.currentTimeMillis()).onComplete(swept));
    swept.future().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    assertThat(sweeper.stats().turnsRemoved).isEqualTo(TURNS - 1);
    // a search per turn took over a minute here; the lookup takes a few seconds on a loaded machine
    assertThat(millis).as("check of %d turns took %d ms", TURNS, millis).isLessThan(15_000);
  }
}
