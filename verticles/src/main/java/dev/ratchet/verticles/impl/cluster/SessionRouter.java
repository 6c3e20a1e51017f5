package dev.ratchet.verticles.impl.cluster;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

import java.util.UUID;

/**
 * Sends each session's turns and messages to the node that owns the session, so that any node
 * takes any request. The owner is the node the journal names ({@code owner} in the session's
 * meta) while it is a live member; a session without a live owner goes where {@link Placement}
 * puts it, and that node claims it with a new fencing epoch. On a node that is not clustered every
 * request stays local.
 * <p>
 * A forwarded turn's results come from the journal when its {@code turn.completed} event is
 * published, which any node hears on the clustered event bus, whichever node finishes the turn.
 * docs/ARCHITECTURE.md, "More than one node", gives the rules.
 */
public final class SessionRouter {

  /** Answers the local node's part of a forwarded request. */
  public interface Local {
    Future<Future<TurnResult>> accept(String agent, String sessionId, String callerId, String creator, Turn turn);

    Future<Future<AgentReply>> acceptMessage(String agent, String sessionId, String callerId, String creator,
                                             String messageId, String text);
  }

  /** How long a forwarded request may wait for the owner to journal it. */
  static final long FORWARD_TIMEOUT_MILLIS = 30_000;

  private final Vertx vertx;
  private final ClusterMembers members;
  private final JournalQueries journal;
  private final Local local;
  private MessageConsumer<JsonObject> consumer;

  public SessionRouter(Vertx vertx, ClusterMembers members, JournalQueries journal, Local local) {
    this.vertx = vertx;
    this.members = members;
    this.journal = journal;
    this.local = local;
  }

  static String address(String node) {
    return "ratchet.node." + node + ".sessions";
  }

  /** Listens for requests other nodes forward here; done at once on a node that is not clustered. */
  public Future<Void> start() {
    if (!members.clustered()) {
      return Future.succeededFuture();
    }
    consumer = vertx.eventBus().consumer(address(members.self()), this::handle);
    return consumer.completion();
  }

  public Future<Void> close() {
    return consumer == null ? Future.succeededFuture() : consumer.unregister();
  }

  /** The node that should run the session now: its live owner, else where placement puts it. */
  public Future<String> target(String sessionId) {
    if (!members.clustered()) {
      return Future.succeededFuture(members.self());
    }
    return journal.sessionInfo(sessionId).map(info -> {
      String owner = info.getString("owner");
      return members.isLive(owner) ? owner : Placement.owner(sessionId, members.live());
    });
  }

  public Future<Future<TurnResult>> accept(String agent, String sessionId, String callerId, String creator, Turn turn) {
    return target(sessionId).compose(node -> {
      if (node == null || node.equals(members.self())) {
        return local.accept(agent, sessionId, callerId, creator, turn);
      }
      JsonObject request = new JsonObject().put("op", "turn").put("agent", agent).put("sessionId", sessionId)
          .put("callerId", callerId).put("creator", creator).put("turn", turn.toJson());
      return forward(node, request).map(journaled -> awaitResult(sessionId, turn.turnId()));
    });
  }

  public Future<Future<AgentReply>> acceptMessage(String agent, String sessionId, String callerId, String creator,
                                                  String messageId, String text) {
    return target(sessionId).compose(node -> {
      if (node == null || node.equals(members.self())) {
        return local.acceptMessage(agent, sessionId, callerId, creator, messageId, text);
      }
      String replyAddress = "ratchet.node." + members.self() + ".reply." + UUID.randomUUID();
      Promise<AgentReply> reply = Promise.promise();
      MessageConsumer<JsonObject> replies = vertx.eventBus().consumer(replyAddress, msg -> {
        JsonObject body = msg.body();
        if (body.containsKey("error")) {
          reply.tryFail(Forwarded.decode(body.getJsonObject("error")));
        } else {
          reply.tryComplete(AgentReply.fromJson(body));
        }
      });
      reply.future().onComplete(done -> replies.unregister());
      JsonObject request = new JsonObject().put("op", "message").put("agent", agent).put("sessionId", sessionId)
          .put("callerId", callerId).put("creator", creator).put("messageId", messageId).put("text", text)
          .put("replyAddress", replyAddress);
      return replies.completion().compose(v -> forward(node, request)).map(journaled -> reply.future())
          .onFailure(err -> replies.unregister());
    });
  }

  private Future<JsonObject> forward(String node, JsonObject request) {
    return vertx.eventBus().<JsonObject>request(address(node), request,
            new DeliveryOptions().setSendTimeout(FORWARD_TIMEOUT_MILLIS))
        .map(Message::body)
        .recover(err -> Future.failedFuture(Forwarded.error(err, node)));
  }

  private void handle(Message<JsonObject> msg) {
    JsonObject r = msg.body();
    String agent = r.getString("agent");
    String sessionId = r.getString("sessionId");
    if ("turn".equals(r.getString("op"))) {
      local.accept(agent, sessionId, r.getString("callerId"), r.getString("creator"), Turn.fromJson(r.getJsonObject("turn")))
          .onSuccess(result -> msg.reply(new JsonObject()))
          .onFailure(err -> Forwarded.fail(msg, err));
      return;
    }
    String replyAddress = r.getString("replyAddress");
    local.acceptMessage(agent, sessionId, r.getString("callerId"), r.getString("creator"), r.getString("messageId"),
            r.getString("text"))
        .onSuccess(reply -> {
          msg.reply(new JsonObject());
          reply.onComplete(ar -> vertx.eventBus().send(replyAddress, ar.succeeded() ? ar.result().toJson()
              : new JsonObject().put("error", Forwarded.encode(ar.cause()))));
        })
        .onFailure(err -> Forwarded.fail(msg, err));
  }

  /** The turn's results once the journal has them: listens for its completion first, then looks. */
  private Future<TurnResult> awaitResult(String sessionId, String turnId) {
    Promise<TurnResult> promise = Promise.promise();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.events(sessionId));
    consumer.handler(msg -> {
      JsonObject e = msg.body();
      if (EventType.TURN_COMPLETED.wireName().equals(e.getString("type")) && turnId.equals(e.getString("turnId"))) {
        lookUp(sessionId, turnId, promise);
      }
    });
    consumer.completion().onComplete(v -> lookUp(sessionId, turnId, promise));
    return promise.future().andThen(done -> consumer.unregister());
  }

  private void lookUp(String sessionId, String turnId, Promise<TurnResult> promise) {
    journal.turnResult(sessionId, turnId).onSuccess(r -> {
      if (r != null) {
        promise.tryComplete(r);
      }
    });
  }
}
