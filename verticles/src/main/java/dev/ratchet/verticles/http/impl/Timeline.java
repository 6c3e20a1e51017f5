package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.EventType;
import dev.ratchet.verticles.http.JournalReader;
import dev.ratchet.verticles.http.TimelineStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's timeline, folded from its journal events: turns in order, each with its calls'
 * status, attempts, approval, outcome, skipped flag, reconciliation and durations. A pure function
 * of the events, so the dashboard shows exactly what the journal holds.
 * <p>Call status is a {@link TimelineStatus}.
 */
public final class Timeline {

  private Timeline() {
  }

  public static JsonObject build(String sessionId, JsonObject info, List<JsonObject> events) {
    Map<String, JsonObject> turns = new LinkedHashMap<>();
    Map<String, JsonObject> calls = new HashMap<>();
    JsonArray messages = new JsonArray();
    for (JsonObject e : events) {
      EventType type = EventType.ofWireName(e.getString("type"));
      if (type == null) {
        continue;
      }
      JsonObject data = e.getJsonObject("data", new JsonObject());
      long at = e.getLong("at", 0L);
      JsonObject call = e.getString("call") == null ? null : calls.get(e.getString("call"));
      switch (type) {
        case TURN_SUBMITTED:
          turns.put(e.getString("turn"), submitted(sessionId, e.getString("turn"), data, at, calls));
          break;
        case CALL_STARTED:
          if (call != null) {
            call.put("status", TimelineStatus.RUNNING.wireName());
            call.getJsonArray("attempts").add(new JsonObject().put("attempt", data.getInteger("attempt", 1))
                .put("startedAt", at));
          }
          break;
        case CALL_ATTEMPT_FAILED:
          if (call != null) {
            call.getJsonArray("attempts").add(new JsonObject().put("attempt", data.getInteger("attempt", 1))
                .put("failedAt", at).put("error", data.getString("error")).put("retryInMs", data.getLong("retryInMs")));
          }
          break;
        case APPROVAL_REQUESTED:
          if (call != null) {
            call.put("status", TimelineStatus.WAITING_FOR_APPROVAL.wireName()).put("effectClass", data.getString("effectClass"));
            call.put("approval", new JsonObject().put("status", "pending")
                .put("askedBecause", data.getString("askedBecause"))
                .put("rule", ApprovalContext.ruleInWords(data.getString("askedBecause")))
                .put("requestedAt", data.getLong("requestedAt", at))
                .put("argumentsHash", data.getString("argumentsHash")).put("expiresAt", data.getLong("expiresAt", 0L)));
          }
          break;
        case APPROVAL_DECIDED:
          if (call != null) {
            JsonObject approval = call.getJsonObject("approval", new JsonObject());
            approval.put("status", data.getString("status")).put("approver", data.getString("approver"))
                .put("reason", data.getString("reason")).put("decidedAt", at);
            call.put("approval", approval);
            if (data.getJsonObject("editedArguments") != null) {
              // the call runs with what the approver edited; the arguments the model sent stay alongside
              call.put("edited", new JsonObject().put("by", data.getString("editedBy", data.getString("approver")))
                  .put("reason", data.getString("reason")).put("arguments", data.getJsonObject("editedArguments"))
                  .put("originalArgumentsHash", data.getString("originalArgumentsHash")));
            }
            if (TimelineStatus.WAITING_FOR_APPROVAL.wireName().equals(call.getString("status"))) {
              call.put("status", TimelineStatus.PENDING.wireName());
            }
          }
          break;
        case CALL_COMPLETED:
          if (call != null) {
            completed(call, data, at);
          }
          break;
        case CALL_RECONCILED:
          if (call != null) {
            call.put("reconciled", new JsonObject().put("from", call.getString("status"))
                .put("outcome", data.getString("outcome")).put("by", data.getString("by"))
                .put("note", data.getString("note")).put("at", at));
            call.put("status", data.getString("outcome"));
          }
          break;
        case TURN_COMPLETED:
          JsonObject turn = turns.get(e.getString("turn"));
          if (turn != null) {
            turn.put("status", "completed").put("completedAt", at)
                .put("durationMs", at - turn.getLong("submittedAt", at));
            for (Object r : data.getJsonArray("results", new JsonArray())) {
              JsonObject record = (JsonObject) r;
              JsonObject c = calls.get(record.getString("callId"));
              if (c == null) {
                continue;
              }
              String status = c.getString("status");
              if (TimelineStatus.PENDING.wireName().equals(status) || TimelineStatus.RUNNING.wireName().equals(status)) {
                // a call ended without its own event (for example refused before it ran)
                completed(c, record, at);
              }
              // present when the events were read with JournalReader.withResults, or journaled with them
              if (record.containsKey("result")) {
                c.put("result", record.getValue("result"));
              }
            }
          }
          break;
        case MESSAGE_USER:
          messages.add(new JsonObject().put("kind", "user").put("at", at).put("messageId", data.getString("messageId"))
              .put("text", data.getString("text")));
          break;
        case MODEL_RESPONSE: {
          JsonObject m = new JsonObject().put("kind", "model").put("at", at).put("step", data.getValue("step"))
              .put("text", data.getString("text"));
          JsonArray names = new JsonArray();
          data.getJsonArray("toolCalls", new JsonArray()).forEach(c -> names.add(((JsonObject) c).getString("name")));
          if (!names.isEmpty()) {
            m.put("turnId", e.getString("turn")).put("tools", names);
          }
          messages.add(m);
          break;
        }
        case MODEL_ATTEMPT_FAILED:
          messages.add(new JsonObject().put("kind", "model_attempt_failed").put("at", at)
              .put("step", data.getValue("step")).put("error", data.getString("error")));
          break;
        case MESSAGE_ASSISTANT:
        case MODEL_FAILED:
          messages.add(new JsonObject().put("kind", "answer").put("at", at).put("status", data.getString("status"))
              .put("text", data.getString("text")).put("error", data.getString("error")).put("step", data.getValue("step")));
          break;
        default:
          break;
      }
    }
    JsonArray list = new JsonArray();
    turns.values().forEach(list::add);
    return new JsonObject().put("sessionId", sessionId).put("agent", info.getString("agent"))
        .put("caller", info.getString("caller")).put("creator", info.getString("creator"))
        .put("createdAt", info.getLong("createdAt")).put("updatedAt", info.getLong("updatedAt"))
        .put("archivedAt", info.getLong("archivedAt"))
        .put("turns", list).put("messages", messages).put("events", events.size());
  }

