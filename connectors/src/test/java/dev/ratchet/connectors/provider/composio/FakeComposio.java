package dev.ratchet.connectors.provider.composio;

import dev.ratchet.connectors.provider.FakeProvider;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A local HTTP server that speaks Composio's v3 REST API as the official SDKs use it, for the parts
 * Ratchet uses: toolkits and tools in pages with an opaque {@code next_cursor} (also for auth configs
 * and connected accounts), tools with the {@code version} their schema belongs to, execution for a
 * user or connected account at a given version, auth configs, and connected accounts filtered
 * server-side by {@code user_ids}, {@code toolkit_slugs}, {@code statuses} and
 * {@code connected_account_ids}. Accounts do not echo their owner's user id; a new account's
 * redirect URL is in {@code connectionData.val.redirectUrl}, an initiated one's in
 * {@code state.val.redirectUrl}. It counts executions and checks the API key.
 */
public final class FakeComposio implements FakeProvider {

  public static final String KEY = "composio-key-123456";
  public static final String VERSION = "20250909_00";

  public final List<JsonObject> executions = new CopyOnWriteArrayList<>();
  public final AtomicInteger requests = new AtomicInteger();
  /** Connected accounts created through the API, in order. */
  public final List<String> created = new CopyOnWriteArrayList<>();
  /** The {@code connection.state} each created account was initiated with (field values), by account id. */
  public final Map<String, JsonObject> initiatedWith = new ConcurrentHashMap<>();
  /** Items per page when the request names no limit. */
  public volatile int pageSize = 20;
  final Map<String, JsonObject> accounts = new ConcurrentHashMap<>();
  /** account id -> owning user id; the API does not show it. */
  final Map<String, String> owners = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final List<JsonObject> tools = new CopyOnWriteArrayList<>();
  private HttpServer server;

  public FakeComposio() {
    tool("GITHUB_CREATE_ISSUE", "github", "Create an issue in a repository");
    tool("GITHUB_GET_REPO", "github", "Get a repository", "readOnlyHint");
    tool("GITHUB_GET_ISSUE", "github", "Get an issue", "readOnlyHint");
    tool("GITHUB_FLAKY_WRITE", "github", "Write that fails with 500");
    tool("GITHUB_FLAKY_READ", "github", "Read that fails with 500", "readOnlyHint");
    tool("GITHUB_RATE_LIMITED", "github", "Rate limited", "readOnlyHint");
    tool("GITHUB_NOT_FOUND", "github", "Reports an error in its body");
    tool("GMAIL_SEND_EMAIL", "gmail", "Send an email", "destructiveHint");
    tool("GMAIL_FETCH_EMAILS", "gmail", "Fetch emails", "readOnlyHint");
    tool("GOOGLEDRIVE_LIST_FILES", "googledrive", "List files", "readOnlyHint");
    tool("SLACK_SEND_MESSAGE", "slack", "Send a Slack message", "idempotentHint");
    account("ca_alice_github", "alice", "github", "ACTIVE");
    account("ca_bob_github", "bob", "github", "ACTIVE");
    account("ca_alice_gmail", "alice", "gmail", "ACTIVE");
  }

  private void tool(String slug, String toolkit, String description, String... tags) {
    tools.add(new JsonObject().put("slug", slug).put("name", slug.toLowerCase(Locale.ROOT)).put("description", description)
        .put("toolkit", new JsonObject().put("slug", toolkit).put("name", toolkit))
        .put("tags", new JsonArray(List.of((Object[]) tags)))
        .put("version", VERSION).put("available_versions", new JsonArray().add(VERSION))
        .put("input_parameters", new JsonObject().put("type", "object").put("properties",
            new JsonObject().put("title", new JsonObject().put("type", "string")))));
  }

  /** Publishes a new version of a tool: its schema changes, and an execution naming no version runs it. */
  public void release(String slug, String version, JsonObject inputParameters) {
    tools.stream().filter(t -> t.getString("slug").equals(slug)).findFirst().ifPresent(t -> {
      t.put("version", version).put("input_parameters", inputParameters);
      t.getJsonArray("available_versions").add(version);
    });
  }

  public void account(String id, String user, String toolkit, String status) {
    accounts.put(id, new JsonObject().put("id", id).put("status", status)
        .put("toolkit", new JsonObject().put("slug", toolkit))
        .put("auth_config", new JsonObject().put("id", "ac_" + toolkit)));
    owners.put(id, user);
  }

