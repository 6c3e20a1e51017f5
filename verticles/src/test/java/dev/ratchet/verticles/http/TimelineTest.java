package dev.ratchet.verticles.http;

import dev.ratchet.runtime.CallId;
import dev.ratchet.verticles.http.impl.Timeline;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The timeline and the reconciled list are pure folds of journal events. */
class TimelineTest {

  static JsonObject event(String type, String turn, String call, long at, JsonObject data) {
    JsonObject e = new JsonObject().put("id", at + "-0").put("type", type).put("at", at).put("data", data);
    if (turn != null) {
      e.put("turn", turn);
    }
    if (call != null) {
      e.put("call", call);
    }
    return e;
  }

  static JsonObject spec(String turnId, String tool) {
    return new JsonObject().put("turnId", turnId).put("calls", new JsonArray()
        .add(new JsonObject().put("name", tool).put("arguments", new JsonObject().put("x", 1))));
  }

  @Test
  void aCallWaitingForApprovalThenApprovedAndCompletedShowsEachStep() {
    String call = CallId.of("s", "t1", 0).value();
    List<JsonObject> events = List.of(
        event("turn.submitted", "t1", null, 1000, spec("t1", "refund")),
        event("approval.requested", "t1", call, 1010, new JsonObject().put("askedBecause", "policy")
            .put("effectClass", "non_idempotent_write").put("argumentsHash", "h").put("requestedAt", 1010)));
    JsonObject waiting = Timeline.build("s", new JsonObject().put("agent", "a"), events).getJsonArray("turns")
        .getJsonObject(0).getJsonArray("calls").getJsonObject(0);
    assertThat(waiting.getString("status")).isEqualTo("waiting_for_approval");
    assertThat(waiting.getJsonObject("approval").getString("askedBecause")).isEqualTo("policy");

    List<JsonObject> more = new java.util.ArrayList<>(events);
    more.add(event("approval.decided", "t1", call, 1500, new JsonObject().put("status", "approved")
        .put("approver", "ana").put("reason", "ok")));
    more.add(event("call.started", "t1", call, 1510, new JsonObject().put("attempt", 1)));
    more.add(event("call.completed", "t1", call, 1600, new JsonObject().put("outcome", "succeeded")
        .put("attempts", 1).put("durationMs", 90).put("approvalWaitMs", 500).put("skipped", false)));
    more.add(event("turn.completed", "t1", null, 1610, new JsonObject().put("results", new JsonArray()
        .add(new JsonObject().put("callId", call).put("result", new JsonObject().put("done", true))))));
    JsonObject turn = Timeline.build("s", new JsonObject(), more).getJsonArray("turns").getJsonObject(0);
    JsonObject done = turn.getJsonArray("calls").getJsonObject(0);
    assertThat(turn.getLong("durationMs")).isEqualTo(610);
    assertThat(done.getString("status")).isEqualTo("succeeded");
    assertThat(done.getJsonObject("approval").getString("approver")).isEqualTo("ana");
    assertThat(done.getJsonArray("attempts")).hasSize(1);
    assertThat(done.getLong("durationMs")).isEqualTo(90);
    assertThat(done.getLong("approvalWaitMs")).isEqualTo(500);
    assertThat(done.getJsonObject("result")).isEqualTo(new JsonObject().put("done", true));
  }

  @Test
  void reconciledCallsBelongToTheNextTurnSubmittedAfterThem() {
    String call = CallId.of("s", "t1", 0).value();
    List<JsonObject> events = List.of(
        event("turn.submitted", "t1", null, 1000, spec("t1", "charge")),
        event("call.completed", "t1", call, 1100, new JsonObject().put("outcome", "outcome_unknown")),
        event("turn.completed", "t1", null, 1110, new JsonObject()),
        event("call.reconciled", "t1", call, 2000, new JsonObject().put("outcome", "failed").put("by", "ana")
            .put("note", "no charge at the provider")),
        event("turn.submitted", "t2", null, 3000, spec("t2", "charge")),
        event("turn.submitted", "t3", null, 4000, spec("t3", "charge")));
    assertThat(JournalReader.reconciledBefore(events, "t1")).isEmpty();
    List<JsonObject> t2 = JournalReader.reconciledBefore(events, "t2");
    assertThat(t2).hasSize(1);
    assertThat(t2.get(0).getString("outcome")).isEqualTo("failed");
    assertThat(t2.get(0).getString("reconciledBy")).isEqualTo("ana");
    assertThat(JournalReader.reconciledBefore(events, "t3")).isEmpty();

    JsonObject c = Timeline.build("s", new JsonObject(), events).getJsonArray("turns").getJsonObject(0)
        .getJsonArray("calls").getJsonObject(0);
    assertThat(c.getString("status")).isEqualTo("failed");
    assertThat(c.getJsonObject("reconciled").getString("from")).isEqualTo("outcome_unknown");
  }
}
