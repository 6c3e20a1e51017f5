package dev.ratchet.runtime.testing;

import dev.ratchet.host.ChildEnvironment;
import dev.ratchet.host.FreePorts;
import dev.ratchet.runtime.journal.JournalOptions;
import dev.ratchet.runtime.journal.RedisJournal;
import dev.ratchet.runtime.journal.RedisTopology;
import dev.ratchet.runtime.journal.SessionJournal;
import io.vertx.core.Vertx;
import dev.ratchet.embedded.RedisServerProcess;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Gives a test class a real Redis Cluster of its own: {@code masters} {@code redis-server}
 * processes with {@code --cluster-enabled yes} and AOF on free ports in a temporary directory,
 * joined by {@code redis-cli --cluster create}, with replicas of each master if asked. The class's tests are skipped,
 * with the reason, where {@code redis-cli} is not installed.
 */
public final class TestRedisCluster implements BeforeAllCallback, AfterAllCallback, JournalStore {

  private final int masters;
  private final int replicasPerMaster;
  private final String keyPrefix = "rc-" + UUID.randomUUID().toString().substring(0, 8);
  private final List<Process> nodes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();
  private Path dir;

  public TestRedisCluster(int masters) {
    this(masters, 0);
  }

  /** A cluster whose masters each have {@code replicasPerMaster} replicas. */
  public TestRedisCluster(int masters, int replicasPerMaster) {
    this.masters = masters;
    this.replicasPerMaster = replicasPerMaster;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    assumeTrue(ChildEnvironment.onPath("redis-cli") != null && ChildEnvironment.onPath("redis-server") != null,
        "a Redis Cluster needs redis-server and redis-cli on PATH (redis-cli --cluster create joins the nodes)");
    dir = Files.createTempDirectory("ratchet-test-cluster");
    try {
      for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
        int port = FreePorts.next();
        Path nodeDir = Files.createDirectories(dir.resolve(String.valueOf(port)));
        ports.add(port);
        nodes.add(RedisCli.server(nodeDir.resolve("redis.log").toFile(), "--port", String.valueOf(port),
            "--bind", "127.0.0.1", "--dir", nodeDir.toString(), "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1000", "--appendonly", "yes",
            "--save", "", "--daemonize", "no"));
      }
      for (int port : ports) {
        RedisCli.await(port, 10_000, "PONG"::equals, "ping");
      }
      List<String> create = new ArrayList<>(List.of("--cluster", "create"));
      ports.forEach(p -> create.add("127.0.0.1:" + p));
      create.addAll(List.of("--cluster-replicas", String.valueOf(replicasPerMaster), "--cluster-yes"));
      String created = RedisCli.run(create.toArray(String[]::new));
      if (!created.contains("All 16384 slots covered")) {
        throw new IOException("redis-cli --cluster create failed: " + created);
      }
      for (int port : ports) {
        RedisCli.await(port, 20_000, info -> info.contains("cluster_state:ok")
            && info.contains("cluster_known_nodes:" + ports.size()), "cluster", "info");
      }
      for (int port : ports) {
        // a replica counts once its link to its master is up
        RedisCli.await(port, 20_000, info -> info.contains("role:master") || info.contains("master_link_status:up"),
            "info", "replication");
      }
    } catch (Exception e) {
      afterAll(context);
      throw e;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    for (Process node : nodes) {
      node.destroy();
    }
    for (Process node : nodes) {
      try {
        if (!node.waitFor(5, TimeUnit.SECONDS)) {
          node.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    nodes.clear();
    RedisServerProcess.deleteDataDir(dir);
  }

  /** The nodes' URLs, {@code redis://127.0.0.1:<port>}. */
  public List<String> endpoints() {
    List<String> list = new ArrayList<>();
    ports.forEach(p -> list.add("redis://127.0.0.1:" + p));
    return list;
  }

  public List<Integer> ports() {
    return List.copyOf(ports);
  }

  /** The ports of the nodes that are masters now. */
  public List<Integer> masterPorts() throws IOException {
    List<Integer> list = new ArrayList<>();
    for (int port : ports) {
      if (nodes.get(ports.indexOf(port)).isAlive() && RedisCli.at(port, "role").startsWith("master")) {
        list.add(port);
      }
    }
    return list;
  }

  /** Kills the node on {@code port} abruptly (SIGKILL), as a crash would. */
  public void kill(int port) throws InterruptedException {
    Process node = nodes.get(ports.indexOf(port));
    node.destroyForcibly();
    node.waitFor(10, TimeUnit.SECONDS);
  }

  /** A key prefix no other test class uses. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /** The journal's options on this cluster, reached through its first node alone (the client learns the rest). */
  public JournalOptions journalOptions() {
    return new JournalOptions(null, keyPrefix, 16, 100_000, RedisTopology.cluster(endpoints().subList(0, 1)), 0,
        JournalOptions.DEFAULT_WAIT_TIMEOUT_MILLIS);
  }

  /** A Redis journal on this cluster under this class's key prefix. */
  @Override
  public SessionJournal open(Vertx vertx) {
    return Await.await(RedisJournal.open(vertx, journalOptions()));
  }
}
