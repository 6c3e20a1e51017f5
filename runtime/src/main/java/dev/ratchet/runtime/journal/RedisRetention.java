package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link JournalRetention} on Redis: the sweeper's index is the sorted set {@code <prefix>:retention}
 * (sessions by the time their next check is due), so a sweep reads a bounded batch and never scans
 * the key space; a removal is one fenced script of one session's slot (retention_remove.lua).
 */
final class RedisRetention implements JournalRetention {

  private final RedisConnections redis;
  private final JournalKeys keys;
  private final RedisQueries queries;
  private final HistoryReader history;
  /** Whether claims check the forgotten-session filter: set once this journal forgets or is told to refuse. */
  private volatile boolean refuse;

  RedisRetention(io.vertx.core.Vertx vertx, RedisConnections redis, JournalKeys keys, RedisQueries queries) {
    this.redis = redis;
    this.keys = keys;
    this.queries = queries;
    this.history = new HistoryReader(vertx, redis, keys, queries);
  }

  @Override
  public Future<List<SessionActivity>> activeSince(long since, int limit) {
    return redis.send(Request.cmd(Command.ZRANGEBYSCORE).arg(keys.recentSessions()).arg(since).arg("+inf")
        .arg("WITHSCORES").arg("LIMIT").arg(0).arg(limit)).map(r -> {
          List<SessionActivity> list = new ArrayList<>();
          // RESP2 answers member, score, member, score; RESP3 answers [member, score] pairs
          if (r.size() > 0 && r.get(0).size() == 2 && r.get(0).type() == io.vertx.redis.client.ResponseType.MULTI) {
            r.forEach(p -> list.add(new SessionActivity(p.get(0).toString(), (long) Double.parseDouble(p.get(1).toString()))));
          } else {
            for (int i = 0; i + 1 < r.size(); i += 2) {
              list.add(new SessionActivity(r.get(i).toString(), (long) Double.parseDouble(r.get(i + 1).toString())));
            }
          }
          return list;
        });
  }

  @Override
  public Future<Void> schedule(String sessionId, long dueAt) {
    Request req = dueAt < 0 ? Request.cmd(Command.ZREM).arg(keys.retention()).arg(sessionId)
        : Request.cmd(Command.ZADD).arg(keys.retention()).arg(dueAt).arg(sessionId);
    return redis.send(req).mapEmpty();
  }

  @Override
  public Future<List<String>> due(long now, int limit) {
    return redis.send(Request.cmd(Command.ZRANGEBYSCORE).arg(keys.retention()).arg("-inf").arg(now)
        .arg("LIMIT").arg(0).arg(limit)).map(r -> {
          List<String> list = new ArrayList<>();
          r.forEach(m -> list.add(m.toString()));
          return list;
        });
  }

  @Override
  public Future<SessionHistory> history(String sessionId) {
    return redis.send(Request.cmd(Command.HGETALL).arg(keys.meta(sessionId))).compose(metaReply -> {
      JsonObject meta = hash(metaReply);
      if (meta.isEmpty()) {
        return Future.succeededFuture(null);
      }
      for (String n : List.of("epoch", "createdAt", "updatedAt", "archivedAt", "claimedAt")) {
        if (meta.getValue(n) != null) {
          meta.put(n, Long.parseLong(meta.getString(n)));
        }
      }
      Future<List<JsonObject>> events = history.events(sessionId);
      Future<List<JsonObject>> conversation = queries.conversation(sessionId);
      Future<Response> stones = redis.send(Request.cmd(Command.HGETALL).arg(keys.tombstones(sessionId)));
      Future<Response> inflight = redis.send(Request.cmd(Command.SMEMBERS).arg(keys.inflight(sessionId)));
      return Future.all(events, conversation, stones, inflight).compose(v -> {
        Map<String, JsonObject> tombstones = new LinkedHashMap<>();
        JsonObject stoneHash = hash(stones.result());
        stoneHash.forEach(e -> tombstones.put(e.getKey(), new JsonObject((String) e.getValue())));
        return history.turns(sessionId, HistoryReader.turnIds(events.result(), inflight.result()))
            .map(turns -> new SessionHistory(sessionId, meta, turns, events.result(), conversation.result(), tombstones));
      });
    });
  }

