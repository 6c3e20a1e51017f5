package dev.ratchet.verticles.impl.cluster;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The live Ratchet members of the Vert.x cluster this node belongs to, in two sets. The
 * <em>owners</em> are the cluster manager's nodes that may still run sessions: they listen on
 * {@link #OWNERS_ADDRESS} until they have handed their sessions over or died (a JVM that joined the
 * cluster only to send it messages is not one). The <em>candidates</em> are the owners that take
 * new sessions: they serve Ratchet's event-bus API, which a leaving member stops first. A session
 * whose owner is no longer an owner is taken over; placement picks among candidates only.
 * <p>
 * The manager's own node listener belongs to Vert.x's event bus, so membership is read by polling
 * {@link ClusterManager#getNodes()} and the registrations: a change is noticed within
 * {@link #POLL_MILLIS} of the manager noticing it. On a node that is not clustered, the only member
 * is the node itself.
 */
public final class ClusterMembers {

  static final long POLL_MILLIS = 250;
  /** Where every member listens until it has nothing left to run: its registration says it may own sessions. */
  public static final String OWNERS_ADDRESS = "ratchet.cluster.owners";

  private final Vertx vertx;
  private final ClusterManager manager;
  private final String self;
  private final String apiAddress;
  private volatile Set<String> live;
  private volatile Set<String> owners;
  private volatile boolean leaving;
  private volatile boolean joined;
  private final List<Consumer<Set<String>>> onLeft = new CopyOnWriteArrayList<>();
  /** What to do when a given owner leaves: requests waiting for its answer. */
  private final Map<String, Set<Runnable>> departures = new ConcurrentHashMap<>();
  private volatile long timer = -1;

  private ClusterMembers(Vertx vertx, ClusterManager manager, String self, String apiAddress) {
    this.vertx = vertx;
    this.manager = manager;
    this.self = self;
    this.apiAddress = apiAddress;
    this.live = Set.of(self);
    this.owners = Set.of(self);
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

  /**
   * The members that take new sessions: placement's candidates. This node is one only from
   * {@link #join()} until it leaves.
   */
  public Set<String> live() {
    if (joined && !leaving) {
      return live;
    }
    Set<String> others = new HashSet<>(live);
    others.remove(self);
    return Set.copyOf(others);
  }

  /** Whether {@code nodeId} may still run sessions: a candidate, or a member handing its sessions over. */
  public boolean isLive(String nodeId) {
    return nodeId != null && (owners.contains(nodeId) || live.contains(nodeId));
  }

  /** This node is ready: it takes new sessions from now on (the others see it once it serves the event-bus API). */
  public void join() {
    joined = true;
  }

  /** This node takes no new session from now on; the sessions it runs stay its own until it hands them over. */
  public void leave() {
    leaving = true;
  }

  public boolean leaving() {
    return leaving;
  }

  /** Calls {@code listener} with the ids of owners that left (died, or handed everything over), each time some leave. */
  public void onLeft(Consumer<Set<String>> listener) {
    onLeft.add(listener);
  }

  /**
   * Runs {@code action} once {@code nodeId} is no longer an owner (at once when it is not one now);
   * the answer cancels it. It may run twice when the node leaves just as it is registered.
   */
  public Runnable onDeparture(String nodeId, Runnable action) {
    Set<Runnable> waiting = departures.computeIfAbsent(nodeId, n -> ConcurrentHashMap.newKeySet());
    waiting.add(action);
    // owners is updated before departures are run: a node that left meanwhile is seen here
    if (!isLive(nodeId) && waiting.remove(action)) {
      action.run();
    }
    return () -> waiting.remove(action);
  }

  private Future<Void> poll() {
    if (!manager.isActive()) {
      return Future.succeededFuture();
    }
    Set<String> nodes = Set.copyOf(manager.getNodes());
    return registered(apiAddress, nodes).compose(candidates -> registered(OWNERS_ADDRESS, nodes).map(owning -> {
      Set<String> all = new HashSet<>(owning);
      all.addAll(candidates);
      changed(candidates, Set.copyOf(all));
      return null;
    }));
  }

  /** The nodes among {@code nodes} that consume {@code address}, and this node. */
  private Future<Set<String>> registered(String address, Set<String> nodes) {
    Promise<Set<String>> found = Promise.promise();
    manager.getRegistrations(address, (registrations, err) -> {
      if (err != null) {
        found.fail(err);
        return;
      }
      Set<String> now = new HashSet<>();
      now.add(self);
      registrations.forEach(r -> {
        if (nodes.contains(r.nodeId())) {
          now.add(r.nodeId());
        }
      });
      found.complete(Set.copyOf(now));
    });
    return found.future();
  }

  private synchronized void changed(Set<String> candidates, Set<String> nowOwners) {
    live = candidates;
    Set<String> before = owners;
    if (nowOwners.equals(before)) {
      return;
    }
    owners = nowOwners;
    Set<String> left = new HashSet<>(before);
    left.removeAll(nowOwners);
    if (!left.isEmpty()) {
      left.forEach(node -> {
        Set<Runnable> waiting = departures.remove(node);
        if (waiting != null) {
          waiting.forEach(Runnable::run);
        }
      });
      onLeft.forEach(l -> l.accept(Set.copyOf(left)));
    }
  }

  public void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }
}
