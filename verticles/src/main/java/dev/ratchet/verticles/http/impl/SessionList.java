package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.http.JournalReader;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * One page of {@code GET /api/sessions}, recent first, holding only the sessions the principal
 * sees. The journal keeps one index of every session, so a principal limited to some tenants gets
 * its page by scanning that index from {@code offset} and keeping its own sessions until the page
 * is full: {@code offset} is a position in the index and {@code next} the position where the scan
 * stopped. One request scans at most {@value #MAX_SCANNED} entries; a page cut short by that bound
 * still carries {@code next}, so a tenant with few sessions among very many pages on, never misses one.
 * Every session of the page carries its {@code summary} ({@link SessionFilter#summary}): what its
 * calls did, read from its events once it is on the page.
 */
final class SessionList {

  static final int SCAN_CHUNK = 250;
  static final int MAX_SCANNED = 5_000;
  static final int MAX_SCANNED_READING_EVENTS = 500;

  private final JournalQueries journal;

  SessionList(JournalQueries journal) {
    this.journal = journal;
  }

  Future<JsonObject> page(Principal principal, int offset, int limit) {
    return page(principal, offset, limit, SessionFilter.NONE);
  }

  /** A page of the sessions the principal sees that {@code filter} keeps; any filter scans the index. */
  Future<JsonObject> page(Principal principal, int offset, int limit, SessionFilter filter) {
    Future<Scan> scan = principal.tenants().all() && !filter.any() ? everything(offset, limit)
        : scan(principal.tenants(), filter, new Scan(offset, limit));
    return scan.compose(this::summarized).map(s -> {
      JsonObject page = new JsonObject().put("sessions", s.sessions).put("offset", offset).put("limit", limit);
      if (s.next >= 0) {
        page.put("next", "/api/sessions?offset=" + s.next + "&limit=" + limit + filter.query());
      }
      return page;
    });
  }

  /** The scan with a summary on each of its sessions that a filter did not summarize already. */
  private Future<Scan> summarized(Scan s) {
    List<Future<?>> reads = new ArrayList<>();
    for (Object o : s.sessions) {
      JsonObject row = (JsonObject) o;
      if (!row.containsKey("summary") && SessionAccess.exists(row)) {
        String id = row.getString("sessionId");
        reads.add(JournalReader.all(journal, id)
            .map(events -> row.put("summary", SessionFilter.summary(Timeline.build(id, row, events)))));
      }
    }
    return Future.all(reads).map(s);
  }

  /** An operator's page: the index as it is. */
  private Future<Scan> everything(int offset, int limit) {
    return journal.recentSessions(offset, limit).compose(ids -> infos(ids).map(infos -> {
      Scan s = new Scan(offset, limit);
      infos.forEach(s.sessions::add);
      s.next = ids.size() == limit ? offset + limit : -1;
      return s;
    }));
  }

  private Future<Scan> scan(Tenants tenants, SessionFilter filter, Scan s) {
    // reading each candidate's events costs more than its metadata: such a request scans fewer
    int maxScanned = filter.readsEvents() ? MAX_SCANNED_READING_EVENTS : MAX_SCANNED;
    return journal.recentSessions(s.position, SCAN_CHUNK).compose(ids -> infos(ids).compose(infos -> {
      List<Future<Boolean>> kept = new ArrayList<>(infos.size());
      for (JsonObject info : infos) {
        boolean candidate = SessionAccess.exists(info) && tenants.sees(SessionAccess.caller(info))
            && filter.matchesInfo(info.getString("sessionId"), info);
        kept.add(candidate ? filter.matchesCalls(journal, info.getString("sessionId"), info)
            : Future.succeededFuture(false));
      }
      return Future.all(kept).map(done -> {
        boolean last = ids.size() < SCAN_CHUNK;
        for (int i = 0; i < infos.size(); i++) {
          if (Boolean.TRUE.equals(done.resultAt(i))) {
            s.sessions.add(infos.get(i));
            if (s.sessions.size() == s.limit) {
              s.next = last && i == infos.size() - 1 ? -1 : s.position + i + 1;
              s.full = true;
              return s;
            }
          }
        }
        s.position += ids.size();
        s.scanned += ids.size();
        if (last) {
          s.next = -1;
          s.full = true;
        } else if (s.scanned >= maxScanned) {
          s.next = s.position;
          s.full = true;
        }
        return s;
      });
    })).compose(after -> after.full ? Future.succeededFuture(after) : scan(tenants, filter, after));
  }

  /** Each session's metadata, with its id and the node that last claimed it ({@code node}), without the epoch. */
  private Future<List<JsonObject>> infos(List<String> ids) {
    List<Future<JsonObject>> reads = new ArrayList<>(ids.size());
    for (String id : ids) {
      reads.add(journal.sessionInfo(id).map(info -> {
        JsonObject copy = info.copy().put("sessionId", id);
        Object owner = copy.remove("owner");
        if (owner != null) {
          copy.put("node", owner);
        }
        copy.remove("epoch");
        return copy;
      }));
    }
    return Future.all(reads).map(cf -> {
      List<JsonObject> list = new ArrayList<>(ids.size());
      for (int i = 0; i < cf.size(); i++) {
        list.add(cf.resultAt(i));
      }
      return list;
    });
  }

  /** Where a scan stands: the index position it reads next, what it kept, where the next page starts (-1: none). */
  private static final class Scan {
    final int limit;
    final JsonArray sessions = new JsonArray();
    int position;
    int scanned;
    int next = -1;
    boolean full;

    Scan(int position, int limit) {
      this.position = position;
      this.limit = limit;
    }
  }
}
