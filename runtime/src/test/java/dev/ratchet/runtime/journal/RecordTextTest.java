package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRecord;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class RecordTextTest {

  private static List<CallResult> records() {
    CallId id = CallId.of("s\u00e9ssion \"1\"", "t1", 0);
    ApprovalRecord approval = new ApprovalRecord("approved", "refund over 50", 1_700_000_000_000L, "ana\n",
        "ok \u2028 \ud83d\ude00", 1_700_000_001_000L);
    List<CallResult> list = new ArrayList<>();
    list.add(new CallResult(0, id, "read_a", null, EffectClass.READ, Outcome.SUCCEEDED,
        new JsonObject().put("status", "ok").put("rows", new JsonArray().add(1).add("two\u0001").addNull()),
        null, 1, false, false, null, 12, null));
    list.add(new CallResult(1, id, "refund", "toolu_01", EffectClass.NON_IDEMPOTENT_WRITE, Outcome.SUCCEEDED,
        "{\"cut\":", null, 1, false, true, approval, 80, null));
    list.add(new CallResult(2, id, "post", "call_9", EffectClass.IDEMPOTENT_WRITE, Outcome.OUTCOME_UNKNOWN, null,
        "the provider did not answer \"in time\"\t", 3, false, false, null, 30_000, "ops@example.com"));
    list.add(new CallResult(3, id, null, null, null, Outcome.FAILED, null, "no such tool", 0, true, false, null, 0,
        null));
    list.add(new CallResult(4, id, "count", null, EffectClass.READ, Outcome.SUCCEEDED, 42, null, 2, false, false,
        null, 1, null));
    return list;
  }

  @Test
  void aRecordsTextIsItsJsonWhetherItsResultWasEncodedAlreadyOrNot() {
    for (CallResult r : records()) {
      String resultText = r.result() == null ? null : Json.encode(r.result());
      assertEquals(r.toJson(), new JsonObject(RecordText.full(r, resultText)), r.tool());
      assertEquals(r.toJson(), new JsonObject(RecordText.full(r, null)), r.tool());
      assertEquals(r, CallResult.fromJson(new JsonObject(RecordText.full(r, resultText))), r.tool());
    }
  }

  @Test
  void theBytesARedisRequestCarriesAreTheRecordsTextInUtf8() {
    for (CallResult r : records()) {
      String resultText = r.result() == null ? null : Json.encode(r.result());
      assertArrayEquals(RecordText.full(r, resultText).getBytes(StandardCharsets.UTF_8),
          RecordText.fullBytes(r, resultText), r.tool());
      assertArrayEquals(RecordText.completedEvent(r, resultText).getBytes(StandardCharsets.UTF_8),
          RecordText.completedEventBytes(r, resultText), r.tool());
    }
  }

  @Test
  void aCompletedEventReadBackCarriesTheRecordWithTheSizeOfItsResultInsteadOfTheResult() {
    for (CallResult r : records()) {
      JsonObject expected = r.toJson();
      Object result = expected.remove("result");
      if (result != null) {
        expected.put("resultBytes", Json.encode(result).getBytes(StandardCharsets.UTF_8).length);
      }
      JsonObject stored = new JsonObject(RecordText.completedEvent(r, null));
      assertEquals(r.outcome().wireName(), stored.getString("outcome"), r.tool());
      assertEquals(expected, StepEntries.completedData(stored, RecordText.full(r, null)), r.tool());
    }
  }

  @Test
  void aTurnsResultsTextIsTheTurnResultsJson() {
    List<CallResult> records = records();
    List<String> texts = new ArrayList<>();
    records.forEach(r -> texts.add(RecordText.full(r, null)));
    TurnResult turn = new TurnResult("s-1", "t\"1", records);
    assertEquals(turn.toJson(), new JsonObject(RecordText.turnResult("s-1", "t\"1", texts)));
    assertEquals(turn, TurnResult.fromJson(new JsonObject(RecordText.turnResult("s-1", "t\"1", texts))));
  }
}
