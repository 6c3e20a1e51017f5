package dev.ratchet.verticles.impl;

import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.agent.MessageReplies;
import dev.ratchet.runtime.engine.StepEventListener;
import dev.ratchet.runtime.engine.TurnReplies;
import dev.ratchet.runtime.session.SessionHooks;
import dev.ratchet.verticles.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

/**
 * A node's sessions on the event bus: step events published to {@link Addresses#events} while
 * anyone listens, approval notices always, and the outcomes of turns and messages sent to their reply addresses
 * (docs/EVENT-BUS.md).
 */
final class EventBusHooks implements SessionHooks {

  /** Default delivery, shared: publishing reads it and never changes it. */
  private static final DeliveryOptions PUBLISH = new DeliveryOptions();

  private final Vertx vertx;

  EventBusHooks(Vertx vertx) {
    this.vertx = vertx;
  }

  @Override
  public StepEventListener events(String sessionId) {
    String events = Addresses.events(sessionId);
    EventAudience audience = new EventAudience(vertx);
    return new StepEventListener() {
      @Override
      public boolean wants(String type) {
        return audience.any(events) || EventType.APPROVAL_REQUESTED.wireName().equals(type);
      }

      @Override
      public void accept(JsonObject event) {
        if (audience.any(events)) {
          vertx.eventBus().publish(events, event, PUBLISH);
        }
        ApprovalNotice.publish(vertx, sessionId, event);
      }
    };
  }

  @Override
  public TurnReplies replies(String sessionId) {
    return (address, turnId, outcome) -> vertx.eventBus().send(address,
        EventBusApi.turnReply(sessionId, turnId, outcome));
  }

  @Override
  public MessageReplies messageReplies(String sessionId) {
    return (address, messageId, outcome) -> vertx.eventBus().send(address,
        EventBusApi.messageReply(sessionId, messageId, outcome));
  }
}
