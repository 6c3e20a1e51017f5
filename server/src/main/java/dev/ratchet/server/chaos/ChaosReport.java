package dev.ratchet.server.chaos;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The figures of a run and every rule it found broken (empty when the run held). */
public final class ChaosReport {
  public int kills;
  public int turns;
  public int calls;
  public final Map<String, Integer> outcomes = new LinkedHashMap<>();
  public final Map<String, Integer> byTool = new LinkedHashMap<>();
  public int nonIdempotentWrites;
  public int duplicateEffects;
  public int idempotentResends;
  public int idempotentKeyChanges;
  public int duplicateOutcomes;
  public int lostTurns;
  public int lostCalls;
  public int deliveredTurns;
  public int retrievedOnly;
  public int approvalsAsked;
  public int approvalsApproved;
  public int approvalsRejected;
  public int pendingLeft;
  public int outcomeUnknown;
  public int outcomeUnknownReachedProvider;
  public int skipped;
  public int submitErrors;
  public int resubmissions;
  public final List<Long> resumeMillis = new ArrayList<>();
  public final List<Long> recoveryMillis = new ArrayList<>();
  /** Clustered: from a node's kill until every session it ran with work in flight had a live owner. */
  public final List<Long> takeoverMillis = new ArrayList<>();
  public int nodes = 1;
  public long seed;
  public long wallMillis;
  public final List<String> violations = new ArrayList<>();

  public JsonObject toJson() {
    List<Long> resume = new ArrayList<>(resumeMillis);
    Collections.sort(resume);
    List<Long> recovery = new ArrayList<>(recoveryMillis);
    Collections.sort(recovery);
    return new JsonObject().put("kills", kills).put("turns", turns).put("calls", calls)
        .put("outcomes", new JsonObject(new HashMap<>(outcomes))).put("byTool", new JsonObject(new HashMap<>(byTool)))
        .put("nonIdempotentWrites", nonIdempotentWrites).put("duplicateEffects", duplicateEffects)
        .put("idempotentResends", idempotentResends).put("idempotentKeyChanges", idempotentKeyChanges)
        .put("duplicateOutcomes", duplicateOutcomes).put("lostTurns", lostTurns).put("lostCalls", lostCalls)
        .put("deliveredTurns", deliveredTurns).put("retrievedOnlyTurns", retrievedOnly)
        .put("approvalsAsked", approvalsAsked).put("approvalsApproved", approvalsApproved)
        .put("approvalsRejected", approvalsRejected).put("pendingApprovalsLeft", pendingLeft)
        .put("outcomeUnknown", outcomeUnknown).put("outcomeUnknownThatReachedProvider", outcomeUnknownReachedProvider)
        .put("skipped", skipped).put("submitErrors", submitErrors).put("resubmissions", resubmissions)
        .put("killToReadyMs", percentiles(resume)).put("recoveryMs", percentiles(recovery)).put("nodes", nodes)
        .put("takeoverMs", percentiles(sorted(takeoverMillis)))
        .put("seed", seed).put("wallSeconds", wallMillis / 1000.0).put("violations", new JsonArray(violations));
  }

  private static List<Long> sorted(List<Long> values) {
    List<Long> copy = new ArrayList<>(values);
    Collections.sort(copy);
    return copy;
  }

  private static JsonObject percentiles(List<Long> sorted) {
    if (sorted.isEmpty()) {
      return new JsonObject();
    }
    return new JsonObject().put("p50", sorted.get(sorted.size() / 2))
        .put("p95", sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.95) - 1)))
        .put("p99", sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1)))
        .put("max", sorted.get(sorted.size() - 1));
  }
}
