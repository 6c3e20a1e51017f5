package dev.ratchet.runtime.journal;

import io.vertx.redis.client.Request;
import io.vertx.redis.client.impl.CommandImpl;
import io.vertx.redis.client.impl.RequestImpl;
import io.vertx.redis.client.impl.ZModem;

import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline cut into pieces that a Redis Cluster accepts: runs of consecutive commands on one
 * hash slot (a command without a key joins the run it is in), in the pipeline's order. A session's
 * keys share a slot, so its commands stay one run; the global indexes ({@code <prefix>:active},
 * {@code :sessions}, {@code :approvals}, ...) each have a slot of their own. Slots and keys are
 * found the way Vert.x's cluster client finds them when it routes a command.
 */
final class SlotRuns {

  private SlotRuns() {
  }

  static List<List<Request>> of(List<Request> requests) {
    List<List<Request>> runs = new ArrayList<>();
    List<Request> run = null;
    int runSlot = -1;
    for (Request request : requests) {
      int slot = slot(request);
      if (run != null && (slot == -1 || runSlot == -1 || slot == runSlot)) {
        run.add(request);
        runSlot = runSlot == -1 ? slot : runSlot;
        continue;
      }
      run = new ArrayList<>();
      run.add(request);
      runs.add(run);
      runSlot = slot;
    }
    return runs;
  }

  /** The slot of a command's first key, or -1 for a command without keys. */
  static int slot(Request request) {
    List<byte[]> keys = ((RequestImpl) request).keys();
    return keys.isEmpty() ? -1 : ZModem.generate(keys.get(0));
  }

  /** Whether the command may change data (scripts do), so that a WAIT must follow it. */
  static boolean writes(Request request) {
    RequestImpl req = (RequestImpl) request;
    return !((CommandImpl) req.command()).isReadOnly(req.getArgs());
  }

  static boolean anyWrites(List<Request> requests) {
    for (Request r : requests) {
      if (writes(r)) {
        return true;
      }
    }
    return false;
  }
}
