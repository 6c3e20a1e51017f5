package dev.ratchet.runtime.retention;

import dev.ratchet.runtime.RatchetClock;
import dev.ratchet.runtime.journal.JournalRetention;
import dev.ratchet.runtime.journal.RemovalPlan;
import dev.ratchet.runtime.journal.SessionHistory;
import dev.ratchet.runtime.journal.Tombstones;
import dev.ratchet.runtime.retention.impl.RetentionRules;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Applies retention: every {@code sweepInterval} it takes the sessions active since its last pass
 * into the journal's retention schedule, then checks at most {@code sweepBatch} sessions whose check
 * is due, a few at a time. A check archives what the session's policy lets go, then removes it in one
 * fenced journal step, and schedules the next check; a failed archive removes nothing. The sweep
 * reads no more than a batch of the schedule, never the whole key space. Several nodes may sweep
 * one journal: a removal re-checks everything it removes.
 */
public final class RetentionSweeper {

  private static final Logger LOG = LoggerFactory.getLogger(RetentionSweeper.class);
  /** Sessions read from the activity index per page, and pages per pass. */
  private static final int ACTIVITY_PAGE = 1000;
  private static final int ACTIVITY_PAGES = 10;

  private final Vertx vertx;
  private final JournalRetention journal;
  private final ArchiveSink archive;
  private final RetentionOptions options;
  private final Map<String, RetentionPolicy> policies = new ConcurrentHashMap<>();
  private final LongSupplier clock;
  private long cursor;
  private long timer = -1;
  private boolean sweeping;
  private final Stats stats = new Stats();

  /** What the sweeper did since it started, for metrics and the benchmark. */
  public static final class Stats {
    public long passes;
    public long sessionsChecked;
    public long turnsRemoved;
    public long sessionsArchived;
    public long tombstonesExpired;
    public long sessionsForgotten;
    public long failures;

    public JsonObject toJson() {
      return new JsonObject().put("passes", passes).put("sessionsChecked", sessionsChecked)
          .put("turnsRemoved", turnsRemoved).put("sessionsArchived", sessionsArchived)
          .put("tombstonesExpired", tombstonesExpired).put("sessionsForgotten", sessionsForgotten)
          .put("failures", failures);
    }
  }

  public RetentionSweeper(Vertx vertx, JournalRetention journal, ArchiveSink archive, RetentionOptions options) {
    this(vertx, journal, archive, options, System::currentTimeMillis);
  }

  /** Reading the time from {@code clock}, the one the sessions run on. */
  public RetentionSweeper(Vertx vertx, JournalRetention journal, ArchiveSink archive, RetentionOptions options,
                          RatchetClock clock) {
    this(vertx, journal, archive, options, clock::millis);
  }

  /** With a clock of its own, for tests of time windows. */
  public RetentionSweeper(Vertx vertx, JournalRetention journal, ArchiveSink archive, RetentionOptions options,
                          LongSupplier clock) {
    this.vertx = vertx;
    this.journal = journal;
    this.archive = archive;
    this.options = options;
    this.clock = clock;
  }

  /** Sets an agent's own policy; agents without one follow the default. */
  public RetentionSweeper policy(String agent, RetentionPolicy policy) {
    if (policy == null) {
      policies.remove(agent);
    } else {
      policies.put(agent, policy);
    }
    return this;
  }

  /** The policy an agent's sessions follow. */
  public RetentionPolicy policyFor(String agent) {
    return agent == null ? options.defaultPolicy() : policies.getOrDefault(agent, options.defaultPolicy());
  }

  public RetentionOptions options() {
    return options;
  }

  public Stats stats() {
    return stats;
  }

  /** Sweeps every {@code sweepInterval} until {@link #stop}. */
  public void start() {
    if (timer < 0) {
      timer = vertx.setPeriodic(options.sweepInterval().toMillis(), t -> {
        if (!sweeping) {
          sweep().onFailure(err -> LOG.warn("retention sweep failed: {}", err.getMessage()));
        }
      });
    }
  }

