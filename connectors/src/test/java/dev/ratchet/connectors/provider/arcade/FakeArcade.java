package dev.ratchet.connectors.provider.arcade;

import dev.ratchet.connectors.provider.FakeProvider;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A local HTTP server that speaks the Arcade engine API as its published OpenAPI description and
 * the official client define it, for the parts Ratchet uses: {@code GET /v1/tools} (offset pages of
 * {@code items} with {@code total_count}), {@code GET /v1/tools/{name}}, {@code POST /v1/tools/execute}
 * (an {@code output.error} with {@code kind} and {@code can_retry}), {@code POST /v1/tools/authorize},
 * {@code GET /v1/auth/status}, {@code GET|DELETE /v1/admin/user_connections} (offset pages, filtered
 * by {@code user_id} and the auth {@code provider_id}) and {@code GET /v1/health}. Errors carry
 * {@code name} and {@code message}. A user must have authorized a tool before it runs: an
 * unauthorized execution answers 403.
 */
public final class FakeArcade implements FakeProvider {

  public static final String KEY = "arc-key-abcdef-123";
  static final int DEFAULT_PAGE = 25;

  final List<JsonObject> executions = new CopyOnWriteArrayList<>();
  /** The {@code Idempotency-Key} header of each execute request, in order. */
  final List<String> idempotencyKeys = new CopyOnWriteArrayList<>();
  /** user id -> tools that user has authorized */
  final Map<String, Set<String>> authorized = new ConcurrentHashMap<>();
  final Map<String, JsonObject> authFlows = new ConcurrentHashMap<>();
  final Map<String, JsonObject> connections = new ConcurrentHashMap<>();
  /** Errors that the next executions answer with after the tool ran (an upstream failure mid-write). */
  final ConcurrentLinkedQueue<JsonObject> nextErrors = new ConcurrentLinkedQueue<>();
  /** Users whose grant the upstream service no longer accepts, though Arcade still holds it. */
  final Set<String> expiredGrants = ConcurrentHashMap.newKeySet();
  /** Query strings of each user connections listing, in order. */
  final List<String> connectionQueries = new CopyOnWriteArrayList<>();
  private final List<JsonObject> tools = new CopyOnWriteArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();
  private HttpServer server;

  public FakeArcade() {
    tool("Github", "GetRepository", "Get a repository", new JsonObject().put("read_only", true), "github");
    tool("Github", "CreateIssue", "Create an issue", null, "github");
    tool("Github", "Flaky", "Sometimes fails", new JsonObject().put("read_only", true), "github");
    tool("Slack", "SendMessage", "Send a message", new JsonObject().put("idempotent", true).put("destructive", false), "slack");
    tool("Gmail", "SendEmail", "Send an email", new JsonObject().put("destructive", true), "google");
    authorized.put("alice", ConcurrentHashMap.newKeySet());
    authorized.get("alice").addAll(List.of("Github.GetRepository", "Github.CreateIssue", "Github.Flaky"));
    connection("uc_alice", "alice", "github");
    connection("uc_bob", "bob", "github");
  }

  void tool(String toolkit, String name, String description, JsonObject behavior, String authProvider) {
    JsonObject def = new JsonObject().put("name", name).put("qualified_name", toolkit + "." + name)
        .put("fully_qualified_name", toolkit + "." + name + "@1.0.0").put("description", description)
        .put("toolkit", new JsonObject().put("name", toolkit).put("version", "1.0.0"))
        .put("input", new JsonObject().put("parameters", new JsonArray()
            .add(new JsonObject().put("name", "repo").put("required", true).put("description", "owner/name")
                .put("value_schema", new JsonObject().put("val_type", "string")))
            .add(new JsonObject().put("name", "labels").put("required", false)
                .put("value_schema", new JsonObject().put("val_type", "array").put("inner_val_type", "string")))))
        .put("requirements", new JsonObject().put("authorization", new JsonObject()
            .put("provider_id", authProvider).put("provider_type", "oauth2")));
    if (behavior != null) {
      def.put("metadata", new JsonObject().put("behavior", behavior));
    }
    tools.add(def);
  }

  void connection(String id, String user, String provider) {
    connections.put(id, new JsonObject().put("id", id).put("connection_id", "conn-" + id).put("user_id", user)
        .put("provider_id", provider).put("provider_type", "oauth2").put("connection_status", "active"));
  }

