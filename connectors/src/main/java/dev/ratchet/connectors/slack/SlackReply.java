package dev.ratchet.connectors.slack;

import dev.ratchet.runtime.ToolResult;
import io.vertx.core.json.JsonObject;

/** What one Slack Web API call gave: the body of an {@code ok:true} answer, or the result the attempt ends with. */
record SlackReply(JsonObject body, ToolResult ended, String error) {

  static SlackReply ok(JsonObject body) {
    return new SlackReply(body, null, null);
  }

  static SlackReply ended(ToolResult result) {
    return new SlackReply(null, result, null);
  }

  /** {@code ok:false} with a Slack error code the operation may want to treat itself. */
  static SlackReply error(String code, ToolResult result) {
    return new SlackReply(null, result, code);
  }

  boolean isOk() {
    return body != null;
  }
}
