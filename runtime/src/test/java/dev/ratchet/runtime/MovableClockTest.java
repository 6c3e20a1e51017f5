package dev.ratchet.runtime;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The clock a test moves: timers fall due by its time alone, in due order, on the contexts that set them. */
class MovableClockTest {

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final Vertx vertx = Vertx.vertx();
  private final MovableClock clock = MovableClock.startingAt(vertx, START);

  @AfterEach
  void close() {
    await(vertx.close());
  }

  @Test
  void timeStandsStillUntilMovedAndAdvanceFiresDueTimersInDueOrderReadingTheirDueTime() {
    List<String> fired = new CopyOnWriteArrayList<>();
    clock.setTimer(3_000, t -> fired.add("c@" + clock.millis()));
    clock.setTimer(1_000, t -> fired.add("a@" + clock.millis()));
    clock.setTimer(2_000, t -> fired.add("b@" + clock.millis()));
    clock.setTimer(10_000, t -> fired.add("late"));
    assertThat(clock.instant()).isEqualTo(START);

    await(clock.advance(Duration.ofMillis(2_999)));
    assertThat(fired).containsExactly("a@" + (START.toEpochMilli() + 1_000), "b@" + (START.toEpochMilli() + 2_000));
    assertThat(clock.millis()).isEqualTo(START.toEpochMilli() + 2_999);

    await(clock.advance(Duration.ofMillis(1)));
    assertThat(fired).hasSize(3).last().isEqualTo("c@" + (START.toEpochMilli() + 3_000));
    assertThat(clock.pendingTimers()).isEqualTo(1);
  }

  @Test
  void aTimerFiresOnTheContextItWasSetFromAndATimerItSetsWithinTheMoveFiresToo() {
    Context context = vertx.getOrCreateContext();
    CompletableFuture<Context> firedOn = new CompletableFuture<>();
    List<Long> chained = new CopyOnWriteArrayList<>();
    context.runOnContext(v -> clock.setTimer(100, t -> {
      firedOn.complete(Vertx.currentContext());
      clock.setTimer(100, t2 -> chained.add(clock.millis()));
    }));
    await(clock.whenPending(1));

    await(clock.advance(Duration.ofMillis(250)));
    assertThat(firedOn.getNow(null)).isSameAs(context);
    assertThat(chained).containsExactly(START.toEpochMilli() + 200);
  }

  @Test
  void aCancelledTimerNeverFiresAndTheClockNeverMovesBack() {
    List<Long> fired = new CopyOnWriteArrayList<>();
    long id = clock.setTimer(50, fired::add);
    assertThat(clock.cancelTimer(id)).isTrue();
    assertThat(clock.cancelTimer(id)).isFalse();

    await(clock.advanceTo(START.plusSeconds(1)));
    assertThat(fired).isEmpty();
    assertThatThrownBy(() -> clock.advanceTo(START)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
  }
}
