package dev.ratchet.server.cluster;

import dev.ratchet.runtime.testing.TestRedis;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent in its own JVM joins a two-member cluster as a Hazelcast lite member ({@link BusAgent})
 * and submits writes over the clustered event bus, each received by whichever member the event bus
 * picks and run by its session's owner. One member is killed with SIGKILL while every write waits
 * for approval: the agent still hears every result on its reply address, from the surviving owner
 * or from the member that took the dead one's sessions over, and each write lands once
 * (docs/EVENT-BUS.md, docs/CLUSTER.md). The event bus runs with mutual TLS ({@code cluster.tls},
 * certificates made by the JDK's keytool): a JVM whose certificate the members do not trust joins
 * Hazelcast but gets nothing through the event bus.
 */
class ClusterBusAgentTest {

  private static final int SESSIONS_PER_MEMBER = 5;
  private static final String STORE_PASSWORD = "store-password-0123";

  @RegisterExtension
  static final TestRedis REDIS = new TestRedis();

  @TempDir
  Path dir;

  private ClusterRun cluster;
  private final List<BusAgentProcess> agents = new CopyOnWriteArrayList<>();
  private final List<String> heard = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (BusAgentProcess agent : agents) {
      agent.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void anAgentInItsOwnClusteredJvmHearsEveryResultWhenAMemberIsKilledUnderIt() throws Exception {
    Path trust = certificate("cluster");
    Path rogue = certificate("rogue");
    cluster = ClusterRun.start(REDIS, dir, new JsonObject().put("tls", new JsonObject()
            .put("keyStore", dir.resolve("cluster.p12").toString()).put("trustStore", trust.toString())),
        Map.of("RATCHET_CLUSTER_KEYSTORE_PASSWORD", STORE_PASSWORD, "RATCHET_CLUSTER_TRUSTSTORE_PASSWORD", STORE_PASSWORD),
        "a", "b");
    assertThat(cluster.members.get(0).output()).contains("the event bus over mutual TLS").doesNotContain(STORE_PASSWORD);
    MemberProcess killed = cluster.members.get(0);
    MemberProcess survivor = cluster.members.get(1);
    BusAgentProcess commands = startAgent(heard, dir.resolve("cluster.p12"), trust);

    // sessions that placement spreads evenly over both members, each with a write that waits for approval
    List<String> sessions = ClusterRun.spread("bus-", SESSIONS_PER_MEMBER, killed, survivor);
    for (String session : sessions) {
      command(commands, "submit " + session + " t1 order-" + session);
    }
    cluster.until(() -> count("accepted ") == sessions.size() || count("refused ") > 0, 60);
    assertThat(heard).as("every submit accepted").filteredOn(l -> l.startsWith("accepted ")).hasSize(sessions.size());
    for (String session : sessions) {
      cluster.pendingApprovals(survivor, session, 1);
    }

    killed.kill();
    for (String session : sessions) {
      cluster.decide(survivor, cluster.pendingApprovals(survivor, session, 1).get(0));
    }

    List<JsonObject> replies = BusAgentProcess.repliesFor(cluster, heard, sessions, 60);
    assertThat(replies).extracting(r -> r.getString("sessionId")).containsExactlyInAnyOrderElementsOf(sessions);
    for (JsonObject reply : replies) {
      assertThat(reply.getString("status")).as(reply.encode()).isEqualTo("completed");
      assertThat(reply.getJsonObject("results").getJsonArray("results").getJsonObject(0).getString("outcome"))
          .as(reply.encode()).isEqualTo("succeeded");
    }
    for (String session : sessions) {
      assertThat(cluster.orders.cancels("order-" + session)).as("cancellations of order-" + session).isEqualTo(1);
    }

    // the same turn id again answers with its results; a turn never submitted is unknown, not pending
    String resent = sessions.get(0);
    command(commands, "submit " + resent + " t1 order-" + resent);
    command(commands, "results " + resent + " never");
    cluster.until(() -> heard.contains("accepted " + resent + " completed")
        && heard.stream().anyMatch(l -> l.startsWith("results " + resent + " ")), 30);
    assertThat(heard).contains("results " + resent + " 404 UNKNOWN_TURN: session '" + resent
        + "' holds no turn 'never': it was never accepted (a refused turn is not journaled) or retention removed it");
    assertThat(cluster.orders.cancels("order-" + resent)).isEqualTo(1);

    // a JVM without a certificate the members trust joins Hazelcast but reaches no one on the event bus
    List<String> rogueHeard = new CopyOnWriteArrayList<>();
    BusAgentProcess rogueCommands = startAgent(rogueHeard, rogue, trust);
    command(rogueCommands, "results " + resent + " t1");
    cluster.until(() -> rogueHeard.stream().anyMatch(l -> l.startsWith("results ")), 30);
    String refused = rogueHeard.stream().filter(l -> l.startsWith("results ")).findFirst().orElseThrow();
    System.out.println("a JVM with an untrusted certificate, asking for results: " + refused);
    assertThat(refused).as("what the untrusted JVM got").doesNotContain("completed").doesNotContain("order-");
  }

  /**
   * A PKCS#12 key store {@code name}.p12 with a fresh key and certificate for 127.0.0.1, and a trust
   * store {@code name}-trust.p12 holding that certificate, made with the JDK's keytool.
   */
  private Path certificate(String name) throws Exception {
    Path store = dir.resolve(name + ".p12");
    Path cert = dir.resolve(name + ".crt");
    Path trust = dir.resolve(name + "-trust.p12");
    keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
        "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
        "-storepass", STORE_PASSWORD);
    keytool("-exportcert", "-alias", name, "-keystore", store.toString(), "-storepass", STORE_PASSWORD,
        "-file", cert.toString());
    keytool("-importcert", "-noprompt", "-alias", name, "-file", cert.toString(), "-keystore", trust.toString(),
        "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
    return trust;
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool ended").isTrue();
    assertThat(p.exitValue()).as("keytool " + String.join(" ", args) + ": " + said).isZero();
  }

  /** Starts a {@link BusAgent} with the key store {@code keyStore}; what it says goes to {@code heard}. */
  private BusAgentProcess startAgent(List<String> heard, Path keyStore, Path trust) throws Exception {
    BusAgentProcess agent = new BusAgentProcess(cluster, heard, keyStore.toString(), trust.toString(), STORE_PASSWORD);
    agents.add(agent);
    return agent;
  }

  private static void command(BusAgentProcess agent, String line) throws java.io.IOException {
    agent.command(line);
  }

  private long count(String prefix) {
    return BusAgentProcess.count(heard, prefix);
  }
}
