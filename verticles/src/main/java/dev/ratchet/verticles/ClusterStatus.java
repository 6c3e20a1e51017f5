package dev.ratchet.verticles;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * This node's view of its cluster: whether it runs clustered, its node id, the live members, the
 * sessions it runs now and how many sessions it took over from members that left.
 */
public record ClusterStatus(boolean clustered, String node, List<String> members, int ownedSessions,
                            long takeovers) {

  public JsonObject toJson() {
    return new JsonObject().put("clustered", clustered).put("node", node).put("members", new JsonArray(members))
        .put("ownedSessions", ownedSessions).put("takeovers", takeovers);
  }
}
