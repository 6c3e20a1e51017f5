package dev.ratchet.verticles.http.impl.mcp;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.ToolCatalog;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.Role;
import dev.ratchet.verticles.http.impl.AuthHandler;
import dev.ratchet.verticles.http.impl.Principal;
import dev.ratchet.verticles.http.impl.Replies;
import dev.ratchet.verticles.http.impl.SessionAccess;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Each agent's tools as an MCP server over streamable HTTP at {@code /mcp/:agent}, for agent
 * tokens: {@code initialize}, {@code ping}, {@code tools/list} and {@code tools/call} on POST,
 * {@code DELETE} to end an MCP session; no server-initiated stream (GET answers 405).
 * docs/MCP-SERVER.md documents the endpoint and what it guarantees.
 */
public final class McpRoutes {

  /** The revisions spoken, newest first; a client asking for another one gets the newest. */
  static final List<String> PROTOCOL_VERSIONS = List.of("2025-06-18", "2025-03-26", "2024-11-05");
  static final String SESSION_HEADER = "Mcp-Session-Id";
  static final String RATCHET_SESSION_HEADER = "ratchet-session";
  static final String VERSION_HEADER = "MCP-Protocol-Version";
  /** MCP sessions ended with DELETE that this process remembers, so their id answers 404 afterwards. */
  private static final int ENDED_REMEMBERED = 10_000;