  public void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  /** One pass: schedules the sessions active since the last pass, then checks the due ones. Answers how many were checked. */
  public Future<Integer> sweep() {
    sweeping = true;
    long now = clock.getAsLong();
    stats.passes++;
    return discover(now, 0).compose(v -> journal.due(now, options.sweepBatch()))
        .compose(due -> checkAll(due, 0, now).map(due.size()))
        .onComplete(ar -> sweeping = false);
  }

  private Future<Void> discover(long now, int page) {
    return journal.activeSince(cursor, ACTIVITY_PAGE).compose(list -> {
      List<Future<Void>> adds = new ArrayList<>();
      long last = cursor;
      for (JournalRetention.SessionActivity a : list) {
        adds.add(journal.schedule(a.sessionId(), now));
        last = Math.max(last, a.at());
      }
      boolean more = list.size() == ACTIVITY_PAGE && last > cursor;
      // the last millisecond is read again next time: a session active in it after this read is not missed
      cursor = last;
      return Future.all(adds).compose(v -> more && page + 1 < ACTIVITY_PAGES ? discover(now, page + 1)
          : Future.succeededFuture());
    });
  }

  /** Sessions checked at once: enough to hide round trips, few enough to stay a background load. */
  private static final int PARALLEL = 8;

  private Future<Void> checkAll(List<String> due, int from, long now) {
    if (from >= due.size()) {
      return Future.succeededFuture();
    }
    List<Future<Void>> checks = new ArrayList<>();
    for (String sessionId : due.subList(from, Math.min(due.size(), from + PARALLEL))) {
      checks.add(check(sessionId, now).recover(err -> {
        synchronized (stats) {
          stats.failures++;
        }
        LOG.warn("retention of session {} failed, retried next pass: {}", sessionId, err.getMessage());
        return journal.schedule(sessionId, now + options.sweepInterval().toMillis());
      }));
    }
    return Future.join(checks).<Void>mapEmpty().recover(err -> Future.succeededFuture())
        .compose(v -> checkAll(due, from + PARALLEL, now));
  }

  /** Checks one session now: archives and removes what its policy lets go, then schedules its next check. */
  public Future<Void> check(String sessionId, long now) {
    synchronized (stats) {
      stats.sessionsChecked++;
    }
    return journal.history(sessionId).compose(history -> {
      if (history == null) {
        return journal.schedule(sessionId, -1);
      }
      RetentionPolicy policy = policyFor(history.meta().getString("agent"));
      if (forgettable(history, now)) {
        return journal.forget(sessionId, history.meta().getLong("epoch", 0L), history.meta().getLong("updatedAt", 0L),
            now - options.forgetAfter().toMillis()).compose(forgotten -> {
              if (forgotten) {
                synchronized (stats) {
                  stats.sessionsForgotten++;
                }
                return journal.schedule(sessionId, -1);
              }
              return journal.schedule(sessionId, now + options.sweepInterval().toMillis());
            });
      }
      // a large session's records and plan take a while to build: on a worker, never an event loop
      return vertx.executeBlocking(() -> plan(history, policy, now), false).compose(sweep -> {
        if (sweep == null) {
          return journal.schedule(sessionId, next(history, policy, now));
        }
        return removeArchived(sessionId, history, policy, sweep, now);
      });
    });
  }

  /** What one check archives and removes. */
  private record Sweep(List<JsonObject> records, RemovalPlan plan) {
  }

