package dev.ratchet.runtime.retention.impl;

import dev.ratchet.runtime.journal.SessionHistory;
import dev.ratchet.runtime.journal.SessionHistory.TurnEntry;
import dev.ratchet.runtime.retention.RetentionPolicy;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/** Retention's decisions as pure functions of a session's history, its policy and the time. */
public final class RetentionRules {

  private RetentionRules() {
  }

  /** The turns to remove, and whether the whole session is archived. */
  public record Decision(List<TurnEntry> turns, boolean wholeSession) {
  }

  public static Decision decide(SessionHistory history, RetentionPolicy policy, long now) {
    List<TurnEntry> completed = new ArrayList<>();
    boolean blocked = false;
    for (TurnEntry t : history.turns()) {
      if ("completed".equals(t.status())) {
        completed.add(t);
      }
      blocked |= !t.removable();
    }
    long updatedAt = history.meta().getLong("updatedAt", 0L);
    boolean idle = policy.idleAfter() != null && !history.archived()
        && now - updatedAt >= policy.idleAfter().toMillis();
    List<TurnEntry> remove = new ArrayList<>();
    for (int i = 0; i < completed.size(); i++) {
      TurnEntry t = completed.get(i);
      if (t.removable() && (idle || !kept(t, completed.size() - 1 - i, policy, now))) {
        remove.add(t);
      }
    }
    return new Decision(remove, idle && !blocked);
  }

  /** Whether a rule of the policy keeps a completed turn, {@code fromEnd} being how many completed turns came after it. */
  static boolean kept(TurnEntry t, int fromEnd, RetentionPolicy policy, long now) {
    if (policy.keepFor() == null && policy.keepLast() == null) {
      return true;
    }
    return (policy.keepLast() != null && fromEnd < policy.keepLast())
        || (policy.keepFor() != null && now - t.completedAt() < policy.keepFor().toMillis());
  }

  /**
   * When the session next needs a check: the earliest of a kept turn aging out, the session going
   * idle and a tombstone expiring; {@code recheck} from now while a turn is held back by J9; -1 when
   * nothing would change without new activity.
   */
  public static long nextCheck(SessionHistory history, RetentionPolicy policy, long now, long recheck) {
    long next = Long.MAX_VALUE;
    boolean blocked = false;
    for (TurnEntry t : history.turns()) {
      if (!t.removable()) {
        blocked = true;
      } else if (policy.keepFor() != null) {
        next = Math.min(next, t.completedAt() + policy.keepFor().toMillis());
      }
    }
    if (policy.idleAfter() != null && !history.archived()) {
      next = Math.min(next, history.meta().getLong("updatedAt", 0L) + policy.idleAfter().toMillis());
    }
    for (JsonObject stone : history.tombstones().values()) {
      next = Math.min(next, stone.getLong("expiresAt", 0L));
    }
    if (blocked && policy.removesAnything()) {
      next = Math.min(next, now + recheck);
    }
    return next == Long.MAX_VALUE ? -1 : next;
  }
}
