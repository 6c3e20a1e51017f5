package dev.ratchet.server.chaos;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One incarnation of the runtime under test: a {@link ChaosNode} in a child JVM, whose output (ready,
 * accepted turns, delivered results, errors) goes into the records of its {@link ChaosRun}; stopped
 * only by SIGKILL.
 */
final class ChaosChild {
  private final ChaosRun run;
  final NodeProcess process;
  final CountDownLatch ready = new CountDownLatch(1);
  final Set<String> decidedHere = ConcurrentHashMap.newKeySet();
  volatile long recoveryMillis;
  volatile String node;

  ChaosChild(ChaosRun run, String redisUrl, String providerUrl, Path logFile) throws IOException {
    this(run, redisUrl, providerUrl, logFile, List.of());
  }

  /** {@code clusterArgs}: empty, or this member's cluster port and every member's host:port, comma-separated. */
  ChaosChild(ChaosRun run, String redisUrl, String providerUrl, Path logFile, List<String> clusterArgs)
      throws IOException {
    this.run = run;
    List<String> args = new ArrayList<>(List.of(redisUrl, run.prefix, providerUrl));
    args.addAll(clusterArgs);
    process = new NodeProcess(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), args, logFile,
        "chaos-child-stdout", this::read);
  }

  private void read(String line) {
    if (!line.startsWith("{")) {
      return;
    }
    JsonObject j = new JsonObject(line);
    switch (j.getString("event", "")) {
      case "ready":
        recoveryMillis = j.getLong("recoveryMs", 0L);
        node = j.getString("node");
        ready.countDown();
        break;
      case "accepted":
        run.accepted.add(j.getString("sessionId") + "/" + j.getString("turnId"));
        break;
      case "result": {
        JsonObject results = j.getJsonObject("results");
        run.delivered.put(results.getString("sessionId") + "/" + results.getString("turnId"), results);
        break;
      }
      case "error":
        run.submitErrors.incrementAndGet();
        run.childErrors.add(j.encode());
        break;
      default:
        break;
    }
  }

  long awaitReady(int seconds) throws InterruptedException {
    if (!ready.await(seconds, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the chaos runtime did not start within " + seconds + " s");
    }
    return recoveryMillis;
  }

  void send(JsonObject command) throws IOException {
    process.send(command);
  }

  boolean isReady() {
    return ready.getCount() == 0 && process.isAlive();
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  void kill() throws InterruptedException {
    process.kill();
  }
}
