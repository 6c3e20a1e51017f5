package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.http.JournalReader;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One page of a session's timeline ({@code GET /api/sessions/:id?before=<turnId>&limit=<turns>}):
 * the latest {@code limit} turns, or the ones just before the turn named by {@code before}, with
 * a link to the page before them. Only the page's completed turns have their results read, so a
 * session with many or large turns is read in bounded pieces.
 */
record TimelinePage(String before, int limit) {

  static final int DEFAULT_TURNS = 50;
  static final int MAX_TURNS = 200;

  /** The page a request asks for; a malformed {@code limit} or {@code before} is refused. */
  static TimelinePage of(RoutingContext ctx) {
    String l = ctx.request().getParam("limit");
    int limit;
    try {
      limit = l == null || l.isEmpty() ? DEFAULT_TURNS : Integer.parseInt(l);
    } catch (NumberFormatException e) {
      throw Replies.invalid("'limit' must be a number of turns (1-" + MAX_TURNS + ")");
    }
    if (limit < 1) {
      throw Replies.invalid("'limit' must be a number of turns (1-" + MAX_TURNS + ")");
    }
    String before = ctx.request().getParam("before");
    return new TimelinePage(before == null || before.isEmpty() ? null : before, Math.min(MAX_TURNS, limit));
  }

  /** The timeline of this page: the session's events read once, the page's turns filled with results. */
  Future<JsonObject> read(JournalQueries journal, String sessionId, JsonObject info) {
    return JournalReader.all(journal, sessionId).compose(events -> {
      List<String> turnIds = new ArrayList<>();
      for (JsonObject e : events) {
        if (EventType.TURN_SUBMITTED.wireName().equals(e.getString("type")) && e.getString("turn") != null) {
          turnIds.add(e.getString("turn"));
        }
      }
      int end = turnIds.size();
      if (before != null) {
        end = turnIds.indexOf(before);
        if (end < 0) {
          return Future.failedFuture(Replies.invalid("'before' names no turn of this session"));
        }
      }
      int start = Math.max(0, end - limit);
      Set<String> page = new HashSet<>(turnIds.subList(start, end));
      return JournalReader.withResults(journal, sessionId, events, page).map(filled -> {
        JsonObject timeline = Timeline.build(sessionId, info, filled);
        JsonArray turns = new JsonArray();
        for (Object t : timeline.getJsonArray("turns")) {
          if (page.contains(((JsonObject) t).getString("turnId"))) {
            turns.add(t);
          }
        }
        timeline.put("turns", turns).put("turnsTotal", turnIds.size()).put("limit", limit);
        if (start > 0) {
          String cursor = turnIds.get(start);
          timeline.put("earlierBefore", cursor).put("earlier", "/api/sessions/" + encode(sessionId) + "?before="
              + encode(cursor) + "&limit=" + limit);
        }
        return timeline;
      });
    });
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