  @Override
  public Future<Removal> remove(String sessionId, long epoch, RemovalPlan plan) {
    List<String> keyList = new ArrayList<>();
    keyList.add(keys.meta(sessionId));
    keyList.add(keys.events(sessionId));
    keyList.add(keys.inflight(sessionId));
    keyList.add(keys.tombstones(sessionId));
    keyList.add(keys.expired(sessionId));
    List<String> args = new ArrayList<>();
    args.add(String.valueOf(epoch));
    args.add(String.valueOf(plan.now()));
    args.add(String.valueOf(plan.tombstonesUntil()));
    args.add(plan.wholeSession() ? "1" : "");
    args.add(String.valueOf(plan.seenUpdatedAt()));
    for (RemovalPlan.TurnRemoval t : plan.turns()) {
      keyList.add(keys.turn(sessionId, t.turnId()));
      t.callIds().forEach(c -> keyList.add(keys.call(sessionId, c)));
      args.add(t.turnId());
      args.add(String.valueOf(t.callIds().size()));
      args.add(t.tombstone().encode());
      Set<String> entries = new LinkedHashSet<>();
      // several events of one step share a stream entry; an event's id names its entry before the dot
      t.eventIds().forEach(id -> entries.add(id.indexOf('.') < 0 ? id : id.substring(0, id.indexOf('.'))));
      args.add(String.join(" ", entries));
    }
    return redis.run(Script.RETENTION_REMOVE, keyList, args).map(r -> {
      List<String> removed = new ArrayList<>();
      for (int i = 2; i < r.size(); i++) {
        removed.add(r.get(i).toString());
      }
      return new Removal(removed, r.get(0).toInteger(), r.get(1).toInteger() == 1);
    });
  }

  @Override
  public Future<Boolean> forget(String sessionId, long epoch, long seenUpdatedAt, long archivedBefore) {
    refuse = true;
    List<String> add = filterArgs();
    for (long p : ForgottenFilter.positions(sessionId)) {
      add.add(String.valueOf(p));
    }
    List<String> sessionKeys = List.of(keys.meta(sessionId), keys.events(sessionId), keys.inflight(sessionId),
        keys.tombstones(sessionId), keys.expired(sessionId), keys.conversation(sessionId), keys.loop(sessionId));
    // remembered before the keys go: a crash in between leaves a session that is still known, never
    // one whose id a claim would start afresh
    return redis.run(Script.FORGOTTEN_ADD, forgottenKeys(), add)
        .compose(v -> redis.run(Script.RETENTION_FORGET, sessionKeys,
            List.of(String.valueOf(epoch), String.valueOf(seenUpdatedAt), String.valueOf(archivedBefore))))
        .compose(r -> r.toInteger() != 1 ? Future.succeededFuture(false)
            : redis.pipeline(List.of(
                Request.cmd(Command.ZREM).arg(keys.recentSessions()).arg(sessionId),
                Request.cmd(Command.ZREM).arg(keys.retention()).arg(sessionId),
                Request.cmd(Command.SREM).arg(keys.activeSessions()).arg(sessionId))).map(true));
  }

  @Override
  public Future<Void> refuseForgotten() {
    refuse = true;
    return redis.run(Script.FORGOTTEN_ADD, forgottenKeys(), filterArgs()).mapEmpty();
  }

  private static List<String> filterArgs() {
    return new ArrayList<>(List.of(String.valueOf(ForgottenFilter.BITS), String.valueOf(ForgottenFilter.PER_GENERATION)));
  }

  /**
   * Fails with {@code SESSION_FORGOTTEN} when the journal does not hold the session and the
   * forgotten-session filter has its id; one round trip, and none until this journal refuses them.
   */
  Future<Void> notForgotten(String sessionId) {
    if (!refuse) {
      return Future.succeededFuture();
    }
    long[] positions = ForgottenFilter.positions(sessionId);
    List<Request> reads = new ArrayList<>();
    reads.add(Request.cmd(Command.EXISTS).arg(keys.meta(sessionId)));
    for (String filter : List.of(keys.forgotten(), keys.forgottenPrevious())) {
      for (long p : positions) {
        reads.add(Request.cmd(Command.GETBIT).arg(filter).arg(p));
      }
    }
    return redis.pipeline(reads).compose(r -> {
      if (r.get(0).toInteger() == 1) {
        return Future.succeededFuture();
      }
      int k = positions.length;
      boolean current = true;
      boolean previous = true;
      for (int i = 0; i < k; i++) {
        current &= r.get(1 + i).toInteger() == 1;
        previous &= r.get(1 + k + i).toInteger() == 1;
      }
      return current || previous ? Future.failedFuture(new RatchetException(ErrorCode.SESSION_FORGOTTEN,
          "session '" + sessionId + "' was archived and then forgotten by retention; start a new session"))
          : Future.succeededFuture();
    });
  }

  private List<String> forgottenKeys() {
    return List.of(keys.forgotten(), keys.forgottenPrevious(), keys.forgottenCount());
  }

