package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.session.SessionManager;
import dev.ratchet.verticles.impl.cluster.ClusterMembers;
import dev.ratchet.verticles.impl.cluster.SessionRouter;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A member leaving a cluster that others stay in hands its sessions over rather than dropping
 * them: it takes no new session (its API is already stopped), and passes each session it runs to
 * the member placement gives it to once nothing of it is in flight. docs/ARCHITECTURE.md, "More
 * than one node".
 */
final class NodeDeparture {

  private static final Logger LOG = LoggerFactory.getLogger(NodeDeparture.class);

  private NodeDeparture() {
  }

  /** Leaves the cluster, waiting at most {@code timeoutMillis} for the sessions here to park. */
  static Future<Void> leave(ClusterMembers members, SessionManager sessions, SessionRouter router, long timeoutMillis) {
    members.leave();
    if (!members.clustered() || members.live().isEmpty() || timeoutMillis <= 0) {
      return Future.succeededFuture();
    }
    long started = System.currentTimeMillis();
    int running = sessions.active();
    AtomicInteger handedOver = new AtomicInteger();
    LOG.info("cluster: leaving; handing {} running session(s) over to {} as each parks", running, members.live());
    return sessions.leave(timeoutMillis, (sessionId, agent) -> router.handOver(agent, sessionId)
            .onSuccess(to -> handedOver.incrementAndGet())
            .onFailure(err -> LOG.warn("cluster: could not hand session {} over: {}; the others take it over"
                + " once this member has left", sessionId, err.getMessage())))
        .map(left -> {
          if (left > 0) {
            LOG.warn("cluster: {} session(s) still busy after {} ms (cluster.leaveTimeoutMillis); the others take"
                + " them over as after a crash", left, timeoutMillis);
          }
          LOG.info("cluster: left in {} ms: {} session(s) handed over, the idle ones passivated",
              System.currentTimeMillis() - started, handedOver.get());
          return null;
        });
  }
}
