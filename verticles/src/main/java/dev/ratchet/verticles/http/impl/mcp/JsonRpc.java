package dev.ratchet.verticles.http.impl.mcp;

import io.vertx.core.json.JsonObject;

/**
 * The JSON-RPC 2.0 envelope MCP messages travel in: answers, errors and notifications, and the
 * error codes this endpoint uses. An error's {@code data.code} is Ratchet's own code (as over the
 * HTTP API), so a client can tell an unknown session from a refused argument.
 */
final class JsonRpc {

  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;
  /** A session, agent or turn the caller cannot reach: the same answer whether it is missing or another's. */
  static final int NOT_FOUND = -32001;
  /** The turn's calls could not be gathered: a call missing after the wait, or counts that disagree. */
  static final int TURN_INCOMPLETE = -32002;

  private JsonRpc() {
  }

  static JsonObject result(Object id, JsonObject result) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
  }

  static JsonObject error(Object id, int code, String message, String ratchetCode) {
    JsonObject error = new JsonObject().put("code", code).put("message", message);
    if (ratchetCode != null) {
      error.put("data", new JsonObject().put("code", ratchetCode));
    }
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", error);
  }

  static JsonObject notification(String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", method).put("params", params);
  }

  /** A request id is a string or a number; null, objects and arrays are refused. */
  static boolean validId(Object id) {
    return id instanceof String || id instanceof Number;
  }
}
