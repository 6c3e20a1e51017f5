package dev.ratchet.runtime.engine;

/** How one attempt ended, as far as the provider's state is concerned. */
public enum AttemptKind {
  /** The tool succeeded. */
  SUCCESS,
  /** The provider answered that it did not apply the request; trying again will not help. */
  REJECTED,
  /** The provider did not apply the request and asked to try again later. */
  RETRYABLE,
  /** The request provably never left the process. */
  NOT_SENT,
  /** The request may have reached the provider and taken effect (timeouts, lost connections). */
  UNCERTAIN
}
