package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;

/**
 * The effect-class table of docs/ARCHITECTURE.md as a function: given how an attempt ended, whether to try
 * again or which terminal outcome the call gets.
 */
public final class OutcomeRules {

  /** What to do after an attempt. {@code notRun} means the error must carry the "did not run" prefix. */
  public record Verdict(boolean retry, Outcome outcome, boolean notRun) {
    private static final Verdict RETRY = new Verdict(true, null, false);
    private static final Verdict SUCCEEDED = new Verdict(false, Outcome.SUCCEEDED, false);

    static Verdict retryIt() {
      return RETRY;
    }

    static Verdict end(Outcome outcome, boolean notRun) {
      // the commonest verdict by far is shared: a verdict holds no state of its own
      return outcome == Outcome.SUCCEEDED && !notRun ? SUCCEEDED : new Verdict(false, outcome, notRun);
    }
  }

  private OutcomeRules() {
  }

  /**
   * @param attempt         the attempt that just ended, from 1
   * @param maxAttempts     the tool's retry policy (ignored for non-idempotent writes: always one)
   * @param anyUncertain    whether an earlier attempt may have reached the provider with effect (for a read:
   *                        whether an earlier attempt reached it at all)
   */
  public static Verdict judge(EffectClass effectClass, AttemptKind kind, int attempt, int maxAttempts,
                              boolean anyUncertain) {
    if (kind == AttemptKind.SUCCESS) {
      return Verdict.end(Outcome.SUCCEEDED, false);
    }
    if (kind == AttemptKind.REJECTED) {
      return Verdict.end(Outcome.FAILED, false);
    }
    boolean uncertain = anyUncertain || kind == AttemptKind.UNCERTAIN;
    switch (effectClass) {
      case NON_IDEMPOTENT_WRITE:
        return kind == AttemptKind.UNCERTAIN ? Verdict.end(Outcome.OUTCOME_UNKNOWN, false)
            : Verdict.end(Outcome.FAILED, true);
      case IDEMPOTENT_WRITE:
        if (attempt < maxAttempts) {
          return Verdict.retryIt();
        }
        return uncertain ? Verdict.end(Outcome.OUTCOME_UNKNOWN, false) : Verdict.end(Outcome.FAILED, true);
      case READ:
      default:
        if (attempt < maxAttempts) {
          return Verdict.retryIt();
        }
        // "did not run" only when no attempt reached the provider
        return Verdict.end(Outcome.FAILED, kind == AttemptKind.NOT_SENT && !anyUncertain);
    }
  }
}