  public String ownerOf(String id) {
    return owners.get(id);
  }

  @Override
  public int start(Vertx vertx) {
    // no keep-alive: a test that stops this server must see "connection refused", not a stale pooled connection
    server = vertx.createHttpServer().requestHandler(req -> {
      req.response().putHeader("Connection", "close");
      req.body().onSuccess(body -> handle(req, body));
    });
    return await(server.listen(0, "127.0.0.1")).actualPort();
  }

  public void stop() {
    await(server.close());
  }

  private void handle(HttpServerRequest req, Buffer body) {
    requests.incrementAndGet();
    String key = req.getHeader("x-api-key");
    if (!KEY.equals(key)) {
      reply(req, 401, error("invalid api key " + key));
      return;
    }
    String path = req.path();
    String method = req.method().name();
    if (path.equals("/api/v3/toolkits") && method.equals("GET")) {
      List<JsonObject> toolkits = new ArrayList<>();
      tools.stream().map(t -> t.getJsonObject("toolkit").getString("slug")).distinct()
          .forEach(s -> toolkits.add(new JsonObject().put("slug", s).put("name", s)
              .put("meta", new JsonObject().put("description", s + " toolkit"))));
      page(req, toolkits);
    } else if (path.startsWith("/api/v3/toolkits/")) {
      reply(req, 200, new JsonObject().put("slug", path.substring(17)).put("auth_config_details", new JsonArray().add(
          new JsonObject().put("mode", "API_KEY").put("fields", new JsonObject().put("connected_account_initiation",
              new JsonObject()
                  .put("required", new JsonArray().add(new JsonObject().put("name", "api_key")
                      .put("displayName", "API key").put("type", "string").put("is_secret", true)))
                  .put("optional", new JsonArray().add(new JsonObject().put("name", "subdomain")
                      .put("displayName", "Subdomain").put("type", "string"))))))));
    } else if (path.equals("/api/v3/tools")) {
      String toolkit = req.getParam("toolkit_slug");
      String search = req.getParam("search");
      page(req, tools.stream()
          .filter(t -> toolkit == null || t.getJsonObject("toolkit").getString("slug").equals(toolkit))
          .filter(t -> search == null || (t.getString("slug") + " " + t.getString("description"))
              .toLowerCase(Locale.ROOT).contains(search.toLowerCase(Locale.ROOT)))
          .toList());
    } else if (path.startsWith("/api/v3/tools/execute/")) {
      execute(req, path.substring(22), body.toJsonObject());
    } else if (path.startsWith("/api/v3/tools/")) {
      String slug = path.substring(14);
      tools.stream().filter(t -> t.getString("slug").equals(slug)).findFirst()
          .ifPresentOrElse(t -> reply(req, 200, t), () -> reply(req, 404, error("Tool not found")));
    } else if (path.equals("/api/v3/auth_configs")) {
      String toolkit = req.getParam("toolkit_slug");
      page(req, "slack".equals(toolkit) ? List.of()
          : List.of(new JsonObject().put("id", "ac_" + toolkit).put("toolkit", new JsonObject().put("slug", toolkit))));
    } else if (path.equals("/api/v3/connected_accounts") && method.equals("POST")) {
      JsonObject b = body.toJsonObject();
      String id = "ca_new_" + ids.incrementAndGet();
      String toolkit = b.getJsonObject("auth_config").getString("id").substring(3);
      account(id, b.getJsonObject("connection").getString("user_id"), toolkit, "INITIATED");
      String url = "https://connect.composio.example/" + id;
      accounts.get(id).put("state", new JsonObject().put("authScheme", "OAUTH2")
          .put("val", new JsonObject().put("status", "INITIATED").put("redirectUrl", url)));
      created.add(id);
      JsonObject state = b.getJsonObject("connection").getJsonObject("state");
      if (state != null) {
        initiatedWith.put(id, state);
      }
      reply(req, 201, new JsonObject().put("id", id).put("status", "INITIATED").put("connectionData",
          new JsonObject().put("authScheme", "OAUTH2")
              .put("val", new JsonObject().put("status", "INITIATED").put("redirectUrl", url))));
    } else if (path.equals("/api/v3/connected_accounts")) {
      List<String> users = list(req.getParam("user_ids"));
      List<String> toolkits = list(req.getParam("toolkit_slugs"));
      List<String> statuses = list(req.getParam("statuses"));
      List<String> wanted = list(req.getParam("connected_account_ids"));
      page(req, accounts.values().stream()
          .filter(a -> users == null || users.contains(owners.get(a.getString("id"))))
          .filter(a -> toolkits == null || toolkits.contains(a.getJsonObject("toolkit").getString("slug")))
          .filter(a -> statuses == null || statuses.contains(a.getString("status")))
          .filter(a -> wanted == null || wanted.contains(a.getString("id")))
          .sorted(Comparator.comparing(a -> a.getString("id"))).toList());
    } else if (path.startsWith("/api/v3/connected_accounts/")) {
      String id = path.substring(27);
      JsonObject acc = accounts.get(id);
      if (acc == null) {
        reply(req, 404, error("Connected account not found"));
      } else if (method.equals("DELETE")) {
        accounts.remove(id);
        reply(req, 200, new JsonObject().put("success", true));
      } else {
        reply(req, 200, acc);
      }
    } else {
      reply(req, 404, error("no route " + method + " " + path));
    }
  }

