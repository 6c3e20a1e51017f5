package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.Turn;

import java.util.ArrayList;
import java.util.List;

/**
 * Redis key names. Every key of a session carries the hash tag {@code {<session>}} so that a
 * session lives in one Redis Cluster slot and each Lua script touches one slot only.
 */
final class JournalKeys {

  private final String prefix;

  JournalKeys(String prefix) {
    this.prefix = prefix;
  }

  String session(String sessionId) {
    return prefix + ":{" + sessionId + "}";
  }

  String meta(String sessionId) {
    return prefix + ":{" + sessionId + "}:meta";
  }

  String events(String sessionId) {
    return prefix + ":{" + sessionId + "}:events";
  }

  String turn(String sessionId, String turnId) {
    return prefix + ":{" + sessionId + "}:turn:" + turnId;
  }

  String call(String sessionId, String callId) {
    return prefix + ":{" + sessionId + "}:call:" + callId;
  }

  /** The call key of every call of the turn, in the model's order. */
  List<String> calls(String sessionId, Turn turn) {
    List<String> calls = new ArrayList<>(turn.calls().size());
    for (int i = 0; i < turn.calls().size(); i++) {
      calls.add(call(sessionId, turn.callId(sessionId, i).value()));
    }
    return calls;
  }

  /** {@link #meta} as the bytes a request carries; the other {@code ...Bytes} likewise. */
  byte[] metaBytes(String sessionId) {
    return RequestBytes.join(prefix, ":{", sessionId, "}:meta");
  }

  byte[] eventsBytes(String sessionId) {
    return RequestBytes.join(prefix, ":{", sessionId, "}:events");
  }

  byte[] turnBytes(String sessionId, String turnId) {
    return RequestBytes.join(prefix, ":{", sessionId, "}:turn:", turnId);
  }

  byte[] callBytes(String sessionId, String callId) {
    return RequestBytes.join(prefix, ":{", sessionId, "}:call:", callId);
  }

  byte[] inflightBytes(String sessionId) {
    return RequestBytes.join(prefix, ":{", sessionId, "}:inflight");
  }

  String inflight(String sessionId) {
    return prefix + ":{" + sessionId + "}:inflight";
  }

  /** The agent loop's state: last step, and which message, model step and round end is recorded where. */
  String loop(String sessionId) {
    return prefix + ":{" + sessionId + "}:loop";
  }

  /** The agent loop's conversation: user messages, model responses and round ends, in order. */
  String conversation(String sessionId) {
    return prefix + ":{" + sessionId + "}:conversation";
  }

  String turns(String sessionId) {
    return prefix + ":{" + sessionId + "}:turns";
  }

  /** Sessions with turns in flight: where recovery starts. */
  String activeSessions() {
    return prefix + ":active";
  }

  /** Pending approvals across sessions, scored by request time. */
  String pendingApprovals() {
    return prefix + ":approvals";
  }

  /** The version of the key layout the journal was written with (RedisJournal.LAYOUT). */
  String layout() {
    return prefix + ":layout";
  }

  /** All sessions, scored by last activity. */
  String recentSessions() {
    return prefix + ":sessions";
  }

  /** Tombstones of the session's turns removed by retention, by turn id. */
  String tombstones(String sessionId) {
    return prefix + ":{" + sessionId + "}:tombstones";
  }

  /** A digest (32 bits, in hex) of each turn id whose tombstone expired: a resubmission of one is refused. */
  String expired(String sessionId) {
    return prefix + ":{" + sessionId + "}:expired";
  }

  /** Sessions by the time their next retention check is due. */
  String retention() {
    return prefix + ":retention";
  }

  /**
   * The Bloom filter of the session ids retention forgot, and the previous generation's; one hash
   * tag, so that the step adding to them touches one slot.
   */
  String forgotten() {
    return prefix + ":{forgotten}:ids";
  }

  String forgottenPrevious() {
    return prefix + ":{forgotten}:previous";
  }

  /** How many ids the current generation of the forgotten-session filter holds. */
  String forgottenCount() {
    return prefix + ":{forgotten}:count";
  }

  /** The audit stream: who erased which session when. */
  String audit() {
    return prefix + ":audit";
  }
}
