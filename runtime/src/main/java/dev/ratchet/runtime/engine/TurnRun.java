package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Promise;

import java.util.List;

/** A turn being executed: its calls, and whether a write has ended badly so later writes are skipped (rule 5). */
final class TurnRun {

  final Turn turn;
  final List<CallSlot> slots;
  final Promise<TurnResult> result = Promise.promise();
  /** Resumed from the journal after a restart, so a write may already have reached its provider. */
  final boolean recovering;
  boolean writesStopped;
  String stoppedBy;

  TurnRun(Turn turn, List<CallSlot> slots, boolean recovering) {
    this.turn = turn;
    this.slots = slots;
    this.recovering = recovering;
  }
}
