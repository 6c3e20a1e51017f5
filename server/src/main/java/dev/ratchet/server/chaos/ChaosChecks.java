package dev.ratchet.server.chaos;

import dev.ratchet.runtime.CallResult;
import dev.ratchet.runtime.EffectClass;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.IdempotencyKey;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.ToolCall;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.server.chaos.ChaosRun.Submitted;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The rules a chaos run holds the journal and the provider's counts to, after each kill and at the
 * end: no non-idempotent call took effect twice, no idempotent call was sent with two keys, one
 * {@code call.completed} step per call, no turn lost, results as delivered, outcomes as the provider
 * saw them, {@code outcome_unknown} only for a write in flight at a takeover, skips and approvals as
 * the turn rules say (docs/ARCHITECTURE.md). Each broken rule is a line of {@link ChaosReport#violations}.
 */
final class ChaosChecks {

  private final ChaosRun run;
  private final Set<String> inFlightAtTakeover = new java.util.HashSet<>();

  ChaosChecks(ChaosRun run) {
    this.run = run;
  }

  private void violation(String text) {
    if (run.report.violations.size() < 200) {
      run.report.violations.add(text);
    }
  }

  /** The provider's counts so far: one effect per non-idempotent call, one key per idempotent call. */
  void effects(ChaosProvider provider, String when) {
    provider.nonIdempotentEffects.forEach((call, n) -> {
      if (n.get() > 1) {
        violation(when + ": non-idempotent call " + call + " took effect " + n.get() + " times");
      }
    });
    provider.keysByCall.forEach((call, keys) -> {
      if (keys.size() > 1) {
        violation(when + ": idempotent call " + call + " was sent with " + keys.size() + " different keys");
      }
    });
  }

  /** Every rule, on every submitted turn, once the run has drained. */
  void all(RedisJournal journal, ChaosProvider provider) {
    effects(provider, "at the end");
    run.report.turns = run.submitted.size();
    for (Map.Entry<String, AtomicInteger> e : provider.nonIdempotentEffects.entrySet()) {
      if (e.getValue().get() > 1) {
        run.report.duplicateEffects += e.getValue().get() - 1;
      }
    }
    for (Set<String> keys : provider.keysByCall.values()) {
      run.report.idempotentKeyChanges += keys.size() - 1;
    }
    for (AtomicInteger n : provider.idempotentRequests.values()) {
      run.report.idempotentResends += Math.max(0, n.get() - 1);
    }
    Set<String> sessions = new java.util.TreeSet<>();
    run.submitted.values().forEach(s -> sessions.add(s.sessionId()));
    // J1: exactly one call.completed step per call; and which calls were in flight when their session was taken over
    for (String sessionId : sessions) {
      Map<String, Integer> completions = new HashMap<>();
      Set<String> started = new java.util.HashSet<>();
      String after = null;
      while (true) {
        List<JsonObject> events = journal.queries().events(sessionId, after, 1000).await();
        for (JsonObject e : events) {
          String type = e.getString("type");
          String call = e.getString("call");
          if (EventType.CALL_COMPLETED.wireName().equals(type)) {
            completions.merge(call, 1, Integer::sum);
            started.remove(call);
          } else if (EventType.CALL_STARTED.wireName().equals(type)) {
            started.add(call);
          } else if (EventType.SESSION_CLAIMED.wireName().equals(type)) {
            inFlightAtTakeover.addAll(started);
          }
        }
        if (events.size() < 1000) {
          break;
        }
        after = events.get(events.size() - 1).getString("id");
      }
      completions.forEach((call, n) -> {
        if (n > 1) {
          run.report.duplicateOutcomes += n - 1;
          violation("call " + call + " of session " + sessionId + " has " + n + " call.completed steps");
        }
      });
    }
    for (Submitted s : run.submitted.values()) {
      TurnResult result = journal.turnResult(s.sessionId(), s.turn().turnId()).await();
      run.report.calls += s.turn().calls().size();
      if (result == null) {
        run.report.lostTurns++;
        run.report.lostCalls += s.turn().calls().size();
        violation("turn " + s.id() + " has no results in the journal"
            + (run.accepted.contains(s.id()) ? " (it was accepted)" : " (never accepted)"));
        continue;
      }
      JsonObject seen = run.delivered.get(s.id());
      if (seen != null) {
        run.report.deliveredTurns++;
        if (!seen.equals(result.toJson())) {
          violation("turn " + s.id() + " was delivered with results other than the journaled ones");
        }
      } else {
        run.report.retrievedOnly++;
      }
      verifyTurn(s, result, provider);
    }
    run.report.pendingLeft = journal.queries().pendingApprovals(1000).await().size();
    if (run.report.pendingLeft > 0) {
      violation(run.report.pendingLeft + " approval(s) still pending after the drain");
    }
  }

  private void verifyTurn(Submitted s, TurnResult result, ChaosProvider provider) {
    List<ToolCall> calls = s.turn().calls();
    if (result.calls().size() != calls.size()) {
      violation("turn " + s.id() + " has " + result.calls().size() + " results for " + calls.size() + " calls");
      return;
    }
    boolean writeStopped = false;
    for (int i = 0; i < calls.size(); i++) {
      ToolCall call = calls.get(i);
      CallResult r = result.calls().get(i);
      String where = "turn " + s.id() + " call " + i + " (" + call.name() + ")";
      String callId = s.turn().callId(s.sessionId(), i).value();
      run.report.outcomes.merge(r.outcome().wireName() + (r.skipped() ? " (skipped)" : ""), 1, Integer::sum);
      run.report.byTool.merge(call.name(), 1, Integer::sum);
      if (!r.callId().value().equals(callId) || r.index() != i || !r.tool().equals(call.name())) {
        violation(where + ": result out of order or for another call");
      }
      boolean write = r.effectClass() != EffectClass.READ;
      boolean nonIdempotent = r.effectClass() == EffectClass.NON_IDEMPOTENT_WRITE;
      int effects = nonIdempotent ? ChaosProvider.count(provider.nonIdempotentEffects, callId)
          : r.effectClass() == EffectClass.IDEMPOTENT_WRITE
          ? ChaosProvider.count(provider.idempotentEffects, IdempotencyKey.of(r.callId(), call.arguments()).value())
          : -1;
      if (nonIdempotent) {
        run.report.nonIdempotentWrites++;
      }
      if (r.skipped()) {
        run.report.skipped++;
        if (!writeStopped) {
          violation(where + ": skipped although no earlier write of its turn failed");
        }
        if (effects > 0) {
          violation(where + ": skipped but the provider saw its effect");
        }
      }
      if (r.outcome() == Outcome.OUTCOME_UNKNOWN) {
        run.report.outcomeUnknown++;
        if (!write) {
          violation(where + ": a read ended outcome_unknown");
        } else if (!inFlightAtTakeover.contains(callId)) {
          violation(where + ": outcome_unknown but it was not in flight when its runtime was killed: " + r.error());
        }
        if (effects > 0 || ChaosProvider.count(provider.idempotentRequests,
            IdempotencyKey.of(r.callId(), call.arguments()).value()) > 0) {
          run.report.outcomeUnknownReachedProvider++;
        }
      }
      if (write && r.outcome() == Outcome.SUCCEEDED && effects != 1) {
        violation(where + ": succeeded but the provider counted " + effects + " effect(s)");
      }
      if (write && r.outcome() == Outcome.FAILED && effects != 0) {
        violation(where + ": failed but the provider counted " + effects + " effect(s)");
      }
      boolean failFlag = call.arguments().getBoolean("fail", false);
      if (r.outcome() == Outcome.SUCCEEDED && failFlag) {
        violation(where + ": succeeded although the provider refuses it");
      }
      if (call.name().equals("charge_approved") && !r.skipped()) {
        run.report.approvalsAsked++;
        Boolean decided = run.decisions.get(callId);
        if (r.approval() == null || decided == null) {
          violation(where + ": ran or ended without an approval decision");
        } else if (decided != r.approval().approved() || !"chaos".equals(r.approval().approver())) {
          violation(where + ": its approval record does not match the decision taken");
        } else if (decided) {
          run.report.approvalsApproved++;
        } else {
          run.report.approvalsRejected++;
          if (effects != 0 || r.outcome() != Outcome.FAILED) {
            violation(where + ": rejected but ended " + r.outcome() + " with " + effects + " effect(s)");
          }
        }
      }
      if (write && r.outcome() != Outcome.SUCCEEDED && !r.skipped()) {
        writeStopped = true;
      }
    }
  }
}
