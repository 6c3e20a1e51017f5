package dev.ratchet.verticles.impl.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The live members of the Vert.x cluster this node belongs to, as its cluster manager sees them.
 * The manager's own node listener belongs to Vert.x's event bus, so membership is read by polling
 * {@link ClusterManager#getNodes()}: a change is noticed within {@link #POLL_MILLIS} of the manager
 * noticing it. On a node that is not clustered, the only member is the node itself.
 */
public final class ClusterMembers {

  static final long POLL_MILLIS = 250;

  private final Vertx vertx;
  private final ClusterManager manager;
  private final String self;
  private volatile Set<String> live;
  private final List<Consumer<Set<String>>> onLeft = new CopyOnWriteArrayList<>();
  private final long timer;

  private ClusterMembers(Vertx vertx, ClusterManager manager, String self) {
    this.vertx = vertx;
    this.manager = manager;
    this.self = self;
    this.live = manager == null ? Set.of(self) : Set.copyOf(manager.getNodes());
    this.timer = manager == null ? -1 : vertx.setPeriodic(POLL_MILLIS, t -> poll());
  }

  /** The cluster's members, or this node alone ({@code nodeId}) when {@code vertx} is not clustered. */
  public static ClusterMembers of(Vertx vertx, String nodeId) {
    ClusterManager manager = vertx.isClustered() ? ((VertxInternal) vertx).clusterManager() : null;
    return new ClusterMembers(vertx, manager, manager == null ? nodeId : manager.getNodeId());
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

  private void poll() {
    if (!manager.isActive()) {
      return;
    }
    Set<String> now = Set.copyOf(manager.getNodes());
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
