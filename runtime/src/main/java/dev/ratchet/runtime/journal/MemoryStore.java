package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.RatchetException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * What the in-memory journal holds: its sessions and the indexes beside them (recovery, recent
 * activity, the approvals inbox, where turns run, retention's own), and the lock every step runs
 * under. One store may back several {@link InMemoryJournal}s, as one Redis serves several nodes.
 */
final class MemoryStore {

  private final RatchetClock clock;
  final Map<String, MemorySession> sessions = new HashMap<>();
  /** Where each caller's turn runs (caller, agent, turn id); kept as long as this store. */
  final Map<String, String> turnHomes = new HashMap<>();
  final Set<String> active = new LinkedHashSet<>();
  final Map<String, Long> recent = new HashMap<>();
  /** Approvals listed for the inbox, by request time, as "session\ncall". */
  final TreeSet<Pending> pending = new TreeSet<>(Comparator.comparingLong(Pending::requestedAt)
      .thenComparing(Pending::member));
  final MemoryRetention retention = new MemoryRetention(sessions, recent);

  record Pending(long requestedAt, String member) {
  }

  MemoryStore(RatchetClock clock) {
    this.clock = clock;
  }

  /**
   * Runs one step whole under the store's lock; its answer, or its refusal, arrives afterwards on
   * the caller's context (else on a context of {@code vertx}), never inside the call, as a reply
   * from a store would.
   */
  <T> Future<T> step(Vertx vertx, Supplier<T> step) {
    T value = null;
    RuntimeException error = null;
    synchronized (this) {
      try {
        value = step.get();
      } catch (RuntimeException e) {
        error = e;
      }
    }
    Promise<T> promise = Promise.promise();
    T answer = value;
    RuntimeException failure = error instanceof RatchetException ? error
        : error == null ? null : new RatchetException(ErrorCode.JOURNAL_ERROR, "the journal refused a step: " + error, error);
    Context caller = Vertx.currentContext();
    (caller != null ? caller : vertx.getOrCreateContext()).runOnContext(v -> {
      if (failure != null) {
        promise.fail(failure);
      } else {
        promise.complete(answer);
      }
    });
    return promise.future();
  }

  /** The session when {@code epoch} is its owner's, else FENCED (J4). */
  MemorySession fenced(String sessionId, long epoch) {
    MemorySession s = sessions.get(sessionId);
    if (s == null) {
      retention.notErased(sessionId);
    }
    if (s == null || s.epoch != epoch) {
      throw new RatchetException(ErrorCode.FENCED, "this node no longer owns the session: session owned by a newer epoch");
    }
    return s;
  }

  /**
   * The session a submit or a user message steps into, when {@code epoch} is its owner's (J4) and
   * {@code callerId} its caller. With {@code index} it is listed for recovery and as active now,
   * first: as in Redis, the index may name a session without a step, never the reverse.
   */
  MemorySession entered(String sessionId, long epoch, String callerId, boolean index, long now) {
    if (index) {
      active.add(sessionId);
      recent.put(sessionId, now);
    }
    MemorySession s = fenced(sessionId, epoch);
    checkCaller(s, callerId);
    return s;
  }

  /** Takes the approval of this call off the inbox. */
  void unlist(String sessionId, String callId) {
    pending.removeIf(p -> p.member().equals(sessionId + "\n" + callId));
  }

  /** A session's caller never changes; checked before anything of the session is read (rule of the caller). */
  private static void checkCaller(MemorySession s, String callerId) {
    if (s.agent != null && callerId != null && !callerId.isEmpty() && !callerId.equals(s.caller)) {
      throw new RatchetException(ErrorCode.CALLER_MISMATCH, s.caller != null ? "session belongs to another caller"
          : "session was created without a caller; its caller cannot be set later");
    }
  }

  /** Gives a new session its agent, caller and creator; fails when the session belongs to another agent. */
  static void ownSession(MemorySession s, String agent, String callerId, String creator, long now) {
    if (s.agent != null) {
      if (!s.agent.equals(agent)) {
        throw new RatchetException(ErrorCode.AGENT_MISMATCH, "session belongs to agent " + s.agent);
      }
      return;
    }
    s.agent = agent;
    s.createdAt = now;
    if (callerId != null && !callerId.isEmpty()) {
      s.caller = callerId;
    }
    if (creator != null && !creator.isEmpty()) {
      s.creator = creator;
    }
  }

  /** The time of a step, and of an approval's expiry, by the store's clock. */
  long now() {
    return clock.millis();
  }
}
