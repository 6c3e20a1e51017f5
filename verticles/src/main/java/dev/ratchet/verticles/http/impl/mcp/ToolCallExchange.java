package dev.ratchet.verticles.http.impl.mcp;

import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Ids;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.StepEvents;
import dev.ratchet.verticles.http.impl.Principal;
import dev.ratchet.verticles.http.impl.SessionAccess;
import dev.ratchet.verticles.impl.ErrorCodes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.UUID;

/**
 * One {@code tools/call}: runs the call durably in the caller's Ratchet session, alone as its own
 * turn (named by the client's call id when it sends one, see {@link McpShapes#CALL_ID_KEYS}) or
 * gathered with the other calls of its model response ({@code _meta} turn, index, count), and
 * answers with its record. While it waits for a person's approval the SSE stream stays open
 * and, when the client sent a {@code progressToken}, carries {@code notifications/progress}.
 */
record ToolCallExchange(Vertx vertx, RatchetNode ratchet, SessionAccess access, TurnGatherer gatherer,
                        long progressMillis) {

  private static final Logger LOG = LoggerFactory.getLogger(ToolCallExchange.class);
  /** The largest count a client may announce; the engine's own limit on calls per turn applies after. */
  private static final int MAX_COUNT = 1_024;

  /**
   * Where a call belongs: its turn and its place in it, from {@code _meta} or fresh; {@code named}
   * is the {@code _meta} key the turn id comes from, null for a fresh one.
   */
  private record Placement(String turnId, int index, int count, String named) {

    /** Whether a client named the turn, so that a resend of it is answered from the journal. */
    boolean gathered() {
      return named != null;
    }
  }

  /**
   * The session a request names: the {@code ratchet-session} header ({@code named}), else its
   * {@code Mcp-Session-Id}, else none.
   */
  record Where(String sessionId, boolean named, String traceparent) {
  }

  void handle(Object id, String agent, Where where, Principal principal, JsonObject params, McpReply reply,
              boolean sse) {
    Object name = params.getValue("name");
    Object arguments = params.getValue("arguments");
    Object meta = params.getValue("_meta");
    if (!(name instanceof String) || ((String) name).isEmpty()) {
      reply.answer(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "tools/call needs 'name', the tool's name", "INVALID_REQUEST"));
      return;
    }
    if (arguments != null && !(arguments instanceof JsonObject)) {
      reply.answer(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "'arguments' must be a JSON object", "INVALID_REQUEST"));
      return;
    }
    if (meta != null && !(meta instanceof JsonObject)) {
      reply.answer(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "'_meta' must be a JSON object", "INVALID_REQUEST"));
      return;
    }
    JsonObject m = meta == null ? new JsonObject() : (JsonObject) meta;
    Placement placement;
    try {
      placement = placement(m);
    } catch (RatchetException e) {
      reply.answer(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, e.getMessage(), e.code()));
      return;
    }
    int maxCalls = ratchet.options().engine().maxCallsPerTurn();
    if (placement.count() > maxCalls) {
      // refused before any call waits for the others: the engine would refuse the gathered turn anyway
      reply.answer(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "'_meta." + McpShapes.META_COUNT + "' is "
          + placement.count() + "; at most " + maxCalls + " calls are allowed in one turn (engine.maxCallsPerTurn)",
          ErrorCode.TOO_MANY_CALLS.wireName()));
      return;
    }
    if (where.sessionId() == null && !placement.gathered()) {
      reply.answer(JsonRpc.error(id, JsonRpc.INVALID_REQUEST, "a call runs in a session: send the Mcp-Session-Id"
          + " that initialize gave, a ratchet-session header, or a dev.ratchet/turn (or the client's call id)"
          + " in _meta", "INVALID_REQUEST"));
      return;
    }
    Object progressToken = m.getValue("progressToken");
    // the W3C header of the request, else the one MCP clients put in _meta (docs/OBSERVABILITY.md)
    String traceparent = Turn.validTraceparent(where.traceparent()) != null ? where.traceparent()
        : m.getValue("traceparent") instanceof String t ? t : null;
    ToolCall call = new ToolCall((String) name, (JsonObject) arguments);
    sessionOf(agent, where, principal, placement).compose(sessionId -> access.mayUse(principal, sessionId)
        .map(sessionId)).onComplete(allowed -> {
      if (allowed.failed()) {
        reply.answer(error(id, allowed.cause()));
        return;
      }
      String sessionId = allowed.result();
      if (sse) {
        reply.stream();
      }
      Waiting waiting = new Waiting(sessionId, placement, (String) name,
          JsonRpc.validId(progressToken) ? progressToken : null, reply);
      run(agent, sessionId, principal, placement, call, traceparent)
          .recover(err -> access.edgeError(principal, sessionId, err).compose(Future::failedFuture))
          .onComplete(ar -> {
            waiting.stop();
            reply.answer(ar.succeeded() ? JsonRpc.result(id, McpShapes.result(sessionId, placement.turnId(), ar.result()))
                : error(id, ar.cause()));
          });
    });
  }

  /**
   * The session the call runs in. A turn id without a {@code ratchet-session} header is kept per
   * caller and agent: its first call places it in the request's MCP session (or a new one), and
   * every later request for it, from any MCP session or none, joins that session, so a client that
   * restarted and resends its turn never runs a write twice (rule 1).
   */
  private Future<String> sessionOf(String agent, Where where, Principal principal, Placement placement) {
    if (where.named() || !placement.gathered()) {
      return Future.succeededFuture(where.sessionId());
    }
    String fresh = where.sessionId() != null ? where.sessionId() : "mcp-" + UUID.randomUUID();
    return ratchet.journal().turnHome(principal.callerId(), agent, placement.turnId(), fresh);
  }

  private Future<CallResult> run(String agent, String sessionId, Principal principal, Placement placement,
                                 ToolCall call, String traceparent) {
    if (!placement.gathered()) {
      return submit(agent, sessionId, principal, new Turn(placement.turnId(), java.util.List.of(call), traceparent))
          .map(r -> r.call(0));
    }
    // a turn that already ran is answered from the journal: a client retrying after its own crash
    // gets the record the turn has, and nothing is sent again (rule 1)
    return ratchet.journal().turnResult(sessionId, placement.turnId()).compose(done -> {
      if (done != null) {
        return ratchet.journal().submittedTurn(sessionId, placement.turnId())
            .compose(submitted -> fromJournal(done, submitted, placement, call));
      }
      String key = principal.callerId() + "\n" + agent + "\n" + sessionId + "\n" + placement.turnId();
      return gatherer.join(key, placement.turnId(), placement.index(), placement.count(), call, traceparent,
          turn -> submit(agent, sessionId, principal, turn));
    });
  }

  /** The journaled record of a call of a completed turn, when the turn was submitted with this very call. */
  private static Future<CallResult> fromJournal(TurnResult done, Turn submitted, Placement placement, ToolCall call) {
    boolean same = done.calls().size() == placement.count() && submitted != null
        && submitted.calls().size() == placement.count()
        && submitted.calls().get(placement.index()).name().equals(call.name())
        && submitted.calls().get(placement.index()).arguments().equals(call.arguments());
    if (!same) {
      return Future.failedFuture(new RatchetException(ErrorCode.TURN_ID_REUSED, "turn '" + placement.turnId()
          + "' already ran with other calls (" + done.calls().size() + " calls; index " + placement.index()
          + (placement.index() < done.calls().size() ? " was " + done.call(placement.index()).tool()
          + " with its own arguments" : " is not one") + "); a new "
          + (McpShapes.META_TURN.equals(placement.named()) ? "model response" : "call") + " needs a new "
          + placement.named()));
    }
    return Future.succeededFuture(done.call(placement.index()));
  }

  private Future<TurnResult> submit(String agent, String sessionId, Principal principal, Turn turn) {
    return ratchet.submit(TurnRequest.of(agent, sessionId, turn).callerId(principal.callerId())
        .creator(principal.name()));
  }

  private static Placement placement(JsonObject meta) {
    Object turn = meta.getValue(McpShapes.META_TURN);
    Object index = meta.getValue(McpShapes.META_INDEX);
    Object count = meta.getValue(McpShapes.META_COUNT);
    if (turn == null && index == null && count == null) {
      String callKey = McpShapes.callIdKey(meta);
      if (callKey == null) {
        return new Placement("mcp-" + UUID.randomUUID(), 0, 1, null);
      }
      Object callId = meta.getValue(callKey);
      if (!(callId instanceof String) || ((String) callId).isEmpty()) {
        throw invalid("'_meta." + callKey + "' must be the model's id of the tool call, a non-empty string");
      }
      // a one-call turn named by the model's call id, as every Ratchet client names it (docs/ADAPTERS.md, Turn ids)
      return new Placement(Ids.turnOfCalls(List.of((String) callId)), 0, 1, callKey);
    }
    if (!(turn instanceof String)) {
      throw invalid("'_meta." + McpShapes.META_TURN + "' must be the turn id, a string, when "
          + McpShapes.META_INDEX + " or " + McpShapes.META_COUNT + " is given");
    }
    RatchetException badId = Ids.problem("_meta." + McpShapes.META_TURN, (String) turn);
    if (badId != null) {
      throw badId;
    }
    if (!(count instanceof Integer) || (Integer) count < 1 || (Integer) count > MAX_COUNT) {
      throw invalid("'_meta." + McpShapes.META_COUNT + "' must be the number of calls in the model response,"
          + " 1-" + MAX_COUNT);
    }
    if (!(index instanceof Integer) || (Integer) index < 0 || (Integer) index >= (Integer) count) {
      throw invalid("'_meta." + McpShapes.META_INDEX + "' must be the call's 0-based place in the model response,"
          + " 0-" + ((Integer) count - 1));
    }
    return new Placement((String) turn, (Integer) index, (Integer) count, McpShapes.META_TURN);
  }

  private static RatchetException invalid(String message) {
    return new RatchetException(ErrorCode.INVALID_REQUEST, message);
  }

  /** A refusal as a JSON-RPC error: a session of another caller reads exactly like a missing one. */
  static JsonObject error(Object id, Throwable err) {
    String code = ErrorCodes.code(err);
    if (RatchetException.is(err, ErrorCode.TURN_INCOMPLETE)) {
      return JsonRpc.error(id, JsonRpc.TURN_INCOMPLETE, err.getMessage(), code);
    }
    if (RatchetException.is(err, ErrorCode.JOURNAL_UNAVAILABLE) || RatchetException.is(err, ErrorCode.FENCED)) {
      LOG.warn("mcp tools/call: {}", err.getMessage());
      return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "the journal is unavailable; try again later",
          ErrorCode.JOURNAL_UNAVAILABLE.name());
    }
    int status = ErrorCodes.status(err);
    if (status == 500) {
      LOG.error("mcp tools/call failed", err);
      return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "the call failed; see the server log", "INTERNAL");
    }
    return JsonRpc.error(id, status == 403 || status == 404 ? JsonRpc.NOT_FOUND : JsonRpc.INVALID_PARAMS,
        err.getMessage(), code);
  }

  /** Watches the session's events for this call's approval and keeps the client informed meanwhile. */
  private final class Waiting {
    private final String callId;
    private final String tool;
    private final Object progressToken;
    private final McpReply reply;
    private final MessageConsumer<JsonObject> events;
    private final long timer;
    private int progress;
    private String status;

    Waiting(String sessionId, Placement placement, String tool, Object progressToken, McpReply reply) {
      this.callId = CallId.of(sessionId, placement.turnId(), placement.index()).value();
      this.tool = tool;
      this.progressToken = progressToken;
      this.reply = reply;
      this.status = running();
      this.events = StepEvents.consumer(vertx, sessionId, msg -> onEvent(msg.body()));
      // progress resets the timeout of clients that allow it, for a slow tool as for an approval
      this.timer = vertx.setPeriodic(progressMillis, t -> report());
    }

    private void onEvent(JsonObject event) {
      if (!callId.equals(event.getString("callId"))) {
        return;
      }
      String type = event.getString("type");
      JsonObject data = event.getJsonObject("data", new JsonObject());
      if (EventType.APPROVAL_REQUESTED.wireName().equals(type)) {
        status = "waiting for a person to approve " + tool + " (call " + callId + ")";
        report();
      } else if (EventType.APPROVAL_DECIDED.wireName().equals(type)) {
        status = tool + " " + data.getString("status", "decided") + (data.getString("approver") == null ? ""
            : " by " + data.getString("approver"));
        report();
        status = running();
      }
    }

    private void report() {
      if (progressToken == null) {
        reply.keepAlive();
        return;
      }
      progress++;
      reply.notify(JsonRpc.notification("notifications/progress", new JsonObject()
          .put("progressToken", progressToken).put("progress", progress).put("message", status)));
    }

    private String running() {
      return tool + " is running (call " + callId + ")";
    }

    void stop() {
      vertx.cancelTimer(timer);
      events.unregister();
    }
  }
}
