package dev.ratchet.verticles.impl.cluster;

import dev.ratchet.runtime.Accepted;
import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.MessageRequest;
import dev.ratchet.runtime.RatchetException;
import dev.ratchet.runtime.TurnRequest;
import dev.ratchet.runtime.TurnResult;
import dev.ratchet.runtime.agent.AgentReply;
import dev.ratchet.runtime.journal.JournalQueries;
import dev.ratchet.verticles.StepEvents;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Sends each session's turns and messages to the node that owns the session, so that any node
 * takes any request. The owner is the node the journal names ({@code owner} in the session's
 * meta) while it is a live member; a session without a live owner goes where {@link Placement}
 * puts it, and that node claims it with a new fencing epoch. On a node that is not clustered every
 * request stays local.
 * <p>
 * A forwarded turn's results come from the journal when its {@code turn.completed} event is
 * published, which any node hears on the clustered event bus, whichever node finishes the turn.
 * <p>
 * A member that leaves hands its sessions over one by one ({@link #handOver}); until one is handed
 * over it stays the session's owner, and requests for a session it no longer holds go on to the
 * member placement gives it to. docs/ARCHITECTURE.md, "More than one node", gives the rules.
 */
public final class SessionRouter {

  /** Answers the local node's part of a forwarded request. */
  public interface Local {
    Future<Accepted<TurnResult>> accept(TurnRequest request, String replyAddress);

    Future<Accepted<AgentReply>> acceptMessage(MessageRequest request, String answerTo);

    /** Whether this node runs the session now (or is starting it). */
    boolean holds(String sessionId);

    /** Claims the session here and resumes its turns in flight, as a member handing it over asks. */
    Future<Void> resume(String agent, String sessionId);
  }

  /** How long a forwarded request may wait for the owner to journal it. */
  static final long FORWARD_TIMEOUT_MILLIS = 30_000;
  /** How many times a request whose member died is placed again. */
  static final int REPLACEMENTS = 3;
  /** How long a member that could not be reached may take to be found gone before the request fails. */
  static final long DEPARTURE_WAIT_MILLIS = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(SessionRouter.class);

  private final Vertx vertx;
  private final ClusterMembers members;
  private final JournalQueries journal;
  private final Local local;
  private MessageConsumer<JsonObject> consumer;
  private MessageConsumer<Object> owning;

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
    consumer = vertx.eventBus().consumer(address(members.self()), new OwnerSide(vertx, members, local,
        this::forwardOn));
    // its registration alone matters: it tells the other members that this one may own sessions
    owning = vertx.eventBus().consumer(ClusterMembers.OWNERS_ADDRESS, msg -> { });
    return consumer.completion().compose(v -> owning.completion());
  }

  public Future<Void> close() {
    if (consumer == null) {
      return Future.succeededFuture();
    }
    return Future.join(owning.unregister(), consumer.unregister()).mapEmpty();
  }

  /**
   * The node that should run the session now: its live owner, else where placement puts it. A
   * leaving member is the target only of the sessions it still holds.
   */
  public Future<String> target(String sessionId) {
    if (!members.clustered()) {
      return Future.succeededFuture(members.self());
    }
    return journal.sessionInfo(sessionId).map(info -> {
      String owner = info.getString("owner");
      boolean handedOver = members.self().equals(owner) && members.leaving() && !local.holds(sessionId);
      return members.isLive(owner) && !handedOver ? owner : Placement.owner(sessionId, members.live());
    });
  }

  /**
   * Asks the member placement gives the session to (never this one, which is leaving) to claim it
   * and resume its turns; the answer says which member took it, null when none could.
   */
  public Future<String> handOver(String agent, String sessionId) {
    String to = Placement.owner(sessionId, members.live());
    if (to == null || to.equals(members.self())) {
      return Future.succeededFuture(null);
    }
    return forward(to, new JsonObject().put("op", "resume").put("agent", agent).put("sessionId", sessionId))
        .map(to);
  }

  /**
   * Accepts the turn on the member that runs its session; {@code replyAddress} (null: none) travels
   * with it, and that member (or the one that resumes the turn after it dies) answers it.
   */
  public Future<Accepted<TurnResult>> accept(TurnRequest turn, String replyAddress) {
    return accept(turnRequest(turn, replyAddress), turn, replyAddress, REPLACEMENTS);
  }

  private Future<Accepted<TurnResult>> accept(JsonObject request, TurnRequest turn, String replyAddress,
                                              int replacements) {
    String sessionId = turn.sessionId();
    String turnId = turn.turn().turnId();
    return target(sessionId).compose(node -> {
      if (node == null || node.equals(members.self())) {
        if (!members.leaving()) {
          return local.accept(turn, replyAddress);
        }
        // a leaving member journals the turn for the session's next owner, or passes it on once handed over
        return local.accept(turn, replyAddress)
            .map(journaled -> new Accepted<>(awaitResult(sessionId, turnId)))
            .recover(err -> local.holds(sessionId) || node == null ? Future.failedFuture(err)
                : target(sessionId).compose(next -> next == null || next.equals(members.self()) ? Future.failedFuture(err)
                    : forward(next, request).map(journaled -> results(journaled, sessionId, turnId))));
      }
      // the same turn id again on the next owner is safe: a turn already journaled is not run twice (rule 1)
      return toOwner(node, request, journaled -> results(journaled, sessionId, turnId), replacements,
          () -> accept(request, turn, replyAddress, replacements - 1));
    });
  }

  private static JsonObject turnRequest(TurnRequest t, String replyAddress) {
    return new JsonObject().put("op", "turn").put("agent", t.agent()).put("sessionId", t.sessionId())
        .put("callerId", t.callerId()).put("creator", t.creator()).put("turn", t.turn().toJsonWithTrace())
        .put("replyAddress", replyAddress);
  }

  /**
   * Accepts the message on the member that runs its session; {@code answerTo} (null: none) travels
   * with it, and that member (or the one that continues its round after it dies) answers it.
   */
  public Future<Accepted<AgentReply>> acceptMessage(MessageRequest message, String answerTo) {
    // an id of its own, so that the message sent again to the next owner is journaled once
    String id = message.messageId() != null ? message.messageId() : UUID.randomUUID().toString();
    return acceptMessage(message.messageId(id), answerTo, REPLACEMENTS);
  }

  private Future<Accepted<AgentReply>> acceptMessage(MessageRequest m, String answerTo, int replacements) {
    return target(m.sessionId()).compose(node -> {
      if (node == null || node.equals(members.self())) {
        return local.acceptMessage(m, answerTo);
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
      JsonObject request = new JsonObject().put("op", "message").put("agent", m.agent())
          .put("sessionId", m.sessionId()).put("callerId", m.callerId()).put("creator", m.creator())
          .put("messageId", m.messageId()).put("text", m.text()).put("answerTo", answerTo)
          .put("replyAddress", replyAddress);
      return replies.completion()
          .compose(v -> toOwner(node, request, journaled -> new Accepted<>(reply.future()), replacements, () -> {
            replies.unregister();
            return acceptMessage(m, answerTo, replacements - 1);
          }))
          .onFailure(err -> replies.unregister());
    });
  }

  /**
   * Forwards a request to the member that owns its session and maps the answer. When that member
   * leaves the cluster (dies) before it answers, the request is placed again through {@code again}
   * as soon as this member learns of it, at most {@code replacements} times; a member that could
   * not be reached is given {@link #DEPARTURE_WAIT_MILLIS} to be found gone. docs/CLUSTER.md, "When
   * a member dies".
   */
  private <T> Future<T> toOwner(String node, JsonObject request, Function<JsonObject, T> answered, int replacements,
                                Supplier<Future<T>> again) {
    if (replacements <= 0) {
      return forward(node, request).map(answered);
    }
    Promise<T> result = Promise.promise();
    Promise<Void> departed = Promise.promise();
    Runnable cancel = members.onDeparture(node, departed::tryComplete);
    departed.future().onSuccess(v -> {
      if (!result.future().isComplete()) {
        LOG.info("cluster: member {} left before it answered for session {}; placing the request again", node,
            request.getString("sessionId"));
        again.get().onComplete(ar -> {
          if (ar.succeeded()) {
            result.tryComplete(ar.result());
          } else {
            result.tryFail(ar.cause());
          }
        });
      }
    });
    forward(node, request).onComplete(ar -> {
      if (ar.succeeded()) {
        cancel.run();
        if (!result.future().isComplete()) {
          result.tryComplete(answered.apply(ar.result()));
        }
      } else if (!RatchetException.is(ar.cause(), ErrorCode.NODE_UNAVAILABLE)) {
        cancel.run();
        result.tryFail(ar.cause());
      } else {
        // unreachable: re-placed if the cluster finds it gone in time, else this is the answer
        vertx.setTimer(DEPARTURE_WAIT_MILLIS, t -> {
          cancel.run();
          if (!departed.future().isComplete()) {
            result.tryFail(ar.cause());
          }
        });
      }
    });
    return result.future();
  }

  private Future<JsonObject> forward(String node, JsonObject request) {
    return vertx.eventBus().<JsonObject>request(address(node), request,
            new DeliveryOptions().setSendTimeout(FORWARD_TIMEOUT_MILLIS))
        .map(Message::body)
        .recover(err -> Future.failedFuture(Forwarded.error(err, node)));
  }

  /** Forwards a request to the member that runs its session now; fails when that is this one. */
  private Future<JsonObject> forwardOn(JsonObject request) {
    return target(request.getString("sessionId")).compose(node -> node == null || node.equals(members.self())
        ? Future.failedFuture(new RatchetException(ErrorCode.NODE_UNAVAILABLE, "member " + members.self()
            + " is leaving the cluster and no other member takes sessions"))
        : forward(node, request));
  }

  /** The results the owner answered a forwarded turn with, when it had them already; else once the journal has them. */
  private Accepted<TurnResult> results(JsonObject answer, String sessionId, String turnId) {
    JsonObject results = answer.getJsonObject("results");
    return new Accepted<>(results != null ? Future.succeededFuture(TurnResult.fromJson(results))
        : awaitResult(sessionId, turnId));
  }

  /** The turn's results once the journal has them: listens for its completion first, then looks. */
  private Future<TurnResult> awaitResult(String sessionId, String turnId) {
    Promise<TurnResult> promise = Promise.promise();
    MessageConsumer<JsonObject> consumer = StepEvents.consumer(vertx, sessionId, null);
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
