package dev.ratchet.connectors.provider.arcade;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local HTTP server that speaks the Arcade engine API for the parts Ratchet uses: tool listing
 * with offset pagination, definitions, execution for a user, per-tool authorization and its status,
 * user connections and health. Executions are counted; a user must have authorized a tool first.
 */
final class FakeArcade {

  static final String KEY = "arc-key-abcdef-123";

  final List<JsonObject> executions = new CopyOnWriteArrayList<>();
  /** user id -> tools that user has authorized */
  final Map<String, Set<String>> authorized = new ConcurrentHashMap<>();
  final Map<String, JsonObject> authFlows = new ConcurrentHashMap<>();
  final Map<String, JsonObject> connections = new ConcurrentHashMap<>();
  private final List<JsonObject> tools = new ArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();
  private HttpServer server;

  FakeArcade() {
    tool("Github", "GetRepository", "Get a repository", new JsonObject().put("read_only", true));
    tool("Github", "CreateIssue", "Create an issue", null);
    tool("Github", "Flaky", "Sometimes fails", new JsonObject().put("read_only", true));
    tool("Slack", "SendMessage", "Send a message", new JsonObject().put("idempotent", true).put("destructive", false));
    tool("Gmail", "SendEmail", "Send an email", new JsonObject().put("destructive", true));
    authorized.put("alice", ConcurrentHashMap.newKeySet());
    authorized.get("alice").addAll(List.of("Github.GetRepository", "Github.CreateIssue", "Github.Flaky"));
    connection("uc_alice", "alice", "github");
    connection("uc_bob", "bob", "github");
  }

  private void tool(String toolkit, String name, String description, JsonObject behavior) {
    JsonObject def = new JsonObject().put("name", name).put("qualified_name", toolkit + "." + name)
        .put("fully_qualified_name", toolkit + "." + name + "@1.0.0").put("description", description)
        .put("toolkit", new JsonObject().put("name", toolkit).put("version", "1.0.0"))
        .put("input", new JsonObject().put("parameters", new JsonArray()
            .add(new JsonObject().put("name", "repo").put("required", true).put("description", "owner/name")
                .put("value_schema", new JsonObject().put("val_type", "string")))
            .add(new JsonObject().put("name", "labels").put("required", false)
                .put("value_schema", new JsonObject().put("val_type", "array").put("inner_val_type", "string")))))
        .put("requirements", new JsonObject().put("authorization", new JsonObject().put("provider_id", toolkit.toLowerCase())));
    if (behavior != null) {
      def.put("metadata", new JsonObject().put("behavior", behavior));
    }
    tools.add(def);
  }

  void connection(String id, String user, String provider) {
    connections.put(id, new JsonObject().put("id", id).put("user_id", user).put("provider_id", provider)
        .put("connection_status", "active"));
  }

  int start(Vertx vertx) {
    server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> handle(req, body)));
    return server.listen(0, "127.0.0.1").await().actualPort();
  }

  private void handle(HttpServerRequest req, Buffer body) {
    if (!("Bearer " + KEY).equals(req.getHeader("Authorization"))) {
      reply(req, 401, new JsonObject().put("message", "unauthorized"));
      return;
    }
    String path = req.path();
    switch (path) {
      case "/v1/health" -> reply(req, 200, new JsonObject().put("healthy", true));
      case "/v1/tools/list" -> {
        String toolkit = req.getParam("toolkit");
        int offset = Integer.parseInt(req.getParam("offset", "0"));
        int limit = Integer.parseInt(req.getParam("limit", "25"));
        List<JsonObject> matching = tools.stream()
            .filter(t -> toolkit == null || t.getJsonObject("toolkit").getString("name").equalsIgnoreCase(toolkit)).toList();
        List<JsonObject> page = matching.subList(Math.min(offset, matching.size()), Math.min(offset + limit, matching.size()));
        reply(req, 200, new JsonObject().put("items", new JsonArray(new ArrayList<>(page)))
            .put("offset", offset).put("limit", limit).put("total_count", matching.size()));
      }
      case "/v1/tools/definition" -> tools.stream().filter(t -> t.getString("qualified_name").equals(req.getParam("name")))
          .findFirst().ifPresentOrElse(t -> reply(req, 200, t),
              () -> reply(req, 404, new JsonObject().put("message", "tool not found")));
      case "/v1/tools/execute" -> execute(req, body.toJsonObject());
      case "/v1/tools/authorize" -> {
        JsonObject b = body.toJsonObject();
        String id = "auth_" + ids.incrementAndGet();
        JsonObject flow = new JsonObject().put("id", id).put("status", "pending").put("user_id", b.getString("user_id"))
            .put("tool", b.getString("tool_name")).put("url", "https://auth.arcade.example/" + id);
        authFlows.put(id, flow);
        reply(req, 200, flow);
      }
      case "/v1/auth/status" -> {
        JsonObject flow = authFlows.get(req.getParam("id"));
        reply(req, flow == null ? 404 : 200, flow == null ? new JsonObject().put("message", "unknown") : flow);
      }
      case "/v1/admin/user_connections" -> {
        String user = req.getParam("user_id");
        String provider = req.getParam("provider_id");
        JsonArray items = new JsonArray();
        connections.values().stream().filter(c -> user == null || c.getString("user_id").equals(user))
            .filter(c -> provider == null || c.getString("provider_id").equals(provider)).forEach(items::add);
        reply(req, 200, new JsonObject().put("items", items));
      }
      default -> {
        if (path.startsWith("/v1/admin/user_connections/") && req.method().name().equals("DELETE")) {
          JsonObject removed = connections.remove(path.substring(27));
          if (removed != null) {
            authorized.getOrDefault(removed.getString("user_id"), Set.of()).clear();
          }
          reply(req, removed == null ? 404 : 204, new JsonObject());
        } else {
          reply(req, 404, new JsonObject().put("message", "no route " + path));
        }
      }
    }
  }

  private void execute(HttpServerRequest req, JsonObject body) {
    String tool = body.getString("tool_name");
    String user = body.getString("user_id");
    if (!authorized.getOrDefault(user, Set.of()).contains(tool)) {
      reply(req, 200, new JsonObject().put("id", "exec").put("success", false).put("output", new JsonObject()
          .put("authorization", new JsonObject().put("status", "pending").put("url", "https://auth.arcade.example/for-" + user))));
      return;
    }
    if (tool.equals("Github.Flaky")) {
      reply(req, 200, new JsonObject().put("success", false).put("output", new JsonObject().put("error",
          new JsonObject().put("message", "GitHub is busy").put("can_retry", true).put("retry_after_ms", 1500))));
      return;
    }
    executions.add(new JsonObject().put("tool", tool).put("user_id", user).put("input", body.getJsonObject("input")));
    reply(req, 200, new JsonObject().put("id", "exec_" + executions.size()).put("success", true)
        .put("output", new JsonObject().put("value", new JsonObject().put("tool", tool).put("user", user))));
  }

  private static void reply(HttpServerRequest req, int status, JsonObject body) {
    req.response().setStatusCode(status).putHeader("content-type", "application/json").end(status == 204 ? "" : body.encode());
  }
}
