package dev.ratchet.server.cluster;

import com.hazelcast.config.Config;
import dev.ratchet.verticles.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.ratchet.runtime.testing.Await.await;

/**
 * An agent in a JVM of its own that joins the Ratchet cluster as a Hazelcast lite member (it holds
 * no cluster data and runs no sessions) and drives Ratchet over the clustered event bus, as
 * docs/CLUSTER.md shows. Arguments: its Hazelcast port, the members' {@code host:port} list, and
 * for mutual TLS on the event bus its PKCS#12 key store, trust store and their password.
 * It reads commands on stdin and says what it hears on stdout, one line each:
 * {@code submit <session> <turnId> <orderId>} (a cancellation with a reply address of its own) answers {@code accepted <session> <status>} or {@code refused <session> <error>};
 * {@code results <session> <turnId>} answers {@code results <session> <json>} or {@code results <session> <error>};
 * {@code message <session> <messageId>} (a user message to agent {@code chat}, with the reply address) answers
 * {@code accepted <session> <status>} or {@code refused <session> <error>};
 * each message on the reply address prints {@code reply <json>}.
 */
public final class BusAgent {

  private BusAgent() {
  }

  public static void main(String[] args) throws Exception {
    JsonObject cluster = new JsonObject().put("host", "127.0.0.1").put("port", Integer.parseInt(args[0]))
        .put("members", new JsonArray(List.of(args[1].split(","))));
    if (args.length > 2) {
      cluster.put("tls", new JsonObject().put("keyStore", args[2]).put("trustStore", args[3])
          .put("keyStorePassword", args[4]).put("trustStorePassword", args[4]));
    }
    ClusterSettings settings = ClusterSettings.from(new JsonObject().put("cluster", cluster), true);
    Config hazelcast = settings.hazelcast();
    hazelcast.setLiteMember(true);
    EventBusOptions eventBus = new EventBusOptions().setHost("127.0.0.1").setPort(0).setClusterPublicHost("127.0.0.1");
    Vertx vertx = await(Vertx.builder()
        .with(new VertxOptions().setEventBusOptions(settings.tls() == null ? eventBus : settings.tls().apply(eventBus)))
        .withClusterManager(new HazelcastClusterManager(hazelcast)).buildClustered(), 60); // BusAgentProcess waits as long for "joined"
    String replies = "agent." + ProcessHandle.current().pid() + ".replies";
    await(vertx.eventBus().<JsonObject>consumer(replies, msg -> say("reply " + msg.body().encode())).completion());
    say("joined");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] w = line.split(" ");
      if ("submit".equals(w[0])) {
        JsonObject turn = new JsonObject().put("turnId", w[2]).put("calls", new JsonArray().add(new JsonObject()
            .put("name", "orders_cancel_order").put("arguments", new JsonObject().put("orderId", w[3]))));
        vertx.eventBus().<JsonObject>request(Addresses.SUBMIT, new JsonObject().put("agent", "orders")
                .put("sessionId", w[1]).put("replyAddress", replies).put("turn", turn),
                new DeliveryOptions().setSendTimeout(60_000))
            .onSuccess(r -> say("accepted " + w[1] + " " + r.body().getString("status")))
            .onFailure(err -> say("refused " + w[1] + " " + describe(err)));
      } else if ("message".equals(w[0])) {
        vertx.eventBus().<JsonObject>request(Addresses.MESSAGES_SEND, new JsonObject().put("agent", "chat")
                .put("sessionId", w[1]).put("messageId", w[2]).put("text", "hello from " + w[1])
                .put("replyAddress", replies), new DeliveryOptions().setSendTimeout(60_000))
            .onSuccess(r -> say("accepted " + w[1] + " " + r.body().getString("status")))
            .onFailure(err -> say("refused " + w[1] + " " + describe(err)));
      } else if ("results".equals(w[0])) {
        vertx.eventBus().<JsonObject>request(Addresses.RESULTS, new JsonObject().put("sessionId", w[1])
                .put("turnId", w[2]), new DeliveryOptions().setSendTimeout(10_000))
            .onSuccess(r -> say("results " + w[1] + " " + r.body().encode()))
            .onFailure(err -> say("results " + w[1] + " " + describe(err)));
      }
    }
    await(vertx.close());
  }

  private static String describe(Throwable err) {
    return err instanceof ReplyException e ? e.failureCode() + " " + e.getMessage() : err.toString();
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