  private final RatchetNode ratchet;
  private final ToolCallExchange calls;
  private final Set<String> ended = Collections.synchronizedSet(Collections.newSetFromMap(
      new LinkedHashMap<String, Boolean>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > ENDED_REMEMBERED;
        }
      }));

  /** The routes; a waiting call reports progress every {@code progressMillis} (http.mcpProgressMillis). */
  public McpRoutes(Vertx vertx, RatchetNode ratchet, SessionAccess access, long progressMillis) {
    this.ratchet = ratchet;
    this.calls = new ToolCallExchange(vertx, ratchet, access, new TurnGatherer(vertx, TurnGatherer.WAIT_MILLIS),
        progressMillis);
  }

  public void mount(Router router) {
    router.post("/mcp/:agent").handler(AuthHandler.require(Role.Permission.SUBMIT)).handler(this::post);
    router.delete("/mcp/:agent").handler(AuthHandler.require(Role.Permission.SUBMIT)).handler(this::delete);
    router.get("/mcp/:agent").handler(AuthHandler.require(Role.Permission.SUBMIT)).handler(ctx ->
        ctx.response().setStatusCode(405).putHeader("Allow", "POST, DELETE").end());
  }

  private void post(RoutingContext ctx) {
    String agent = ctx.pathParam("agent");
    ToolCatalog catalog = ratchet.queries().catalog(agent);
    if (catalog == null && !ratchet.ready()) {
      ctx.response().putHeader("Retry-After", Replies.RETRY_AFTER_SECONDS);
      httpError(ctx, 503, JsonRpc.error(null, JsonRpc.INTERNAL_ERROR, "this member is still loading its agents;"
          + " try again shortly", ErrorCode.NOT_READY.wireName()));
      return;
    }
    if (catalog == null) {
      httpError(ctx, 404, JsonRpc.error(null, JsonRpc.NOT_FOUND, "no agent named '" + agent + "'", "UNKNOWN_AGENT"));
      return;
    }
    Object parsed;
    try {
      parsed = Json.decodeValue(ctx.body().buffer() == null ? "" : ctx.body().asString());
    } catch (DecodeException e) {
      if (tooDeep(e)) {
        httpError(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "the message nests deeper than "
            + StreamReadConstraints.DEFAULT_MAX_DEPTH + " levels of objects and arrays; flatten the arguments",
            "INVALID_REQUEST"));
        return;
      }
      httpError(ctx, 400, JsonRpc.error(null, JsonRpc.PARSE_ERROR, "the body is not valid JSON", "INVALID_REQUEST"));
      return;
    }
    if (parsed instanceof JsonArray) {
      httpError(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
          "JSON-RPC batches are not accepted; send one message per request", "INVALID_REQUEST"));
      return;
    }
    if (!(parsed instanceof JsonObject) || !"2.0".equals(((JsonObject) parsed).getValue("jsonrpc"))) {
      httpError(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
          "the body must be one JSON-RPC 2.0 message: an object with \"jsonrpc\": \"2.0\"", "INVALID_REQUEST"));
      return;
    }
    JsonObject message = (JsonObject) parsed;
    Object method = message.getValue("method");
    boolean hasId = message.containsKey("id");
    if (method == null && (message.containsKey("result") || message.containsKey("error")) && hasId) {
      // a client's answer to a server request: this server sends none, so there is nothing to match
      ctx.response().setStatusCode(202).end();
      return;
    }
    if (!(method instanceof String)) {
      httpError(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "'method' must be a string", "INVALID_REQUEST"));
      return;
    }
    if (!hasId) {
      // notifications (initialized, cancelled) change nothing here: a cancelled call still runs to
      // its journaled end, as a durable call must
      ctx.response().setStatusCode(202).end();
      return;
    }
    Object id = message.getValue("id");
    if (!JsonRpc.validId(id)) {
      httpError(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "'id' must be a string or a number",
          "INVALID_REQUEST"));
      return;
    }
    Object params = message.getValue("params");
    if (params != null && !(params instanceof JsonObject)) {
      httpError(ctx, 400, JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "'params' must be an object", "INVALID_REQUEST"));
      return;
    }
    JsonObject p = params == null ? new JsonObject() : (JsonObject) params;
    String version = ctx.request().getHeader(VERSION_HEADER);
    // initialize negotiates the revision in its body; every later request names the one agreed
    if (!"initialize".equals(method) && version != null && !PROTOCOL_VERSIONS.contains(version)) {
      httpError(ctx, 400, JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "unsupported " + VERSION_HEADER + " '"
          + printable(version) + "'; this server speaks " + PROTOCOL_VERSIONS, "INVALID_REQUEST"));
      return;
    }
    String mcpSession = ctx.request().getHeader(SESSION_HEADER);
    if (!"initialize".equals(method) && mcpSession != null) {
      if (!Ids.valid(mcpSession)) {
        httpError(ctx, 400, JsonRpc.error(id, JsonRpc.INVALID_REQUEST, SESSION_HEADER + " must be 1-" + Ids.MAX_LENGTH
            + " characters of " + Ids.ALPHABET, "INVALID_ID"));
        return;
      }
      if (ended.contains(mcpSession)) {
        httpError(ctx, 404, JsonRpc.error(id, JsonRpc.NOT_FOUND, "this MCP session was ended; initialize a new one",
            "UNKNOWN_SESSION"));
        return;
      }
    }
    McpReply reply = new McpReply(ctx.response());
    switch ((String) method) {
      case "initialize" -> initialize(ctx, id, p, reply);
      case "ping" -> reply.answer(JsonRpc.result(id, new JsonObject()));
      case "tools/list" -> reply.answer(JsonRpc.result(id, toolsList(catalog)));
      case "tools/call" -> toolsCall(ctx, id, agent, p, mcpSession, reply);
      default -> reply.answer(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "method '" + printable((String) method)
          + "' is not served; this server offers tools only (initialize, ping, tools/list, tools/call)", null));
    }
  }

  private void initialize(RoutingContext ctx, Object id, JsonObject params, McpReply reply) {
    Object asked = params.getValue("protocolVersion");
    String version = asked instanceof String && PROTOCOL_VERSIONS.contains(asked) ? (String) asked
        : PROTOCOL_VERSIONS.get(0);
    String session = "mcp-" + UUID.randomUUID();
    ctx.response().putHeader(SESSION_HEADER, session);
    reply.answer(JsonRpc.result(id, new JsonObject()
        .put("protocolVersion", version)
        .put("capabilities", new JsonObject().put("tools", new JsonObject().put("listChanged", false)))
        .put("serverInfo", new JsonObject().put("name", "ratchet").put("version", version()))
        .put("instructions", "Every tools/call runs durably in a Ratchet session (the " + RATCHET_SESSION_HEADER
            + " header, else this MCP session). Writes may wait for a person's approval; a refused or failed"
            + " call comes back as an error result that says why and whether it is safe to call again.")));
  }

  private static JsonObject toolsList(ToolCatalog catalog) {
    JsonArray tools = new JsonArray();
    catalog.entries().forEach(e -> tools.add(McpShapes.tool(e)));
    return new JsonObject().put("tools", tools);
  }

  private void toolsCall(RoutingContext ctx, Object id, String agent, JsonObject params, String mcpSession,
                         McpReply reply) {
    String named = ctx.request().getHeader(RATCHET_SESSION_HEADER);
    String header = named != null ? RATCHET_SESSION_HEADER : SESSION_HEADER;
    String sessionId = named != null ? named : mcpSession;
    if (sessionId != null && !Ids.valid(sessionId)) {
      reply.answer(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, Ids.problem(header, sessionId).getMessage(), "INVALID_ID"));
      return;
    }
    Principal principal = AuthHandler.principal(ctx);
    String accept = ctx.request().getHeader("Accept");
    boolean sse = accept != null && accept.contains("text/event-stream");
    calls.handle(id, agent, new ToolCallExchange.Where(sessionId, named != null, ctx.request().getHeader("traceparent")),
        principal, params, reply, sse);
  }

  private void delete(RoutingContext ctx) {
    String session = ctx.request().getHeader(SESSION_HEADER);
    if (session == null || !Ids.valid(session)) {
      httpError(ctx, 400, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "DELETE needs the " + SESSION_HEADER
          + " to end", "INVALID_REQUEST"));
      return;
    }
    // the Ratchet session and its journal stay: only this MCP session's id stops being accepted
    ended.add(session);
    ctx.response().setStatusCode(200).end();
  }

  private static void httpError(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Cache-Control", "no-store").end(body.encode());
  }

  private static boolean tooDeep(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StreamConstraintsException && t.getMessage() != null && t.getMessage().contains("nesting depth")) {
        return true;
      }
    }
    return false;
  }

  private static String printable(String s) {
    String cut = s.length() > 64 ? s.substring(0, 64) + "…" : s;
    return cut.replaceAll("[^\\x20-\\x7e…]", "?");
  }

  private static String version() {
    String v = McpRoutes.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }
}
