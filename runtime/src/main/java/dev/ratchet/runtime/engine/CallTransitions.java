package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.journal.JournalStep;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static dev.ratchet.runtime.CallEvent.*;
import static dev.ratchet.runtime.CallStatus.*;

/**
 * The call state machine of docs/ARCHITECTURE.md as a table: state x event gives the next state and
 * the journal step that records the move. The engine moves every call through {@link #next}; a move
 * not in the table is a bug and fails loudly. The docs' diagram is rendered from {@link #rows()}
 * ({@link CallStateDiagram}).
 */
public final class CallTransitions {

  /** One row: in {@code from}, {@code event} leads to {@code to}, journaled by {@code step}. */
  public record Transition(CallStatus from, CallEvent event, CallStatus to, JournalStep step) {
  }

  private static final List<Transition> ROWS = List.of(
      row(NEW, SUBMITTED, NEW, JournalStep.SUBMIT_TURN),
      row(NEW, REFUSED, DONE, JournalStep.CALLS_COMPLETED),
      // a call resumed after a restart whose tool is no longer offered, or whose arguments it now refuses
      row(AWAITING_APPROVAL, REFUSED, DONE, JournalStep.CALLS_COMPLETED),
      row(STARTED, REFUSED, DONE, JournalStep.CALLS_COMPLETED),
      row(NEW, SKIPPED, DONE, JournalStep.CALLS_COMPLETED),
      row(AWAITING_APPROVAL, SKIPPED, DONE, JournalStep.CALLS_COMPLETED),
      row(NEW, APPROVAL_REQUESTED, AWAITING_APPROVAL, JournalStep.APPROVAL_REQUESTED),
      // after a restart the request is asked again, which keeps the first one
      row(AWAITING_APPROVAL, APPROVAL_REQUESTED, AWAITING_APPROVAL, JournalStep.APPROVAL_REQUESTED),
      // a write started before a restart under a policy that did not ask, asking now
      row(STARTED, APPROVAL_REQUESTED, AWAITING_APPROVAL, JournalStep.APPROVAL_REQUESTED),
      row(AWAITING_APPROVAL, APPROVED, NEW, JournalStep.APPROVAL_DECIDED),
      row(AWAITING_APPROVAL, REJECTED, DONE, JournalStep.CALLS_COMPLETED),
      row(NEW, ATTEMPT_STARTED, STARTED, JournalStep.CALL_STARTED),
      row(STARTED, ATTEMPT_STARTED, STARTED, JournalStep.CALL_STARTED),
      row(NEW, ATTEMPT_FAILED, NEW, JournalStep.APPEND_EVENT),
      row(STARTED, ATTEMPT_FAILED, STARTED, JournalStep.APPEND_EVENT),
      row(NEW, COMPLETED, DONE, JournalStep.CALLS_COMPLETED),
      row(STARTED, COMPLETED, DONE, JournalStep.CALLS_COMPLETED),
      row(STARTED, RECOVERED_UNKNOWN, DONE, JournalStep.CALLS_COMPLETED),
      row(DONE, RECONCILED, DONE, JournalStep.CALL_RECONCILED));

  private static final Map<CallStatus, Map<CallEvent, Transition>> TABLE = new EnumMap<>(CallStatus.class);

  static {
    for (Transition t : ROWS) {
      if (TABLE.computeIfAbsent(t.from(), s -> new EnumMap<>(CallEvent.class)).put(t.event(), t) != null) {
        throw new ExceptionInInitializerError("two rows for " + t.from() + " x " + t.event());
      }
    }
  }

  private CallTransitions() {
  }

  private static Transition row(CallStatus from, CallEvent event, CallStatus to, JournalStep step) {
    return new Transition(from, event, to, step);
  }

  /** Every row, in the order the docs list them. */
  public static List<Transition> rows() {
    return ROWS;
  }

  /**
   * The move {@code event} makes from {@code from}.
   *
   * @throws IllegalStateException naming the state and the event when the table has no such move
   */
  public static Transition next(CallStatus from, CallEvent event) {
    Map<CallEvent, Transition> moves = TABLE.get(from);
    Transition t = moves == null ? null : moves.get(event);
    if (t == null) {
      throw new IllegalStateException("a call in state " + from + " cannot take the event " + event.name()
          + " (" + event.label() + "); see CallTransitions");
    }
    return t;
  }

  /** Whether the table has a move for {@code event} from {@code from}. */
  public static boolean allows(CallStatus from, CallEvent event) {
    Map<CallEvent, Transition> moves = TABLE.get(from);
    return moves != null && moves.containsKey(event);
  }
}