  private static JsonObject submitted(String sessionId, String turnId, JsonObject spec, long at,
                                      Map<String, JsonObject> calls) {
    JsonArray list = new JsonArray();
    JsonArray specCalls = spec.getJsonArray("calls", new JsonArray());
    for (int i = 0; i < specCalls.size(); i++) {
      JsonObject c = specCalls.getJsonObject(i);
      String callId = CallId.of(sessionId, turnId, i).value();
      JsonObject call = new JsonObject().put("index", i).put("callId", callId).put("tool", c.getString("name"))
          .put("arguments", c.getJsonObject("arguments", new JsonObject())).put("status", TimelineStatus.PENDING.wireName())
          .put("skipped", false).put("attempts", new JsonArray());
      calls.put(callId, call);
      list.add(call);
    }
    return new JsonObject().put("turnId", turnId).put("status", "running").put("submittedAt", at).put("calls", list);
  }

  private static void completed(JsonObject call, JsonObject record, long at) {
    call.put("status", record.getString("outcome")).put("skipped", record.getBoolean("skipped", false))
        .put("attemptCount", record.getInteger("attempts", 0)).put("durationMs", record.getLong("durationMs", 0L))
        .put("completedAt", at);
    if (record.getLong("approvalWaitMs", 0L) > 0) {
      call.put("approvalWaitMs", record.getLong("approvalWaitMs"));
    }
    if (record.getString("effectClass") != null) {
      call.put("effectClass", record.getString("effectClass"));
    }
    if (record.getString("error") != null) {
      call.put("error", record.getString("error"));
    }
    if (record.getValue("resultBytes") != null) {
      call.put("resultBytes", record.getValue("resultBytes"));
    }
    JsonObject approval = record.getJsonObject("approval");
    if (approval != null) {
      JsonObject existing = call.getJsonObject("approval", new JsonObject());
      call.put("approval", existing.mergeIn(approval));
    }
    if (record.getJsonObject("edited") != null && call.getJsonObject("edited") == null) {
      call.put("edited", record.getJsonObject("edited").copy());
    }
  }
}