  /**
   * The records to archive and the removal plan, in one pass over the session's events (each turn's
   * events are looked up, never searched for); null when nothing is due.
   */
  private Sweep plan(SessionHistory history, RetentionPolicy policy, long now) {
    RetentionRules.Decision d = RetentionRules.decide(history, policy, now);
    boolean stonesDue = history.tombstones().values().stream().anyMatch(t -> t.getLong("expiresAt", 0L) <= now);
    if (d.turns().isEmpty() && !d.wholeSession() && !stonesDue) {
      return null;
    }
    long tombstonesUntil = now + options.tombstoneWindow().toMillis();
    List<JsonObject> records = new ArrayList<>();
    List<RemovalPlan.TurnRemoval> removals = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    Map<String, List<JsonObject>> eventsByTurn = history.eventsByTurn();
    for (SessionHistory.TurnEntry t : d.turns()) {
      List<JsonObject> events = eventsByTurn.getOrDefault(t.turnId(), List.of());
      records.add(ArchiveRecords.turn(history, t, events, now));
      List<String> callIds = new ArrayList<>();
      t.results().calls().forEach(c -> callIds.add(c.callId().value()));
      List<String> eventIds = new ArrayList<>(events.size());
      events.forEach(e -> eventIds.add(e.getString("id")));
      removals.add(new RemovalPlan.TurnRemoval(t.turnId(), callIds, eventIds,
          Tombstones.of(t.specHash(), t.results(), tombstonesUntil)));
      ids.add(t.turnId());
    }
    if (d.wholeSession()) {
      records.add(ArchiveRecords.session(history, ids, now));
    }
    return new Sweep(records, new RemovalPlan(now, removals, tombstonesUntil, d.wholeSession(),
        history.meta().getLong("updatedAt", 0L)));
  }

  /** Archives the sweep's records, then removes what they hold in one fenced step, then schedules the next check. */
  private Future<Void> removeArchived(String sessionId, SessionHistory history, RetentionPolicy policy, Sweep sweep,
                                      long now) {
    List<JsonObject> records = sweep.records();
    RemovalPlan plan = sweep.plan();
    Future<Void> archived = records.isEmpty() ? Future.succeededFuture() : archive.append(sessionId, records);
    return archived.compose(v -> journal.remove(sessionId, history.meta().getLong("epoch", 0L), plan))
        .compose(removal -> {
          synchronized (stats) {
            stats.turnsRemoved += removal.removedTurns().size();
            stats.tombstonesExpired += removal.expiredTombstones();
            if (removal.archived()) {
              stats.sessionsArchived++;
            }
          }
          return journal.history(sessionId);
        })
        .compose(after -> journal.schedule(sessionId, after == null ? -1 : next(after, policy, now)));
  }

  /**
   * Erases a session: its archive entries, then its journal keys and tombstones, audited in the
   * journal by {@code who} (never the content). Answers false when neither knew the session.
   */
  public Future<Boolean> erase(String sessionId, String who) {
    return archive.erase(sessionId).compose(archived -> journal.erase(sessionId, who)
        .map(known -> known || archived > 0));
  }

  /** Every archived record of a session, for export and inspect. */
  public Future<List<JsonObject>> archived(String sessionId) {
    return archive.read(sessionId);
  }

  /** Whether the session is archived, has been for {@code forgetAfter}, and keeps no tombstone or turn. */
  private boolean forgettable(SessionHistory history, long now) {
    return options.forgetAfter() != null && history.archived() && history.tombstones().isEmpty()
        && history.turns().isEmpty()
        && history.meta().getLong("archivedAt", now) + options.forgetAfter().toMillis() <= now;
  }

  /** When the session next needs a check; -1 when only new activity can give it one. */
  private long next(SessionHistory history, RetentionPolicy policy, long now) {
    long next = RetentionRules.nextCheck(history, policy, now, options.sweepInterval().toMillis() * 6);
    if (options.forgetAfter() != null && history.archived()) {
      long forgetAt = history.meta().getLong("archivedAt", now) + options.forgetAfter().toMillis();
      next = next < 0 ? forgetAt : Math.min(next, forgetAt);
    }
    return next < 0 ? -1 : Math.max(next, now + options.sweepInterval().toMillis());
  }
}
