package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.verticles.RatchetNode;
import dev.ratchet.verticles.RatchetOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starting a node: opens the journal and says how safe it keeps acknowledged steps, then starts
 * the approval listener, cluster membership, routing and the retention sweeper, and marks the
 * node ready unless {@link RatchetOptions#deferReady} asks to wait.
 */
final class NodeStart {

  private static final Logger LOG = LoggerFactory.getLogger(NodeStart.class);

  private NodeStart() {
  }

  static Future<RatchetNode> deploy(Vertx vertx, RatchetOptions options) {
    if ((options.redisUrl() == null || options.redisUrl().isBlank()) && options.redisTopology().endpoints().isEmpty()) {
      return Future.failedFuture(new IllegalArgumentException("a Redis URL is required (redis.url or RATCHET_REDIS_URL)"));
    }
    JournalOptions journalOptions;
    try {
      journalOptions = options.journalOptions();
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return RedisJournal.open(vertx, journalOptions).compose(journal -> {
      RatchetNodeImpl node = new RatchetNodeImpl(vertx, options, journal);
      return journal.diagnostics().persistence()
          .onSuccess(p -> {
            String replication = journal.replication().isEmpty() ? "" : "; " + journal.replication();
            if (!p.atRisk()) {
              LOG.info("journal at {}: {}{}", journal.describe(), p.describe(), replication);
            } else {
              LOG.warn("journal at {}: {}{}", journal.describe(), p.describe(), replication);
            }
          })
          .onFailure(err -> LOG.warn("journal at {}: could not find out whether Redis persists acknowledged steps"
              + " (CONFIG GET refused?): {}", journal.describe(), err.getMessage()))
          .otherwiseEmpty()
          // every node refuses forgotten sessions, whichever node's sweeper forgot them
          .compose(v -> options.retention().forgetAfter() == null ? Future.<Void>succeededFuture()
              : journal.retention().refuseForgotten())
          .compose(v -> warnOfTooFewReplicas(journal, journalOptions.waitReplicas()))
          .compose(v -> node.approvals.ready())
          .compose(v -> node.members.start())
          .compose(v -> node.router.start())
          .onSuccess(v -> {
            if (options.retention().enabled()) {
              node.sweeper.start();
            }
            node.agents.followMembers();
          })
          .compose(v -> options.deferReady() ? Future.succeededFuture() : node.markReady())
          .map(v -> (RatchetNode) node);
    });
  }

  /** Says at start-up when a master has fewer replicas than every step waits for: each step on it would fail. */
  private static Future<Void> warnOfTooFewReplicas(RedisJournal journal, int waitReplicas) {
    if (waitReplicas == 0) {
      return Future.succeededFuture();
    }
    return journal.diagnostics().fewestReplicas()
        .onSuccess(fewest -> {
          if (fewest < waitReplicas) {
            LOG.warn("journal.waitReplicas is {} but a master of the journal has {} replica(s) now: every step on it"
                + " fails with JOURNAL_NOT_REPLICATED until enough replicas keep up", waitReplicas, fewest);
          }
        })
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }
}
