package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.impl.Sha256;
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
    return inSession(sessionId, "meta");
  }

  /**
   * The mark an erasure leaves: the meta's name with {@code :erased}, in the session's slot, so that
   * the claim and the epoch check (fence.lua) find it from the meta's key alone.
   */
  String erased(String sessionId) {
    return meta(sessionId) + ":erased";
  }

  String events(String sessionId) {
    return inSession(sessionId, "events");
  }

  String turn(String sessionId, String turnId) {
    return inSession(sessionId, "turn:" + turnId);
  }

  String call(String sessionId, String callId) {
    return inSession(sessionId, "call:" + callId);
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
    return inSessionBytes(sessionId, "meta");
  }

  byte[] eventsBytes(String sessionId) {
    return inSessionBytes(sessionId, "events");
  }

  byte[] turnBytes(String sessionId, String turnId) {
    return inSessionBytes(sessionId, "turn:", turnId);
  }

  byte[] callBytes(String sessionId, String callId) {
    return inSessionBytes(sessionId, "call:", callId);
  }

  byte[] inflightBytes(String sessionId) {
    return inSessionBytes(sessionId, "inflight");
  }

  String inflight(String sessionId) {
    return inSession(sessionId, "inflight");
  }

  /** The agent loop's state: last step, and which message, model step and round end is recorded where. */
  String loop(String sessionId) {
    return inSession(sessionId, "loop");
  }

  /** The agent loop's conversation: user messages, model responses and round ends, in order. */
  String conversation(String sessionId) {
    return inSession(sessionId, "conversation");
  }

  String turns(String sessionId) {
    return inSession(sessionId, "turns");
  }

  /** Sessions with turns in flight: where recovery starts. */
  String activeSessions() {
    return prefix + ":active";
  }

  /** Where a caller's turn of an agent runs: one key per (caller, agent, turn id), named by their digest. */
  String turnHome(String callerId, String agent, String turnId) {
    return prefix + ":turn-home:" + Sha256.hex(callerId + "\n" + agent + "\n" + turnId);
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
    return inSession(sessionId, "tombstones");
  }

  /** A digest (32 bits, in hex) of each turn id whose tombstone expired: a resubmission of one is refused. */
  String expired(String sessionId) {
    return inSession(sessionId, "expired");
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

  /** The session's key {@code part}: the hash tag keeps every key of a session in one slot. */
  private String inSession(String sessionId, String part) {
    return prefix + ":{" + sessionId + "}:" + part;
  }

  /** {@link #inSession} as the bytes a request carries. */
  private byte[] inSessionBytes(String sessionId, String part) {
    return RequestBytes.join(prefix, ":{", sessionId, "}:", part);
  }

  private byte[] inSessionBytes(String sessionId, String part, String id) {
    return RequestBytes.join(prefix, ":{", sessionId, "}:", part, id);
  }
}
