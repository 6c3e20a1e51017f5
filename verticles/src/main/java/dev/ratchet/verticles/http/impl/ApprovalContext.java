package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.JournalReader;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an approver needs to decide a request without guessing, added to each inbox entry as
 * {@code context}: the session's caller, the user message and model text that led to the call,
 * the tool's description and effect class in words, the rule that asked, the earlier calls of the
 * same turn with their results, and what a rejection does. Read from the journal (one read of each
 * session's events) and the agent's catalogue; never anything the session's timeline does not show.
 */
final class ApprovalContext {

  private ApprovalContext() {
  }

  /** Each request as JSON with its {@code context}, in the order given. */
  static Future<List<JsonObject>> of(RatchetNode ratchet, List<ApprovalRequest> requests) {
    Map<String, Future<JsonObject>> timelines = new LinkedHashMap<>();
    for (ApprovalRequest r : requests) {
      timelines.computeIfAbsent(r.sessionId(), id -> timeline(ratchet.journal(), id, requests));
    }
    return Future.join(new ArrayList<>(timelines.values())).transform(ignored -> {
      List<JsonObject> out = new ArrayList<>(requests.size());
      List<Future<Void>> results = new ArrayList<>();
      for (ApprovalRequest r : requests) {
        Future<JsonObject> t = timelines.get(r.sessionId());
        JsonObject json = r.toJson();
        JsonObject context = context(ratchet, r, t.succeeded() ? t.result() : null);
        json.put("context", context);
        results.add(earlierResults(ratchet.journal(), r.sessionId(), context.getJsonArray("earlierCalls")));
        out.add(json);
      }
      return Future.join(results).transform(done -> Future.succeededFuture(out));
    });
  }

  /**
   * A running turn's events carry no results (its calls' records hold them until the turn
   * completes), so each earlier call that ended is read from its record.
   */
  private static Future<Void> earlierResults(JournalQueries journal, String sessionId, JsonArray earlier) {
    List<Future<?>> reads = new ArrayList<>();
    for (Object o : earlier == null ? new JsonArray() : earlier) {
      JsonObject call = (JsonObject) o;
      if (call.containsKey("result") || call.getString("callId") == null) {
        continue;
      }
      reads.add(journal.callState(sessionId, new CallId(call.getString("callId"))).onSuccess(state -> {
        if (state != null && state.record() != null && state.record().result() != null) {
          call.put("result", state.record().result());
        }
      }));
    }
    return Future.join(reads).mapEmpty();
  }

  /** The session's timeline with results only for the turns that have requests pending. */
  private static Future<JsonObject> timeline(JournalQueries journal, String sessionId, List<ApprovalRequest> requests) {
    Set<String> turns = new java.util.HashSet<>();
    for (ApprovalRequest r : requests) {
      if (r.sessionId().equals(sessionId)) {
        turns.add(r.turnId());
      }
    }
    return journal.sessionInfo(sessionId).compose(info -> JournalReader.all(journal, sessionId)
        .compose(events -> JournalReader.withResults(journal, sessionId, events, turns))
        .map(events -> Timeline.build(sessionId, info, events)));
  }

  static JsonObject context(RatchetNode ratchet, ApprovalRequest r, JsonObject timeline) {
    JsonObject c = new JsonObject();
    ToolCatalog catalog = ratchet.queries().catalog(r.agent());
    ToolCatalog.Entry entry = catalog == null ? null : catalog.get(r.tool());
    if (entry != null && entry.tool().description() != null && !entry.tool().description().isBlank()) {
      c.put("toolDescription", entry.tool().description());
    }
    if (entry != null && entry.approval().allowsEdit()) {
      // the approver may edit the arguments: the card builds its form from the tool's input schema
      c.put("allowEdit", true).put("inputSchema", entry.tool().inputSchema() == null ? new JsonObject()
          : entry.tool().inputSchema().copy());
    }
    c.put("effect", effectInWords(r.effectClass()));
    c.put("rule", ruleInWords(r.askedBecause()));
    if (timeline == null) {
      return c;
    }
    if (timeline.getString("caller") != null) {
      c.put("caller", timeline.getString("caller"));
    }
    if (timeline.getString("creator") != null) {
      c.put("creator", timeline.getString("creator"));
    }
    conversation(timeline.getJsonArray("messages", new JsonArray()), r.turnId(), c);
    JsonObject turn = null;
    for (Object t : timeline.getJsonArray("turns", new JsonArray())) {
      if (r.turnId().equals(((JsonObject) t).getString("turnId"))) {
        turn = (JsonObject) t;
      }
    }
    JsonArray earlier = new JsonArray();
    List<String> laterWrites = new ArrayList<>();
    int index = -1;
    if (turn != null) {
      JsonArray calls = turn.getJsonArray("calls");
      for (int i = 0; i < calls.size(); i++) {
        if (r.callId().value().equals(calls.getJsonObject(i).getString("callId"))) {
          index = i;
        }
      }
      for (int i = 0; i < calls.size(); i++) {
        JsonObject call = calls.getJsonObject(i);
        if (index >= 0 && i < index) {
          JsonObject e = new JsonObject().put("index", i).put("callId", call.getString("callId"))
              .put("tool", call.getString("tool"))
              .put("arguments", call.getJsonObject("arguments")).put("status", call.getString("status"));
          if (call.containsKey("result")) {
            e.put("result", call.getValue("result"));
          }
          if (call.getString("error") != null) {
            e.put("error", call.getString("error"));
          }
          earlier.add(e);
        } else if (index >= 0 && i > index && isWrite(catalog, call.getString("tool"))) {
          laterWrites.add(call.getString("tool"));
        }
      }
    }
    c.put("earlierCalls", earlier);
    c.put("onReject", onReject(laterWrites));
    return c;
  }

  /** The user message and the model's text of the response that asked for this turn, when an agent loop ran it. */
  private static void conversation(JsonArray messages, String turnId, JsonObject c) {
    String lastUser = null;
    for (Object o : messages) {
      JsonObject m = (JsonObject) o;
      if ("user".equals(m.getString("kind"))) {
        lastUser = m.getString("text");
      } else if ("model".equals(m.getString("kind")) && turnId.equals(m.getString("turnId"))) {
        if (lastUser != null) {
          c.put("userMessage", lastUser);
        }
        if (m.getString("text") != null && !m.getString("text").isBlank()) {
          c.put("modelText", m.getString("text"));
        }
        return;
      }
    }
  }

  private static boolean isWrite(ToolCatalog catalog, String tool) {
    ToolCatalog.Entry e = catalog == null ? null : catalog.get(tool);
    // a tool the catalogue no longer knows is counted as a write: the skip rule treats it so
    return e == null || e.tool().effectClass() != EffectClass.READ;
  }

  static String effectInWords(EffectClass effect) {
    return switch (effect) {
      case READ -> "reads only; retried when an attempt fails";
      case IDEMPOTENT_WRITE -> "a write that is safe to retry: every attempt carries the same idempotency key";
      case NON_IDEMPOTENT_WRITE -> "a write with a single attempt; it cannot be retried safely, and if the provider"
          + " does not answer its outcome is unknown until a person checks";
    };
  }

  /** The engine's reason to ask, said as the rule that fired. */
  static String ruleInWords(String askedBecause) {
    if (askedBecause == null) {
      return "approval required";
    }
    String prefix = "approval required by ";
    if (!askedBecause.startsWith(prefix)) {
      return askedBecause;
    }
    String rest = askedBecause.substring(prefix.length());
    boolean forThese = rest.endsWith(" for these arguments");
    String source = forThese ? rest.substring(0, rest.length() - " for these arguments".length()) : rest;
    String who = switch (source) {
      case "tool" -> "the tool's own definition: it always asks";
      case "manifest" -> "the connector's manifest (agent.approval: recommended)";
      case "policy" -> "the application's tool policy: it always asks";
      case "predicate", "policy predicate" -> "the application's rule over the arguments";
      default -> source;
    };
    return forThese ? who + " held for these arguments" : who;
  }

  static String onReject(List<String> laterWrites) {
    String told = "The tool does not run. The model is told: \"the tool did not run because a person refused it:"
        + " rejected by <you>: <your reason>\".";
    if (laterWrites.isEmpty()) {
      return told;
    }
    return told + " The later write" + (laterWrites.size() == 1 ? "" : "s") + " of this turn ("
        + String.join(", ", laterWrites) + ") " + (laterWrites.size() == 1 ? "is" : "are") + " skipped and not run.";
  }
}