  private static List<String> list(String param) {
    return param == null ? null : List.of(param.split(","));
  }

  private void page(HttpServerRequest req, List<JsonObject> all) {
    int from = req.getParam("cursor") == null ? 0 : Integer.parseInt(
        new String(Base64.getUrlDecoder().decode(req.getParam("cursor")), StandardCharsets.UTF_8).substring(5));
    int limit = req.getParam("limit") == null ? pageSize : Integer.parseInt(req.getParam("limit"));
    List<JsonObject> page = all.subList(Math.min(from, all.size()), Math.min(from + limit, all.size()));
    JsonObject out = new JsonObject().put("items", new JsonArray(new ArrayList<>(page)))
        .put("total_pages", (all.size() + limit - 1) / Math.max(1, limit)).put("current_page", from / Math.max(1, limit) + 1);
    out.put("next_cursor", from + limit < all.size() ? Base64.getUrlEncoder().encodeToString(
        ("page:" + (from + limit)).getBytes(StandardCharsets.UTF_8)) : null);
    reply(req, 200, out);
  }

  private void execute(HttpServerRequest req, String slug, JsonObject body) {
    String user = body.getString("user_id");
    String accountId = body.getString("connected_account_id");
    String toolkit = slug.substring(0, slug.indexOf('_')).toLowerCase(Locale.ROOT);
    JsonObject account = accountId != null ? accounts.get(accountId)
        : accounts.values().stream().filter(a -> user != null && user.equals(owners.get(a.getString("id")))
            && a.getJsonObject("toolkit").getString("slug").equals(toolkit)
            && "ACTIVE".equals(a.getString("status"))).findFirst().orElse(null);
    if (account == null || !owners.get(account.getString("id")).equals(user)
        || !"ACTIVE".equals(account.getString("status"))) {
      reply(req, 400, error("No active connected account for user " + user + " and toolkit " + toolkit));
      return;
    }
    switch (slug) {
      case "GITHUB_FLAKY_WRITE", "GITHUB_FLAKY_READ" -> reply(req, 500, error("upstream timed out"));
      case "GITHUB_RATE_LIMITED" -> {
        req.response().putHeader("Retry-After", "2");
        reply(req, 429, error("slow down"));
      }
      case "GITHUB_NOT_FOUND" -> reply(req, 200, new JsonObject().put("successful", false).put("data", new JsonObject())
          .put("error", "Repository not found"));
      default -> {
        executions.add(new JsonObject().put("slug", slug).put("user_id", user).put("account", account.getString("id"))
            .put("version", body.getString("version")).put("arguments", body.getJsonObject("arguments")));
        reply(req, 200, new JsonObject().put("successful", true).put("log_id", "log_" + executions.size())
            .put("data", new JsonObject().put("slug", slug).put("user", user)
                .put("arguments", body.getJsonObject("arguments"))));
      }
    }
  }

  private static JsonObject error(String message) {
    return new JsonObject().put("error", new JsonObject().put("message", message));
  }

  private static void reply(HttpServerRequest req, int status, JsonObject body) {
    req.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
  }
}
