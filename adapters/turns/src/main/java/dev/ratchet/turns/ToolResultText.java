package dev.ratchet.turns;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.Outcome;
import io.vertx.core.json.JsonObject;

/**
 * A call's record as the model reads it, the same text Ratchet's own agent loop gives its model:
 * {@code {"outcome":"succeeded","result":...}}, or the outcome and the error (a person's reason for a
 * rejection, "safe to call again" for a skipped write) so that the model can act on it.
 */
public final class ToolResultText {

  private ToolResultText() {
  }

  public static String of(CallResult call) {
    if (call.outcome() == Outcome.SUCCEEDED) {
      JsonObject json = new JsonObject().put("outcome", "succeeded");
      if (call.result() != null) {
        json.put("result", call.result());
      }
      return json.encode();
    }
    JsonObject json = new JsonObject().put("outcome", call.outcome().wireName()).put("error", call.error());
    if (call.skipped()) {
      json.put("skipped", true);
    }
    return json.encode();
  }

  /** Whether the model should see the call as an error (a failed or {@code outcome_unknown} call). */
  public static boolean isError(CallResult call) {
    return call.outcome() != Outcome.SUCCEEDED;
  }
}
