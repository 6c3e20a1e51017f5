package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.journal.LuaScripts.Script;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * The Redis journal's steps of decisions: approval requests and decisions (J5, rule 8), with the
 * inbox's index of pending approvals, and reconciliation of an {@code outcome_unknown} call.
 */
record RedisDecisionSteps(RedisConnections redis, JournalKeys keys) implements DecisionSteps {

  // ---------------------------------------------------------------- approvals

  /**
   * Journals an approval request (J5) and indexes it for the inbox. Answers the existing approval
   * status if the call already asked (for example before a restart), else "pending".
   */
  @Override
  public Future<String> approvalRequested(long epoch, ApprovalRequest request) {
    String sessionId = request.sessionId();
    String member = RedisQueries.approvalMember(sessionId, request.callId().value());
    return send(Request.cmd(Command.ZADD).arg(keys.pendingApprovals()).arg(request.requestedAt()).arg(member))
        .compose(v -> redis.run(Script.APPROVAL_REQUESTED,
            List.of(keys.meta(sessionId), keys.events(sessionId), keys.call(sessionId, request.callId().value())),
            List.of(String.valueOf(epoch), request.turnId(), request.callId().value(), request.toJson().encode(),
                request.argumentsHash(), String.valueOf(request.expiresAt()), String.valueOf(request.requestedAt()))))
        .map(r -> {
          String status = r.get(0).toString();
          if ("exists".equals(status)) {
            return r.get(1).toString();
          }
          return "done".equals(status) ? "decided" : "pending";
        });
  }

  /** Journals a decision after checking it (rule 8) and drops it from the inbox once decided. */
  @Override
  public Future<DecisionAnswer> approvalDecided(String sessionId, CallId callId, Verdict verdict) {
    String status = verdict.status();
    JsonObject editedArguments = verdict.editedArguments();
    return redis.run(Script.APPROVAL_DECIDED,
        List.of(keys.meta(sessionId), keys.events(sessionId), keys.call(sessionId, callId.value())),
        List.of(callId.value(), verdict.argumentsHash(), status, verdict.approver(),
            verdict.reason() == null ? "" : verdict.reason(), now(),
            editedArguments == null || !"approved".equals(status) ? "" : editedArguments.encode()))
        .compose(r -> {
          String answer = r.get(0).toString();
          DecisionAnswer decision;
          switch (answer) {
            case "ok":
              decision = DecisionAnswer.ACCEPTED;
              break;
            case "unknown_call":
              return Future.succeededFuture(DecisionAnswer.UNKNOWN_CALL);
            case "already_decided":
              decision = DecisionAnswer.ALREADY_DECIDED;
              break;
            case "stale":
              return Future.succeededFuture(DecisionAnswer.STALE);
            default:
              decision = DecisionAnswer.EXPIRED;
          }
          return send(Request.cmd(Command.ZREM).arg(keys.pendingApprovals())
              .arg(RedisQueries.approvalMember(sessionId, callId.value()))).map(decision);
        });
  }

  // ---------------------------------------------------------------- reconciliation

  /**
   * Records a person's finding for an {@code outcome_unknown} call. Fails with code
   * {@code UNKNOWN_CALL} or {@code NOT_UNKNOWN} when the call is not open to reconciliation.
   */
  @Override
  public Future<CallResult> reconcile(String sessionId, CallId callId, Outcome outcome, String who, String note) {
    if (outcome == Outcome.OUTCOME_UNKNOWN) {
      return Future.failedFuture(new RatchetException(ErrorCode.INVALID_REQUEST, "reconcile to succeeded or failed"));
    }
    return send(Request.cmd(Command.HMGET).arg(keys.call(sessionId, callId.value())).arg("record").arg("turn"))
        .compose(call -> {
          if (call.get(0) == null) {
            return Future.failedFuture(new RatchetException(ErrorCode.UNKNOWN_CALL, "no completed call " + callId
                + " in session " + sessionId));
          }
          CallResult r = CallResult.fromJson(new JsonObject(call.get(0).toString()));
          CallResult updated = new CallResult(r.index(), r.callId(), r.tool(), r.modelCallId(), r.effectClass(),
              outcome, r.result(), note == null ? r.error() : r.error() == null ? "reconciled: " + note
              : r.error() + " (reconciled: " + note + ")", r.attempts(), r.skipped(), r.truncated(), r.approval(),
              r.durationMillis(), who, r.approvalWaitMillis());
          JsonObject event = new JsonObject().put("outcome", outcome.wireName()).put("by", who).put("note", note);
          String turnId = call.get(1) == null ? "" : call.get(1).toString();
          return reconciledTurnKeys(sessionId, turnId).compose(turnKeys -> {
            List<String> keyList = new ArrayList<>(List.of(keys.meta(sessionId), keys.events(sessionId),
                keys.call(sessionId, callId.value())));
            List<String> args = new ArrayList<>(List.of(callId.value(), outcome.wireName(), updated.toJson().encode(),
                now(), event.encode()));
            if (turnKeys != null) {
              keyList.addAll(turnKeys.keys());
              args.add(turnKeys.head());
            }
            return redis.run(Script.CALL_RECONCILED, keyList, args);
          }).compose(resp -> {
            String answer = resp.get(0).toString();
            if ("ok".equals(answer)) {
              return Future.succeededFuture(updated);
            }
            if ("unknown_call".equals(answer)) {
              return Future.failedFuture(new RatchetException(ErrorCode.UNKNOWN_CALL, "no completed call " + callId));
            }
            return Future.failedFuture(new RatchetException(ErrorCode.NOT_UNKNOWN, "call " + callId + " ended "
                + resp.get(1) + "; only outcome_unknown calls can be reconciled"));
          });
        });
  }

  /** The call's turn and the calls of that turn, with the head of the turn's results. */
  private record TurnKeys(List<String> keys, String head) {
  }

  /**
   * What a reconciliation passes so that the call's turn keeps answering as it first did (null when
   * the call names no turn): read before the script, as a script must be given every key it touches.
   */
  private Future<TurnKeys> reconciledTurnKeys(String sessionId, String turnId) {
    if (turnId.isEmpty()) {
      return Future.succeededFuture(null);
    }
    return send(Request.cmd(Command.HGET).arg(keys.turn(sessionId, turnId)).arg("spec")).map(spec -> {
      if (spec == null) {
        return null;
      }
      List<String> turnKeys = new ArrayList<>();
      turnKeys.add(keys.turn(sessionId, turnId));
      turnKeys.addAll(keys.calls(sessionId, Turn.fromJson(new JsonObject(spec.toString()))));
      return new TurnKeys(turnKeys, RecordText.turnHead(sessionId, turnId, 0).toString());
    });
  }

  private Future<Response> send(Request request) {
    return redis.send(request);
  }

  private static String now() {
    return String.valueOf(System.currentTimeMillis());
  }
}
