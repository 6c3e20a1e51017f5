package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.ApprovalStatus;
import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.journal.JournalStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static dev.ratchet.runtime.CallEvent.*;
import static dev.ratchet.runtime.CallStatus.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The call state machine of docs/ARCHITECTURE.md, move by move: every legal one, and every other refused. */
class CallTransitionsTest {

  /** The states of a call, as the design states them: from, event, to, the step that journals it. */
  private static final List<Object[]> LEGAL = List.of(
      new Object[] {NEW, SUBMITTED, NEW, JournalStep.SUBMIT_TURN},
      new Object[] {NEW, REFUSED, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {AWAITING_APPROVAL, REFUSED, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {STARTED, REFUSED, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {NEW, SKIPPED, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {AWAITING_APPROVAL, SKIPPED, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {NEW, APPROVAL_REQUESTED, AWAITING_APPROVAL, JournalStep.APPROVAL_REQUESTED},
      new Object[] {AWAITING_APPROVAL, APPROVAL_REQUESTED, AWAITING_APPROVAL, JournalStep.APPROVAL_REQUESTED},
      new Object[] {STARTED, APPROVAL_REQUESTED, AWAITING_APPROVAL, JournalStep.APPROVAL_REQUESTED},
      new Object[] {AWAITING_APPROVAL, APPROVED, NEW, JournalStep.APPROVAL_DECIDED},
      new Object[] {AWAITING_APPROVAL, REJECTED, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {NEW, ATTEMPT_STARTED, STARTED, JournalStep.CALL_STARTED},
      new Object[] {STARTED, ATTEMPT_STARTED, STARTED, JournalStep.CALL_STARTED},
      new Object[] {NEW, ATTEMPT_FAILED, NEW, JournalStep.APPEND_EVENT},
      new Object[] {STARTED, ATTEMPT_FAILED, STARTED, JournalStep.APPEND_EVENT},
      new Object[] {NEW, COMPLETED, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {STARTED, COMPLETED, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {STARTED, RECOVERED_UNKNOWN, DONE, JournalStep.CALLS_COMPLETED},
      new Object[] {DONE, RECONCILED, DONE, JournalStep.CALL_RECONCILED});

  static Stream<Arguments> legal() {
    return LEGAL.stream().map(Arguments::of);
  }

  static Stream<Arguments> illegal() {
    Set<String> legal = new HashSet<>();
    LEGAL.forEach(row -> legal.add(row[0] + "/" + row[1]));
    return Stream.of(CallStatus.values()).flatMap(s -> Stream.of(CallEvent.values()).map(e -> Arguments.of(s, e)))
        .filter(a -> !legal.contains(a.get()[0] + "/" + a.get()[1]));
  }

  @ParameterizedTest(name = "{0} --{1}--> {2} by {3}")
  @MethodSource("legal")
  void eachLegalMoveLeadsToItsStateAndJournalsItsStep(CallStatus from, CallEvent event, CallStatus to,
                                                      JournalStep step) {
    CallTransitions.Transition t = CallTransitions.next(from, event);
    assertThat(t.to()).isEqualTo(to);
    assertThat(t.step()).isEqualTo(step);
    assertThat(CallTransitions.allows(from, event)).isTrue();
  }

  @ParameterizedTest(name = "{0} x {1} is refused")
  @MethodSource("illegal")
  void everyOtherMoveIsRefusedNamingTheStateAndTheEvent(CallStatus from, CallEvent event) {
    assertThat(CallTransitions.allows(from, event)).isFalse();
    assertThatThrownBy(() -> CallTransitions.next(from, event))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("state " + from.wireName())
        .hasMessageContaining(event.name());
  }

  @Test
  void theTableHoldsExactlyTheDesignedMoves() {
    assertThat(CallTransitions.rows()).hasSize(LEGAL.size());
  }

  @Test
  void aCallWithAnOutcomeNeverRunsAgain() {
    // J1: from done, only a person's reconciliation is a move, and it stays done
    for (CallEvent e : CallEvent.values()) {
      if (e != RECONCILED) {
        assertThat(CallTransitions.allows(DONE, e)).as(e.name()).isFalse();
      }
    }
  }

  @Test
  void callStatesKeepTheirStoredNames() {
    assertThat(Stream.of(CallStatus.values()).map(CallStatus::wireName))
        .containsExactly("new", "started", "awaiting_approval", "done");
    for (CallStatus s : CallStatus.values()) {
      assertThat(CallStatus.fromWireName(s.wireName())).isEqualTo(s);
    }
  }

  @ParameterizedTest
  @EnumSource(value = ApprovalStatus.class, names = {"APPROVED", "REJECTED", "EXPIRED"})
  void aPendingApprovalIsDecidedOnce(ApprovalStatus to) {
    assertThat(ApprovalStatus.PENDING.decide(to)).isEqualTo(to);
    for (ApprovalStatus again : ApprovalStatus.values()) {
      assertThatThrownBy(() -> to.decide(again)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(to.wireName()).hasMessageContaining(again.wireName());
    }
  }

  @Test
  void anApprovalCannotBeDecidedBackToPending() {
    assertThatThrownBy(() -> ApprovalStatus.PENDING.decide(ApprovalStatus.PENDING))
        .isInstanceOf(IllegalStateException.class);
    assertThat(Stream.of(ApprovalStatus.values()).map(ApprovalStatus::wireName))
        .containsExactly("pending", "approved", "rejected", "expired");
  }
}
