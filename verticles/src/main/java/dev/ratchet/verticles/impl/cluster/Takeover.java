package dev.ratchet.verticles.impl.cluster;

import dev.ratchet.runtime.journal.JournalQueries;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Which sessions with work in flight this node should resume. Alone, all of them, as after a
 * restart. In a cluster, only those whose owner (as the journal names it) is not a live member,
 * that {@link Placement} gives to this node, and that have a turn in flight or an open round of
 * the agent loop: a session a live node runs is never claimed from it, a dead node's sessions are
 * spread over the survivors, and one with nothing to resume is claimed only when it is next used.
 * A session this node runs itself is among them when the journal names another owner: that copy
 * lost the session to a newer claim and is replaced by a fresh one. Claiming is safe even when membership
 * is wrong for a moment (a node that is slow, not dead): the claim's new fencing epoch stops the
 * earlier owner from journaling or sending anything more.
 */
public final class Takeover {

  /** How often a clustered node looks for sessions without a live owner, besides when members leave. */
  public static final long SWEEP_MILLIS = 5_000;
  /** Session metadata read per round of the look-up. */
  static final int WINDOW = 256;

  private Takeover() {
  }

  public static Future<List<String>> claimable(JournalQueries journal, ClusterMembers members, List<String> ids) {
    if (!members.clustered() || ids.isEmpty()) {
      return Future.succeededFuture(ids);
    }
    List<String> mine = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (int from = 0; from < ids.size(); from += WINDOW) {
      List<String> part = ids.subList(from, Math.min(ids.size(), from + WINDOW));
      chain = chain.compose(v -> {
        List<Future<JsonObject>> infos = new ArrayList<>();
        part.forEach(id -> infos.add(journal.sessionInfo(id)));
        return Future.all(infos).map(all -> {
          for (int i = 0; i < part.size(); i++) {
            String owner = all.<JsonObject>resultAt(i).getString("owner");
            if (!members.isLive(owner) && members.self().equals(Placement.owner(part.get(i), members.live()))) {
              mine.add(part.get(i));
            }
          }
          return null;
        });
      });
    }
    return chain.compose(v -> mine.isEmpty() ? Future.succeededFuture(mine) : journal.withWorkInFlight(mine));
  }
}
