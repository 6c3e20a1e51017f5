package dev.ratchet.server.chaos;

import dev.ratchet.host.FreePorts;
import dev.ratchet.embedded.RedisServerProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bench --nodes 1,2,3}: for each size, a cluster of that many {@link ChaosNode} members on
 * one Redis, fed a closed loop of one-read turns through random members (so most are forwarded to
 * the member that runs the session), and measured for turns per second and each member's CPU per
 * turn. On one machine the members share its cores, so the figures show the cost of clustering
 * (forwarding, the clustered event bus), not a capacity gain.
 */
public record ClusterBench(List<Integer> sizes, int inFlight, int sessions, long warmupMillis, long measureMillis,
                           String redisUrl, PrintStream log) {

  public JsonArray run() throws Exception {
    RedisServerProcess own = redisUrl == null ? RedisServerProcess.startTemporary("ratchet-cluster-bench", "everysec")
        : null;
    String url = own != null ? own.url() : redisUrl;
    JsonArray points = new JsonArray();
    log.printf("%6s %10s %16s %s%n", "nodes", "turns/s", "CPU ms/turn", "CPU ms/turn per node");
    try (ChaosProvider provider = new ChaosProvider()) {
      for (int size : sizes) {
        JsonObject point = point(size, url, provider.url());
        points.add(point);
        log.printf("%6d %10.0f %16.3f %s%n", size, point.getDouble("turnsPerSecond"),
            point.getDouble("cpuMsPerTurn"), point.getJsonArray("cpuMsPerTurnByNode").encode());
      }
    } finally {
      if (own != null) {
        own.close();
      }
    }
    return points;
  }

  private JsonObject point(int size, String url, String provider) throws Exception {
    String prefix = "cbench-" + UUID.randomUUID().toString().substring(0, 8);
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      ports.add(FreePorts.next());
    }
    String members = String.join(",", ports.stream().map(p -> "127.0.0.1:" + p).toList());
    Path logs = Files.createTempDirectory("ratchet-cluster-bench");
    List<Member> nodes = new ArrayList<>();
    AtomicLong completed = new AtomicLong();
    AtomicLong next = new AtomicLong();
    java.util.Set<String> done = java.util.concurrent.ConcurrentHashMap.newKeySet();
    try {
      for (int i = 0; i < size; i++) {
        nodes.add(new Member(url, prefix, provider, ports.get(i), members, logs.resolve("node-" + i + ".log"),
            completed, next, nodes, done));
      }
      for (Member m : nodes) {
        m.awaitReady();
      }
      for (int i = 0; i < inFlight; i++) {
        nodes.get(i % size).submit(next.getAndIncrement());
      }
      Thread.sleep(warmupMillis);
      long turns0 = completed.get();
      long[] cpu0 = nodes.stream().mapToLong(Member::cpuMillis).toArray();
      long t0 = System.nanoTime();
      Thread.sleep(measureMillis);
      long turns = completed.get() - turns0;
      double seconds = (System.nanoTime() - t0) / 1e9;
      JsonArray byNode = new JsonArray();
      long cpu = 0;
      for (int i = 0; i < size; i++) {
        long used = nodes.get(i).cpuMillis() - cpu0[i];
        cpu += used;
        byNode.add(Math.round(used * 1000.0 / Math.max(1, turns)) / 1000.0);
      }
      return new JsonObject().put("nodes", size).put("turns", turns).put("turnsPerSecond", turns / seconds)
          .put("cpuMsPerTurn", cpu / (double) Math.max(1, turns)).put("cpuMsPerTurnByNode", byNode);
    } finally {
      for (Member m : nodes) {
        m.process.kill();
      }
    }
  }


  /** One member: commands on its stdin, events on its stdout; each completed turn sends the next one. */
  private final class Member {
    final NodeProcess process;
    private final java.util.Set<String> done;
    final CountDownLatch ready = new CountDownLatch(1);
    private final AtomicLong completed;
    private final AtomicLong next;
    private final List<Member> all;

    Member(String url, String prefix, String provider, int port, String members, Path logFile, AtomicLong completed,
           AtomicLong next, List<Member> all, java.util.Set<String> doneTurns) throws IOException {
      this.completed = completed;
      this.next = next;
      this.all = all;
      this.done = doneTurns;
      process = new NodeProcess(List.of("-Xmx512m"), List.of(url, prefix, provider, String.valueOf(port), members),
          logFile, "cluster-bench-node", this::read);
    }

    void awaitReady() throws InterruptedException {
      if (!ready.await(180, TimeUnit.SECONDS)) {
        throw new IllegalStateException("a cluster member did not start within 180 s");
      }
    }

    private void read(String line) {
      if (line.contains("\"event\":\"ready\"")) {
        ready.countDown();
      } else if (line.contains("\"event\":\"result\"")) {
        // a member may print a turn's results twice (as it publishes them and as it hears them)
        if (done.add(new JsonObject(line).getJsonObject("results").getString("turnId"))) {
          completedOne();
        }
      } else if (line.contains("\"event\":\"error\"")) {
        completedOne();
      }
    }

    /** A turn completed (or its submit failed): send the next. */
    private void completedOne() {
      completed.incrementAndGet();
      List<Member> members = all;
      members.get((int) (next.get() % members.size())).submit(next.getAndIncrement());
    }

    void submit(long n) {
      JsonObject turn = new JsonObject().put("turnId", "t" + n).put("calls", new JsonArray().add(new JsonObject()
          .put("name", "read_item").put("arguments", new JsonObject().put("item", "i" + (n % 1000)))));
      try {
        process.send(new JsonObject().put("cmd", "submit").put("sessionId", "s" + (n % sessions)).put("turn", turn));
      } catch (IOException e) {
        // the member stopped; the run ends
      }
    }

    /** User and system CPU time of the member's process, from /proc (Linux). */
    long cpuMillis() {
      try {
        String[] stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat")).split("\\) ", 2)[1].split(" ");
        long ticks = Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
        return ticks * 10;
      } catch (IOException | RuntimeException e) {
        return 0;
      }
    }
  }
}
