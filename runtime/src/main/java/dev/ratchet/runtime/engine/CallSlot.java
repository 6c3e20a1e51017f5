package dev.ratchet.runtime.engine;

import dev.ratchet.runtime.CallEvent;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.CallStatus;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.TraceSpan;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.journal.CallState;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/** One call of a running turn: what was asked, what it resolved to, and what the journal already knows. */
final class CallSlot {

  final int index;
  /** What the model asked for; its arguments are the approver's once an approval edited them. */
  ToolCall call;
  final CallId callId;
  final ToolCatalog.Entry entry;
  /**
   * The catalogue the call was validated against: a call in flight keeps it reachable, so that a
   * replaced catalogue is kept exactly as long as a turn uses it (ARCHITECTURE.md, catalogue version).
   */
  final ToolCatalog catalog;
  final String problem;
  final CallState prior;
  /** Derived from the arguments the call is sent with: the edited ones after an edit. */
  IdempotencyKey key;
  final Promise<CallResult> done = Promise.promise();
  long startedAt;
  /** A write the write queue has let go: from then on it is running, or waits for its decision. */
  boolean dequeued;
  /** Set when another journal step already journaled this write's first attempt as started. */
  JsonObject startJournaled;
  /** The result of this call's latest record encoded, so that journal steps need not encode it again. */
  String resultText;
  /** The record of this call's {@code call.completed} event and that event's data, reused for {@code turn.completed}. */
  CallResult eventRecord;
  JsonObject eventJson;
  TraceSpan span = TraceSpan.OFF;
  /** Where this call stands; moves only through {@link CallTransitions}. */
  private CallStatus status;
  private String askReason;
  private boolean asked;

  CallSlot(int index, ToolCall call, CallId callId, ToolCatalog catalog, ToolCatalog.Entry entry, String problem,
           CallState prior) {
    this.index = index;
    this.call = call;
    this.callId = callId;
    this.catalog = catalog;
    this.entry = entry;
    this.problem = problem;
    this.prior = prior;
    this.key = IdempotencyKey.of(callId, call.arguments());
    this.status = prior.state();
  }

  /** Runs this call with the arguments an approver edited its arguments to (validated when decided). */
  void edit(JsonObject arguments) {
    call = new ToolCall(call.name(), arguments.copy(), call.modelCallId());
    key = IdempotencyKey.of(callId, call.arguments());
  }

  CallStatus status() {
    return status;
  }

  /** Moves this call by {@code event}; a move not in the table fails loudly. */
  void move(CallEvent event) {
    status = CallTransitions.next(status, event).to();
  }

  /** The journal answered that this call already has its outcome: no move of this node's made it. */
  void settled() {
    status = CallStatus.DONE;
  }

  EffectClass effectClass() {
    return entry == null ? null : entry.tool().effectClass();
  }

  boolean isWrite() {
    return entry != null && entry.tool().effectClass().isWrite();
  }

  /** Why this write needs approval, or null; the application's predicate is asked once per call. */
  String askReason() {
    if (!asked) {
      askReason = entry.approval().reasonToAsk(call.arguments());
      asked = true;
    }
    return askReason;
  }

  /** The {@code call.started} data of an attempt. */
  JsonObject startData(int attempt) {
    return new JsonObject().put("attempt", attempt).put("tool", entry.tool().name()).put("idempotencyKey", key.value());
  }
}
