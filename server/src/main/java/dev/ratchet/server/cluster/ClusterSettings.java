package dev.ratchet.server.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.transport.Transport;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code cluster} section of the configuration: whether {@code run} joins a Vert.x cluster,
 * and how its Hazelcast member finds the others (a TCP/IP member list, or multicast when the list
 * is empty) and how soon it declares a silent member dead. The clustered event bus listens on the
 * same host, on a port of its own, with mutual TLS when {@code tls} is set ({@link EventBusTls}).
 */
public record ClusterSettings(boolean enabled, String name, String host, int port, List<String> members,
                              long heartbeatMillis, long memberTimeoutMillis, EventBusTls tls) {

  public ClusterSettings(boolean enabled, String name, String host, int port, List<String> members,
                         long heartbeatMillis, long memberTimeoutMillis) {
    this(enabled, name, host, port, members, heartbeatMillis, memberTimeoutMillis, null);
  }

  /** Reads the section; {@code force} turns cluster mode on whatever it says ({@code run --cluster}). */
  public static ClusterSettings from(JsonObject config, boolean force) {
    JsonObject c = config.getJsonObject("cluster", new JsonObject());
    List<String> members = new ArrayList<>();
    Object listed = c.getValue("members");
    if (listed instanceof JsonArray array) {
      array.forEach(m -> members.add(String.valueOf(m).trim()));
    } else if (listed != null) {
      throw new IllegalArgumentException("cluster.members must be a list of host:port, got " + listed);
    }
    members.removeIf(String::isEmpty);
    long heartbeat = c.getLong("heartbeatMillis", 1_000L);
    long timeout = c.getLong("memberTimeoutMillis", 5_000L);
    if (heartbeat < 1_000 || timeout < 2 * heartbeat) {
      throw new IllegalArgumentException("cluster.heartbeatMillis must be at least 1000 and cluster.memberTimeoutMillis"
          + " at least twice it, got " + heartbeat + " and " + timeout);
    }
    int port = c.getInteger("port", 5701);
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("cluster.port must be a port number, got " + port);
    }
    return new ClusterSettings(force || c.getBoolean("enabled", false), c.getString("name", "ratchet"),
        c.getString("host", "127.0.0.1"), port, List.copyOf(members), heartbeat, timeout, EventBusTls.from(c));
  }

  /** A clustered Vert.x on {@code transport}, once its member has joined. */
  public Future<Vertx> vertx(Transport transport) {
    HazelcastClusterManager manager = new HazelcastClusterManager(hazelcast());
    EventBusOptions eventBus = new EventBusOptions().setHost(host).setPort(0).setClusterPublicHost(host);
    VertxOptions options = new VertxOptions().setEventBusOptions(tls == null ? eventBus : tls.apply(eventBus));
    return Vertx.builder().with(options).withTransport(transport).withClusterManager(manager).buildClustered();
  }

  Config hazelcast() {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(name);
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    config.setProperty("hazelcast.heartbeat.interval.seconds", String.valueOf(Math.max(1, heartbeatMillis / 1000)));
    config.setProperty("hazelcast.max.no.heartbeat.seconds", String.valueOf(Math.max(2, memberTimeoutMillis / 1000)));
    config.setProperty("hazelcast.local.localAddress", host);
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(port).setPortAutoIncrement(false).setPublicAddress(host + ":" + port);
    JoinConfig join = network.getJoin();
    join.getAutoDetectionConfig().setEnabled(false);
    join.getMulticastConfig().setEnabled(members.isEmpty());
    join.getTcpIpConfig().setEnabled(!members.isEmpty()).setMembers(members);
    return config;
  }

  /** What the start-up line says about the cluster. */
  public String describe() {
    return "cluster '" + name + "': this member on " + host + ":" + port + ", "
        + (members.isEmpty() ? "others found by multicast" : "members " + String.join(", ", members))
        + ", a silent member declared dead after " + memberTimeoutMillis + " ms"
        + (tls == null ? "" : ", the event bus over " + tls);
  }
}
