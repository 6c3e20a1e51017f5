package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.TraceSpan;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A turn being executed: its calls, and whether a write has ended badly so later writes are skipped (rule 5). */
final class TurnRun {

  final Turn turn;
  final List<CallSlot> slots;
  final Promise<TurnResult> result = Promise.promise();
  /** Resumed from the journal after a restart, so a write may already have reached its provider. */
  final boolean recovering;
  boolean writesStopped;
  /** Outcomes reached but not yet journaled: the next group commit takes them. */
  List<Completion> unjournaled = new ArrayList<>();
  boolean flushScheduled;
  /** The results, when the group commit that journaled the last outcomes also completed the turn. */
  TurnResult journaledResult;
  String stoppedBy;
  /** The W3C trace context journaled with the turn (docs/OBSERVABILITY.md); null when none was given. */
  String traceparent;
  TraceSpan span = TraceSpan.OFF;
  /** The reply addresses this run answers when it ends (docs/EVENT-BUS.md); null until it has one. */
  private Set<String> replyAddresses;

  /** An outcome waiting for the group commit. */
  record Completion(CallSlot slot, CallResult record) {
  }

  TurnRun(Turn turn, List<CallSlot> slots, boolean recovering) {
    this.turn = turn;
    this.slots = slots;
    this.recovering = recovering;
  }

  /** Whether {@code replyAddress} is new to this run, which then answers it. */
  boolean addReplyAddress(String replyAddress) {
    if (replyAddresses == null) {
      replyAddresses = new HashSet<>(2);
    }
    return replyAddresses.add(replyAddress);
  }
}
