package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RetryPolicy;
import dev.ratchet.runtime.engine.OutcomeRules.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.ratchet.runtime.EffectClass.IDEMPOTENT_WRITE;
import static dev.ratchet.runtime.EffectClass.NON_IDEMPOTENT_WRITE;
import static dev.ratchet.runtime.EffectClass.READ;
import static dev.ratchet.runtime.engine.AttemptKind.NOT_SENT;
import static dev.ratchet.runtime.engine.AttemptKind.REJECTED;
import static dev.ratchet.runtime.engine.AttemptKind.RETRYABLE;
import static dev.ratchet.runtime.engine.AttemptKind.SUCCESS;
import static dev.ratchet.runtime.engine.AttemptKind.UNCERTAIN;
import static org.assertj.core.api.Assertions.assertThat;

/** The effect-class table of docs/ARCHITECTURE.md, row by row, as a pure function. */
class OutcomeRulesTest {

  private static final int MAX = RetryPolicy.DEFAULT.maxAttempts();

  private static Verdict judge(EffectClass ec, AttemptKind kind, int attempt, boolean anyUncertain) {
    return OutcomeRules.judge(ec, kind, attempt, MAX, anyUncertain);
  }

  private static void assertRetry(Verdict v) {
    assertThat(v.retry()).as("retry").isTrue();
    assertThat(v.outcome()).isNull();
  }

  private static void assertEnds(Verdict v, Outcome outcome, boolean notRun) {
    assertThat(v.retry()).as("retry").isFalse();
    assertThat(v.outcome()).isEqualTo(outcome);
    assertThat(v.notRun()).as("notRun").isEqualTo(notRun);
  }

  @Test
  void theDefaultRetryPolicyAllowsThreeAttempts() {
    assertThat(MAX).isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(EffectClass.class)
  void aSuccessfulAttemptSucceedsForEveryEffectClass(EffectClass ec) {
    assertEnds(judge(ec, SUCCESS, 1, false), Outcome.SUCCEEDED, false);
    assertEnds(judge(ec, SUCCESS, 3, true), Outcome.SUCCEEDED, false);
  }

  @ParameterizedTest
  @EnumSource(EffectClass.class)
  void aRejectedAttemptFailsAtOnceWithoutRetryForEveryEffectClass(EffectClass ec) {
    assertEnds(judge(ec, REJECTED, 1, false), Outcome.FAILED, false);
    assertEnds(judge(ec, REJECTED, 2, true), Outcome.FAILED, false);
  }

  @ParameterizedTest
  @EnumSource(value = AttemptKind.class, names = {"UNCERTAIN", "RETRYABLE", "NOT_SENT"})
  void aReadIsRetriedUntilItsAttemptsRunOutThenFails(AttemptKind kind) {
    assertRetry(judge(READ, kind, 1, false));
    assertRetry(judge(READ, kind, 2, kind == UNCERTAIN));
    Verdict last = judge(READ, kind, 3, kind == UNCERTAIN);
    assertThat(last.retry()).isFalse();
    assertThat(last.outcome()).isEqualTo(Outcome.FAILED);
  }

  @Test
  void aReadThatTimedOutOnEveryAttemptIsFailedNeverOutcomeUnknown() {
    Verdict v = judge(READ, UNCERTAIN, 3, true);
    assertEnds(v, Outcome.FAILED, false);
  }

  @Test
  void aReadSaysItDidNotRunOnlyWhenNoAttemptReachedTheProvider() {
    assertEnds(judge(READ, RETRYABLE, 3, false), Outcome.FAILED, false);
    assertEnds(judge(READ, NOT_SENT, 3, true), Outcome.FAILED, false);
    assertEnds(judge(READ, NOT_SENT, 3, false), Outcome.FAILED, true);
  }

  @ParameterizedTest
  @EnumSource(value = AttemptKind.class, names = {"UNCERTAIN", "RETRYABLE", "NOT_SENT"})
  void anIdempotentWriteIsRetriedWhileAttemptsRemain(AttemptKind kind) {
    assertRetry(judge(IDEMPOTENT_WRITE, kind, 1, false));
    assertRetry(judge(IDEMPOTENT_WRITE, kind, 2, true));
  }

  @Test
  void anIdempotentWriteWhoseLastAttemptWasUncertainIsOutcomeUnknown() {
    assertEnds(judge(IDEMPOTENT_WRITE, UNCERTAIN, 3, false), Outcome.OUTCOME_UNKNOWN, false);
  }

  @ParameterizedTest
  @EnumSource(value = AttemptKind.class, names = {"RETRYABLE", "NOT_SENT"})
  void anIdempotentWriteWithAnEarlierUncertainAttemptIsOutcomeUnknownEvenIfTheLastHadNoEffect(AttemptKind kind) {
    assertEnds(judge(IDEMPOTENT_WRITE, kind, 3, true), Outcome.OUTCOME_UNKNOWN, false);
  }

  @ParameterizedTest
  @EnumSource(value = AttemptKind.class, names = {"RETRYABLE", "NOT_SENT"})
  void anIdempotentWriteWhoseAttemptsAllProvablyHadNoEffectIsFailedAndSafeToCallAgain(AttemptKind kind) {
    assertEnds(judge(IDEMPOTENT_WRITE, kind, 3, false), Outcome.FAILED, true);
  }

  @Test
  void anIdempotentWriteHonoursItsOwnAttemptLimit() {
    assertEnds(OutcomeRules.judge(IDEMPOTENT_WRITE, UNCERTAIN, 1, 1, false), Outcome.OUTCOME_UNKNOWN, false);
    assertRetry(OutcomeRules.judge(IDEMPOTENT_WRITE, UNCERTAIN, 4, 5, true));
  }

  @Test
  void aNonIdempotentWriteGetsExactlyOneAttemptWhateverItsPolicySays() {
    for (AttemptKind kind : AttemptKind.values()) {
      assertThat(OutcomeRules.judge(NON_IDEMPOTENT_WRITE, kind, 1, 10, false).retry()).as(kind.name()).isFalse();
    }
  }

  @Test
  void aNonIdempotentWriteThatMayHaveReachedTheProviderIsOutcomeUnknown() {
    assertEnds(OutcomeRules.judge(NON_IDEMPOTENT_WRITE, UNCERTAIN, 1, 10, false), Outcome.OUTCOME_UNKNOWN, false);
  }

  @ParameterizedTest
  @EnumSource(value = AttemptKind.class, names = {"RETRYABLE", "NOT_SENT"})
  void aNonIdempotentWriteThatProvablyDidNotRunIsFailedAndSafeToCallAgain(AttemptKind kind) {
    assertEnds(OutcomeRules.judge(NON_IDEMPOTENT_WRITE, kind, 1, 10, false), Outcome.FAILED, true);
  }
}
