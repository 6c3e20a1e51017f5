package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallStatus;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@link InMemoryJournal} holds of one session, laid out as the Redis journal's keys are: its
 * metadata, turns, calls, step events and conversation. Records, specs and entries are kept as the
 * JSON text the Redis journal stores, so that reads build fresh objects as they do there.
 */
final class MemorySession {

  long epoch;
  String owner;
  String agent;
  String caller;
  String creator;
  Long createdAt;
  Long updatedAt;
  final Map<String, TurnEntry> turns = new HashMap<>();
  /** Turn ids submitted and not completed, in submission order. */
  final Set<String> inflight = new LinkedHashSet<>();
  final Map<String, CallEntry> calls = new HashMap<>();
  final List<Event> events = new ArrayList<>();
  long lastEventSeq;
  final List<String> conversation = new ArrayList<>();
  final Map<String, Long> messages = new HashMap<>();
  final Map<String, Long> ends = new HashMap<>();
  final Map<Long, Long> modelSteps = new LinkedHashMap<>();
  long lastStep;
  Long archivedAt;
  /** Tombstones of turns removed by retention (JSON text), by turn id. */
  final Map<String, String> tombstones = new LinkedHashMap<>();
  /** Turn ids whose tombstones expired: a resubmission of one is refused. */
  final Set<String> expiredTurns = new java.util.HashSet<>();

  /** One turn: its spec as submitted, and its results once completed (null when its calls' records hold them). */
  static final class TurnEntry {
    String spec;
    String specHash;
    String status;
    long submittedAt;
    String results;
    Long completedAt;
  }

  /** One call: its state, its record once it has one, and its approval. */
  static final class CallEntry {
    String turn;
    CallStatus state;
    int attempts;
    Long startedAt;
    String record;
    /** The record as first journaled, kept when a reconciliation replaces it. */
    String completedRecord;
    String approvalStatus;
    String approvalRequest;
    String argumentsHash;
    long expiresAt;
    long requestedAt;
    String approver;
    String approvalReason;
    long decidedAt;
    /** The arguments the approver edited the call's to (JSON text), or null. */
    String editedArguments;
  }

  /** One step event; {@code data} is JSON text, or null for a {@code turn.submitted} (its data is the spec). */
  record Event(long seq, String type, String turn, String call, long at, String data) {

    JsonObject toJson(String id) {
      JsonObject json = new JsonObject().put("id", id).put("type", type);
      if (turn != null && !turn.isEmpty()) {
        json.put("turn", turn);
      }
      if (call != null && !call.isEmpty()) {
        json.put("call", call);
      }
      json.put("at", at);
      if (data != null) {
        json.put("data", data.isEmpty() ? new JsonObject() : new JsonObject(data));
      }
      return json;
    }
  }

  void append(String type, String turn, String call, long at, String data) {
    events.add(new Event(++lastEventSeq, type, turn, call, at, data));
  }

  CallEntry call(String callId) {
    return calls.computeIfAbsent(callId, id -> new CallEntry());
  }
}
