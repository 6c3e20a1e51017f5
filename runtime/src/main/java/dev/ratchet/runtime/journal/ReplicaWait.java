package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.RatchetException;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code journal.waitReplicas}: a {@code WAIT} after a step's commands, in the same pipeline and so
 * on the same connection to the same master, and the check of its answer. {@code WAIT} counts the
 * replicas that hold everything that connection wrote, the step included; a step that fewer
 * replicas hold when the timeout passes fails with {@code JOURNAL_NOT_REPLICATED}. The step is
 * then on the master, as after any failure whose answer was lost, and may be lost in a failover.
 */
record ReplicaWait(int replicas, long timeoutMillis) {

  /** The wait the options ask for, or null when steps do not wait for replicas. */
  static ReplicaWait of(JournalOptions options) {
    return options.waitReplicas() > 0 ? new ReplicaWait(options.waitReplicas(), options.waitTimeoutMillis()) : null;
  }

  /** The pipeline with the {@code WAIT} after its commands. */
  List<Request> after(List<Request> requests) {
    List<Request> pipeline = new ArrayList<>(requests.size() + 1);
    pipeline.addAll(requests);
    pipeline.add(Request.cmd(Command.WAIT).arg(replicas).arg(timeoutMillis));
    return pipeline;
  }

  /** The replies of the step's own commands, once {@code WAIT} (the last reply) counted enough replicas. */
  Future<List<Response>> check(List<Response> replies) {
    long reached = replies.get(replies.size() - 1).toLong();
    if (reached < replicas) {
      return Future.failedFuture(new RatchetException(ErrorCode.JOURNAL_NOT_REPLICATED, "the step is on the Redis"
          + " master but " + reached + " of the " + replicas + " replica(s) journal.waitReplicas asks for held it"
          + " within " + timeoutMillis + " ms: a failover now could lose it"));
    }
    return Future.succeededFuture(replies.subList(0, replies.size() - 1));
  }

  /** What the start-up line says of it. */
  String describe() {
    return "every step waits until " + replicas + " replica(s) hold it (WAIT, at most " + timeoutMillis
        + " ms, else it fails with JOURNAL_NOT_REPLICATED): an acknowledged step survives a failover to a replica"
        + " that held it";
  }
}
