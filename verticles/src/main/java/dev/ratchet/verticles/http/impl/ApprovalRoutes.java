package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.DecisionResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.http.Role;
import dev.ratchet.verticles.impl.EdgeRules;
import dev.ratchet.verticles.impl.ErrorCodes;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The approvals inbox: {@code GET /api/approvals} and
 * {@code POST /api/approvals/:sessionId/:callId {argumentsHash, approved, reason, arguments?}}
 * ({@code arguments}: the edited arguments of an approval, for a tool that allows edits). The
 * approver is always the caller's own name.
 */
public record ApprovalRoutes(RatchetNode ratchet, RatchetMetrics metrics, SessionAccess access, boolean fourEyes) {

  /** Most requests one answer lists (an operator's: the oldest across every tenant). */
  static final int MAX_SHOWN = 1_000;
  /**
   * Most pending requests read, oldest first, to find those of a principal limited to some
   * tenants, so that other tenants' requests cannot push its own out of the first {@value #MAX_SHOWN}.
   */
  static final int MAX_SCANNED = 5_000;

  public void mount(Router router) {
    router.get("/api/approvals").handler(AuthHandler.require(Role.Permission.READ)).handler(this::list);
    router.post("/api/approvals/:sessionId/:callId").handler(AuthHandler.require(Role.Permission.DECIDE))
        .handler(this::decide);
  }

  private void list(RoutingContext ctx) {
    inbox(AuthHandler.principal(ctx)).onComplete(Replies.ok(ctx));
  }

  /**
   * The principal's inbox: {@code {"approvals": [...]}}, oldest first, each request with its
   * {@link ApprovalContext context}; the same answer for {@code GET /api/approvals} and the inbox stream.
   */
  public Future<JsonObject> inbox(Principal principal) {
    Tenants tenants = principal.tenants();
    Future<List<ApprovalRequest>> pending = tenants.all() ? ratchet.pendingApprovals()
        : ratchet.journal().pendingApprovals(MAX_SCANNED).compose(all -> visible(tenants, all));
    return pending.compose(all -> {
      if (tenants.all()) {
        // the gauge counts every tenant's approvals: only an unfiltered list may set it
        metrics.pendingApprovals(all.size());
      }
      List<ApprovalRequest> shown = all.size() > MAX_SHOWN ? all.subList(0, MAX_SHOWN) : all;
      return ApprovalContext.of(ratchet, shown);
    }).map(list -> new JsonObject().put("approvals", new JsonArray(new ArrayList<>(list))));
  }

  /** The requests of sessions the principal sees; one metadata read per distinct session. */
  private Future<List<ApprovalRequest>> visible(Tenants tenants, List<ApprovalRequest> all) {
    Map<String, Future<JsonObject>> infos = new LinkedHashMap<>();
    for (ApprovalRequest r : all) {
      infos.computeIfAbsent(r.sessionId(), id -> ratchet.journal().sessionInfo(id));
    }
    return Future.all(new ArrayList<>(infos.values())).map(cf -> {
      List<ApprovalRequest> mine = new ArrayList<>();
      for (ApprovalRequest r : all) {
        JsonObject info = infos.get(r.sessionId()).result();
        if (SessionAccess.exists(info) && tenants.sees(SessionAccess.caller(info))) {
          mine.add(r);
        }
      }
      return mine;
    });
  }

  private void decide(RoutingContext ctx) {
    String sessionId = ctx.pathParam("sessionId");
    String callId = ctx.pathParam("callId");
    ApprovalDecision decision;
    try {
      JsonObject body = Replies.body(ctx);
      Object hash = body.getValue("argumentsHash");
      if (!(hash instanceof String) || ((String) hash).isBlank()) {
        throw Replies.invalid("'argumentsHash' must be the hash of the arguments you were shown");
      }
      Object approved = body.getValue("approved");
      if (!(approved instanceof Boolean)) {
        throw Replies.invalid("'approved' must be true or false");
      }
      String reason = EdgeRules.reason(body.getValue("reason"), (Boolean) approved);
      Object arguments = body.getValue("arguments");
      if (arguments != null && !(arguments instanceof JsonObject)) {
        throw Replies.invalid("'arguments' must be a JSON object: the edited arguments");
      }
      if (arguments != null && !((Boolean) approved)) {
        throw Replies.invalid("'arguments' (edited arguments) may only come with approved: true");
      }
      // the approver is who is logged in; a name in the body is ignored
      decision = new ApprovalDecision(sessionId, new CallId(callId), (String) hash, (Boolean) approved,
          AuthHandler.principal(ctx).name(), reason, (JsonObject) arguments);
    } catch (RatchetException e) {
      Replies.fail(ctx, e);
      return;
    }
    long started = System.nanoTime();
    Principal principal = AuthHandler.principal(ctx);
    access.visible(principal, sessionId).compose(info -> {
      if (fourEyes && principal.name().equals(info.getString("creator"))) {
        return Future.failedFuture(new RatchetException(ErrorCode.FOUR_EYES, "four-eyes rule (http.fourEyes): '"
            + principal.name() + "' created this session and may not decide its writes; another approver must"));
      }
      return ratchet.decide(decision);
    }).onComplete(ar -> {
      if (ar.failed()) {
        Replies.fail(ctx, ar.cause());
      } else if (ar.result() != DecisionResult.ACCEPTED) {
        Replies.fail(ctx, ErrorCodes.refusal(ar.result()));
      } else {
        metrics.journalAppend("decide", System.nanoTime() - started);
        JsonObject answer = new JsonObject().put("status", decision.approved() ? "approved" : "rejected")
            .put("sessionId", sessionId).put("callId", callId).put("approver", decision.approver());
        if (decision.edited()) {
          answer.put("edited", true);
        }
        Replies.json(ctx, 200, answer);
      }
    });
  }
}
