package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import io.vertx.core.Future;

/**
 * The journal port's steps of decisions: approval requests and decisions (J5, rule 8) and the
 * reconciliation of an {@code outcome_unknown} call, part of {@link SessionJournal}.
 */
public interface DecisionSteps {

  /**
   * Journals that a write waits for a decision (J5) and lists it among the pending approvals
   * ({@link JournalQueries#pendingApprovals}) until decided. Asking again keeps the first request
   * and answers its status ({@code pending}, {@code approved}, ...); a call that already has an
   * outcome answers {@code decided}; else {@code pending}. Requests and decisions survive restarts
   * like every step.
   */
  Future<String> approvalRequested(long epoch, ApprovalRequest request);

  /**
   * Journals a decision ({@code approved}, {@code rejected} or {@code expired}) after checking it
   * (rule 8). Not fenced: any node may decide. Answers {@code UNKNOWN_CALL} (no request),
   * {@code ALREADY_DECIDED} (journals nothing), {@code STALE} (the arguments hash is not the
   * request's; journals nothing), {@code EXPIRED} (an approval or rejection after the request
   * expired: the request is journaled expired instead) or {@code ACCEPTED}. An approval's edited
   * arguments are recorded with the hash of the arguments the approver was shown and who edited
   * them (see {@link Verdict}); the request keeps the original arguments.
   */
  Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, Verdict verdict);

  /**
   * Records a person's finding ({@code SUCCEEDED} or {@code FAILED}) for an {@code outcome_unknown}
   * call, with who made it, and journals {@code call.reconciled}. Fails with {@code INVALID_REQUEST}
   * for {@code OUTCOME_UNKNOWN}, {@code UNKNOWN_CALL} when the call has no record, {@code NOT_UNKNOWN}
   * when its outcome is known. A completed turn keeps answering its first results (J7).
   */
  Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note);
}
