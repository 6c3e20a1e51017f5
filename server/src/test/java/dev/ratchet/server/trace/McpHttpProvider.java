package dev.ratchet.server.trace;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * An MCP server over streamable HTTP on a free port of 127.0.0.1, speaking the protocol's JSON
 * answers (no SSE): one read-only tool, {@code look_up}, and a record of the {@code traceparent}
 * header and {@code _meta.traceparent} of every {@code tools/call} it receives.
 */
final class McpHttpProvider {

  /** What one {@code tools/call} carried: its header, and the traceparent of its {@code _meta}. */
  record Call(String header, String meta) {
  }

  final List<Call> calls = new CopyOnWriteArrayList<>();
  private int port;

  void start(Vertx vertx) {
    port = await(vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1")).actualPort();
  }

  String url() {
    return "http://127.0.0.1:" + port + "/mcp";
  }

  private void handle(HttpServerRequest req) {
    if (req.method() != HttpMethod.POST) {
      // no listening stream; ending a session is always fine
      req.response().setStatusCode(req.method() == HttpMethod.DELETE ? 200 : 405).end();
      return;
    }
    req.body().onSuccess(body -> {
      JsonObject message = body.toJsonObject();
      Object id = message.getValue("id");
      if (id == null) {
        req.response().setStatusCode(202).end();
        return;
      }
      JsonObject params = message.getJsonObject("params", new JsonObject());
      JsonObject result = switch (message.getString("method")) {
        case "initialize" -> new JsonObject().put("protocolVersion", params.getString("protocolVersion"))
            .put("capabilities", new JsonObject().put("tools", new JsonObject()))
            .put("serverInfo", new JsonObject().put("name", "traced-provider").put("version", "1"));
        case "tools/list" -> new JsonObject().put("tools", new JsonArray().add(new JsonObject().put("name", "look_up")
            .put("description", "Look something up").put("inputSchema", new JsonObject().put("type", "object"))
            .put("annotations", new JsonObject().put("readOnlyHint", true))));
        case "tools/call" -> {
          calls.add(new Call(req.getHeader("traceparent"),
              params.getJsonObject("_meta", new JsonObject()).getString("traceparent")));
          yield new JsonObject().put("content", new JsonArray().add(new JsonObject().put("type", "text")
              .put("text", "found"))).put("isError", false);
        }
        default -> new JsonObject();
      };
      req.response().putHeader("Content-Type", "application/json").putHeader("Mcp-Session-Id", "traced-1")
          .end(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result).encode());
    });
  }
}
