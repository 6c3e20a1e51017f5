package dev.ratchet.turns.testing;

import dev.ratchet.runtime.ApprovalDecision;
import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.turns.RatchetTurns;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Vertx;

import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * A real Ratchet on a real Redis with the {@link Shop} agent registered, and what a person does in
 * the dashboard: wait for a write's approval request and decide it.
 */
public final class EmbeddedShop implements AutoCloseable {

  private final Vertx vertx;
  private final RatchetNode ratchet;

  private EmbeddedShop(Vertx vertx, RatchetNode ratchet) {
    this.vertx = vertx;
    this.ratchet = ratchet;
  }

  public static EmbeddedShop start(String redisUrl, String keyPrefix, String providerUrl, String nodeId) {
    Vertx vertx = Vertx.vertx();
    RatchetNode ratchet = await(RatchetNode.deploy(vertx, RatchetOptions.create().redisUrl(redisUrl).keyPrefix(keyPrefix)
        .nodeId(nodeId)));
    await(ratchet.register(Shop.agent(vertx, providerUrl)));
    return new EmbeddedShop(vertx, ratchet);
  }

  public Vertx vertx() {
    return vertx;
  }

  public RatchetNode ratchet() {
    return ratchet;
  }

  /** The shop agent, its sessions those of {@code caller}. */
  public RatchetTurns turns(String caller) {
    return RatchetTurns.embedded(ratchet, Shop.AGENT, caller);
  }

  /** Waits for the approval request of a call of {@code tool} in the session. */
  public ApprovalRequest awaitApproval(String sessionId, String tool, int seconds) {
    long deadline = System.currentTimeMillis() + seconds * 1000L;
    while (System.currentTimeMillis() < deadline) {
      List<ApprovalRequest> pending = await(ratchet.pendingApprovals());
      for (ApprovalRequest r : pending) {
        if (r.sessionId().equals(sessionId) && r.tool().equals(tool)) {
          return r;
        }
      }
      sleep(50);
    }
    throw new AssertionError("no approval request for " + tool + " in " + sessionId + " within " + seconds + " s");
  }

  public void approve(ApprovalRequest request, String approver, String reason) {
    await(ratchet.decide(ApprovalDecision.approve(request, approver, reason)));
  }

  public void reject(ApprovalRequest request, String approver, String reason) {
    await(ratchet.decide(ApprovalDecision.reject(request, approver, reason)));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() {
    await(ratchet.close());
    await(vertx.close());
  }
}
