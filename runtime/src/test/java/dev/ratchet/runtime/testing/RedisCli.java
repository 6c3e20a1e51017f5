package dev.ratchet.runtime.testing;

import dev.ratchet.host.ChildEnvironment;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** {@code redis-cli} and {@code redis-server} as child processes, for tests that build Redis deployments. */
public final class RedisCli {

  private RedisCli() {
  }

  /** Runs {@code redis-cli} with these arguments and answers what it printed; fails when it does not end in 30 s. */
  public static String run(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ChildEnvironment.onPath("redis-cli"));
    cmd.addAll(List.of(args));
    Process p = ChildEnvironment.minimal(new ProcessBuilder(cmd)).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("redis-cli " + String.join(" ", args) + " did not end within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  /** Runs {@code redis-cli -p port} with these arguments. */
  public static String at(int port, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("-h", "127.0.0.1", "-p", String.valueOf(port)));
    all.addAll(List.of(args));
    return run(all.toArray(String[]::new));
  }

  /** Asks {@code redis-cli -p port} until its answer passes {@code until}; fails after {@code millis}. */
  public static String await(int port, long millis, Predicate<String> until, String... args) throws IOException {
    long deadline = System.currentTimeMillis() + millis;
    String last = "";
    while (System.currentTimeMillis() < deadline) {
      last = at(port, args).strip();
      if (until.test(last)) {
        return last;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
    throw new IOException("redis on port " + port + " never answered " + String.join(" ", args) + " as expected; last: "
        + last.strip());
  }

  /** Makes the server on {@code replicaPort} a replica of the one on {@code masterPort}; answers once both see the link up. */
  public static void replicate(int masterPort, int replicaPort) throws IOException {
    // a diskless full sync starts at once rather than after the default 5 s for more replicas to join
    at(masterPort, "config", "set", "repl-diskless-sync-delay", "0");
    at(replicaPort, "replicaof", "127.0.0.1", String.valueOf(masterPort));
    await(replicaPort, 10_000, info -> info.contains("master_link_status:up"), "info", "replication");
    await(masterPort, 10_000, info -> info.contains("connected_slaves:1"), "info", "replication");
  }

  /** Starts {@code redis-server} with these arguments, its output in {@code log}. */
  public static Process server(File log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ChildEnvironment.onPath("redis-server"));
    cmd.addAll(List.of(args));
    return ChildEnvironment.minimal(new ProcessBuilder(cmd)).redirectErrorStream(true).redirectOutput(log).start();
  }
}