  @Override
  public int start(Vertx vertx) {
    server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> handle(req, body)));
    return await(server.listen(0, "127.0.0.1")).actualPort();
  }

  private void handle(HttpServerRequest req, Buffer body) {
    if (!("Bearer " + KEY).equals(req.getHeader("Authorization"))) {
      error(req, 401, "unauthorized", "invalid API key");
      return;
    }
    String path = req.path();
    boolean get = req.method() == HttpMethod.GET;
    boolean post = req.method() == HttpMethod.POST;
    if (get && path.equals("/v1/health")) {
      reply(req, 200, new JsonObject().put("healthy", true));
    } else if (get && path.equals("/v1/tools")) {
      String toolkit = req.getParam("toolkit");
      page(req, tools.stream()
          .filter(t -> toolkit == null || t.getJsonObject("toolkit").getString("name").equalsIgnoreCase(toolkit)).toList());
    } else if (post && path.equals("/v1/tools/execute")) {
      execute(req, body.toJsonObject());
    } else if (post && path.equals("/v1/tools/authorize")) {
      authorize(req, body.toJsonObject());
    } else if (get && path.startsWith("/v1/tools/") && path.indexOf('/', 10) < 0) {
      String name = URLDecoder.decode(path.substring(10), StandardCharsets.UTF_8);
      tools.stream().filter(t -> t.getString("qualified_name").equalsIgnoreCase(name)).findFirst()
          .ifPresentOrElse(t -> reply(req, 200, t), () -> error(req, 404, "not_found", "tool not found: " + name));
    } else if (get && path.equals("/v1/auth/status")) {
      JsonObject flow = authFlows.get(req.getParam("id"));
      if (flow == null) {
        error(req, 404, "not_found", "unknown authorization");
      } else {
        reply(req, 200, flow);
      }
    } else if (get && path.equals("/v1/admin/user_connections")) {
      connectionQueries.add(req.query() == null ? "" : req.query());
      String user = req.getParam("user_id");
      String provider = req.getParam("provider_id");
      page(req, connections.values().stream().sorted((a, b) -> a.getString("id").compareTo(b.getString("id")))
          .filter(c -> user == null || c.getString("user_id").equals(user))
          .filter(c -> provider == null || c.getString("provider_id").equals(provider)).toList());
    } else if (req.method() == HttpMethod.DELETE && path.startsWith("/v1/admin/user_connections/")) {
      JsonObject removed = connections.remove(path.substring(27));
      if (removed == null) {
        error(req, 404, "not_found", "no such connection");
        return;
      }
      authorized.getOrDefault(removed.getString("user_id"), Set.of()).clear();
      req.response().setStatusCode(204).end();
    } else {
      error(req, 404, "not_found", "no route " + req.method() + " " + path);
    }
  }

  private static void page(HttpServerRequest req, List<JsonObject> all) {
    int offset = Integer.parseInt(req.getParam("offset", "0"));
    int limit = Integer.parseInt(req.getParam("limit", String.valueOf(DEFAULT_PAGE)));
    List<JsonObject> page = all.subList(Math.min(offset, all.size()), Math.min(offset + limit, all.size()));
    reply(req, 200, new JsonObject().put("items", new JsonArray(new ArrayList<>(page))).put("offset", offset)
        .put("limit", limit).put("page_count", page.size()).put("total_count", all.size()));
  }

  private void authorize(HttpServerRequest req, JsonObject b) {
    String user = b.getString("user_id");
    String tool = b.getString("tool_name");
    String id = "auth_" + ids.incrementAndGet();
    JsonObject flow = new JsonObject().put("id", id).put("user_id", user).put("provider_id", providerOf(tool));
    if (authorized.getOrDefault(user, Set.of()).contains(tool) && !expiredGrants.contains(user)) {
      flow.put("status", "completed");
    } else {
      flow.put("status", "pending").put("url", "https://auth.arcade.example/" + id);
      if (b.getString("next_uri") != null) {
        flow.put("next_uri", b.getString("next_uri"));
      }
    }
    authFlows.put(id, flow.copy().put("tool", tool));
    reply(req, 200, flow);
  }

  private String providerOf(String tool) {
    return tools.stream().filter(t -> t.getString("qualified_name").equals(tool)).findFirst()
        .map(t -> t.getJsonObject("requirements").getJsonObject("authorization").getString("provider_id")).orElse(null);
  }

  private void execute(HttpServerRequest req, JsonObject body) {
    idempotencyKeys.add(String.valueOf(req.getHeader("Idempotency-Key")));
    String tool = body.getString("tool_name");
    String user = body.getString("user_id");
    if (!authorized.getOrDefault(user, Set.of()).contains(tool)) {
      error(req, 403, "authorization_required", "authorization required for " + tool);
      return;
    }
    if (expiredGrants.contains(user)) {
      reply(req, 200, new JsonObject().put("success", false).put("output", new JsonObject().put("error",
          new JsonObject().put("kind", "UPSTREAM_RUNTIME_AUTH_ERROR").put("message", "token expired")
              .put("status_code", 401).put("can_retry", false))));
      return;
    }
    if (tool.equals("Github.Flaky")) {
      reply(req, 200, new JsonObject().put("success", false).put("output", new JsonObject().put("error",
          new JsonObject().put("kind", "UPSTREAM_RUNTIME_RATE_LIMIT").put("message", "GitHub is busy")
              .put("can_retry", true).put("retry_after_ms", 1500))));
      return;
    }
    executions.add(new JsonObject().put("tool", tool).put("user_id", user).put("input", body.getJsonObject("input")));
    JsonObject failure = nextErrors.poll();
    if (failure != null) {
      reply(req, 200, new JsonObject().put("id", "exec_" + executions.size()).put("success", false)
          .put("output", new JsonObject().put("error", failure)));
      return;
    }
    reply(req, 200, new JsonObject().put("id", "exec_" + executions.size()).put("success", true)
        .put("output", new JsonObject().put("value", new JsonObject().put("tool", tool).put("user", user))));
  }

  private static void error(HttpServerRequest req, int status, String name, String message) {
    reply(req, status, new JsonObject().put("name", name).put("message", message));
  }

  private static void reply(HttpServerRequest req, int status, JsonObject body) {
    req.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
  }
}
