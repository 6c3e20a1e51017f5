package dev.ratchet.verticles.impl.cluster;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The live Ratchet members of the Vert.x cluster this node belongs to: the cluster manager's nodes
 * that serve Ratchet's event-bus API (a JVM that joined the cluster only to send it messages is
 * not one). The manager's own node listener belongs to Vert.x's event bus, so membership is read by
 * polling {@link ClusterManager#getNodes()} and the API's registrations: a change is noticed within
 * {@link #POLL_MILLIS} of the manager noticing it. On a node that is not clustered, the only member
 * is the node itself.
 */
public final class ClusterMembers {

  static final long POLL_MILLIS = 250;

  private final Vertx vertx;
  private final ClusterManager manager;
  private final String self;
  private final String apiAddress;
  private volatile Set<String> live;
  private final List<Consumer<Set<String>>> onLeft = new CopyOnWriteArrayList<>();
  private volatile long timer = -1;

  private ClusterMembers(Vertx vertx, ClusterManager manager, String self, String apiAddress) {
    this.vertx = vertx;
    this.manager = manager;
    this.self = self;
    this.apiAddress = apiAddress;
    this.live = Set.of(self);
  }

  /** Reads the membership a first time, then follows it; done at once on a node that is not clustered. */
  public Future<Void> start() {
    if (manager == null) {
      return Future.succeededFuture();
    }
    return poll().onComplete(ar -> timer = vertx.setPeriodic(POLL_MILLIS, t -> poll()));
  }

  /**
   * The cluster's nodes that consume {@code apiAddress}, or this node alone ({@code nodeId}) when
   * {@code vertx} is not clustered.
   */
  public static ClusterMembers of(Vertx vertx, String nodeId, String apiAddress) {
    ClusterManager manager = vertx.isClustered() ? ((VertxInternal) vertx).clusterManager() : null;
    return new ClusterMembers(vertx, manager, manager == null ? nodeId : manager.getNodeId(), apiAddress);
  }

  public boolean clustered() {
    return manager != null;
  }

  /** This node's id: the cluster manager's node id when clustered. */
  public String self() {
    return self;
  }

  public Set<String> live() {
    return live;
  }

  public boolean isLive(String nodeId) {
    return nodeId != null && live.contains(nodeId);
  }

  /** Calls {@code listener} with the ids of members that left, each time some leave. */
  public void onLeft(Consumer<Set<String>> listener) {
    onLeft.add(listener);
  }

  private Future<Void> poll() {
    if (!manager.isActive()) {
      return Future.succeededFuture();
    }
    Set<String> nodes = Set.copyOf(manager.getNodes());
    Promise<Void> polled = Promise.promise();
    manager.getRegistrations(apiAddress, (registrations, err) -> {
      if (err != null) {
        polled.fail(err);
        return;
      }
      Set<String> now = new HashSet<>();
      now.add(self);
      registrations.forEach(r -> {
        if (nodes.contains(r.nodeId())) {
          now.add(r.nodeId());
        }
      });
      changed(Set.copyOf(now));
      polled.complete();
    });
    return polled.future();
  }

  private synchronized void changed(Set<String> now) {
    Set<String> before = live;
    if (now.equals(before)) {
      return;
    }
    live = now;
    Set<String> left = new HashSet<>(before);
    left.removeAll(now);
    if (!left.isEmpty()) {
      onLeft.forEach(l -> l.accept(Set.copyOf(left)));
    }
  }

  public void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }
}