  @Override
  public Future<Boolean> erase(String sessionId, String who) {
    return redis.send(Request.cmd(Command.EXISTS).arg(keys.meta(sessionId))).compose(exists -> {
      if (exists.toInteger() == 0) {
        return Future.succeededFuture(false);
      }
      return keysOf(sessionId, "0", new ArrayList<>()).compose(found -> {
        List<Request> deletes = new ArrayList<>();
        for (int from = 0; from < found.size(); from += 100) {
          Request del = Request.cmd(Command.DEL);
          found.subList(from, Math.min(found.size(), from + 100)).forEach(del::arg);
          deletes.add(del);
        }
        deletes.add(Request.cmd(Command.ZREM).arg(keys.recentSessions()).arg(sessionId));
        deletes.add(Request.cmd(Command.ZREM).arg(keys.retention()).arg(sessionId));
        deletes.add(Request.cmd(Command.SREM).arg(keys.activeSessions()).arg(sessionId));
        String callPrefix = keys.call(sessionId, "");
        for (String key : found) {
          if (key.startsWith(callPrefix)) {
            deletes.add(Request.cmd(Command.ZREM).arg(keys.pendingApprovals())
                .arg(RedisQueries.approvalMember(sessionId, key.substring(callPrefix.length()))));
          }
        }
        // after the deletes: a later claim or step of the session answers SESSION_ERASED, not FENCED
        deletes.add(Request.cmd(Command.SET).arg(keys.erased(sessionId)).arg("1"));
        deletes.add(Request.cmd(Command.XADD).arg(keys.audit()).arg("*").arg("action").arg("erase")
            .arg("session").arg(sessionId).arg("who").arg(who).arg("at").arg(System.currentTimeMillis())
            .arg("keys").arg(found.size()));
        return redis.pipeline(deletes).map(true);
      });
    });
  }

  /** Every key of the session: they share its hash tag, so one MATCH finds them (erasure is rare and operator-run). */
  private Future<List<String>> keysOf(String sessionId, String cursor, List<String> into) {
    String pattern = keys.session(sessionId).replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + ":*";
    // the session's keys share its slot: the scan runs on that slot's node
    return redis.onNodeOf(keys.meta(sessionId), Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(pattern)
            .arg("COUNT").arg(1000))
        .compose(r -> {
          r.get(1).forEach(k -> into.add(k.toString()));
          String next = r.get(0).toString();
          return "0".equals(next) ? Future.succeededFuture(into) : keysOf(sessionId, next, into);
        });
  }

  @Override
  public Future<List<JsonObject>> audit(int count) {
    return redis.send(Request.cmd(Command.XRANGE).arg(keys.audit()).arg("-").arg("+").arg("COUNT").arg(count))
        .map(r -> {
          List<JsonObject> list = new ArrayList<>();
          for (Response entry : r) {
            JsonObject json = new JsonObject().put("id", entry.get(0).toString());
            Response fields = entry.get(1);
            for (int i = 0; i + 1 < fields.size(); i += 2) {
              String name = fields.get(i).toString();
              String value = fields.get(i + 1).toString();
              json.put(name, "at".equals(name) || "keys".equals(name) ? (Object) Long.parseLong(value) : value);
            }
            list.add(json);
          }
          return list;
        });
  }

  @Override
  public Future<Integer> importSession(SessionHistory history) {
    String sessionId = history.sessionId();
    String now = String.valueOf(System.currentTimeMillis());
    List<String> keyList = new ArrayList<>();
    keyList.add(keys.meta(sessionId));
    keyList.add(keys.events(sessionId));
    List<String> args = new ArrayList<>();
    JsonObject meta = history.meta();
    if (meta.getString("agent") == null) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST, "the exported session names no agent"));
    }
    args.add(meta.getString("agent"));
    args.add(meta.getString("caller", ""));
    args.add(String.valueOf(meta.getLong("createdAt", System.currentTimeMillis())));
    args.add(now);
    for (SessionHistory.TurnEntry t : history.turns()) {
      if (!"completed".equals(t.status()) || t.results() == null) {
        continue;
      }
      keyList.add(keys.turn(sessionId, t.turnId()));
      args.add(t.turnId());
      args.add(t.spec().encode());
      args.add(t.specHash());
      args.add(String.valueOf(t.submittedAt()));
      args.add(String.valueOf(t.completedAt()));
      args.add(t.results().toJson().encode());
      args.add(String.valueOf(t.results().calls().size()));
      for (CallResult c : t.results().calls()) {
        keyList.add(keys.call(sessionId, c.callId().value()));
        args.add(c.toJson().encode());
      }
    }
    return redis.run(Script.IMPORT_SESSION, keyList, args).compose(r -> redis.send(Request.cmd(Command.ZADD)
        .arg(keys.recentSessions()).arg(now).arg(sessionId)).map(r.toInteger()));
  }

  private static JsonObject hash(Response r) {
    JsonObject json = new JsonObject();
    if (r == null) {
      return json;
    }
    if (r.type() == io.vertx.redis.client.ResponseType.MULTI && r.size() > 0 && r.getKeys().isEmpty()) {
      for (int i = 0; i + 1 < r.size(); i += 2) {
        json.put(r.get(i).toString(), r.get(i + 1).toString());
      }
    } else {
      for (String k : r.getKeys()) {
        json.put(k, r.get(k).toString());
      }
    }
    return json;
  }
}
