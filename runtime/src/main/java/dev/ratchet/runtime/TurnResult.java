package dev.ratchet.runtime;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/** The results of one turn: one record per call, in the model's order. */
public record TurnResult(String sessionId, String turnId, List<CallResult> calls) {

  public TurnResult {
    calls = List.copyOf(calls);
  }

  public CallResult call(int index) {
    return calls.get(index);
  }

  public JsonObject toJson() {
    JsonArray array = new JsonArray();
    calls.forEach(c -> array.add(c.toJson()));
    return new JsonObject().put("sessionId", sessionId).put("turnId", turnId).put("results", array);
  }

  public static TurnResult fromJson(JsonObject json) {
    List<CallResult> list = new ArrayList<>();
    for (Object o : json.getJsonArray("results", new JsonArray())) {
      list.add(CallResult.fromJson((JsonObject) o));
    }
    return new TurnResult(json.getString("sessionId"), json.getString("turnId"), list);
  }
}
