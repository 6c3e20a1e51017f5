package dev.ratchet.runtime.session;

import dev.ratchet.runtime.agent.MessageReplies;
import dev.ratchet.runtime.engine.StepEventListener;
import dev.ratchet.runtime.engine.TurnReplies;
import io.vertx.core.json.JsonObject;

/**
 * What the host of sessions does with what a session produces beyond its journal: its step events
 * (and its agent loop's), and the answers to turns and messages submitted with a reply address. A deployed node
 * publishes them on the event bus; an in-memory Ratchet drops them.
 */
public interface SessionHooks {

  /** Hears nothing and answers nothing. */
  SessionHooks NONE = new SessionHooks() {
  };

  /** The listener of a session's step events and agent-loop events, built when the session starts. */
  default StepEventListener events(String sessionId) {
    return SILENT;
  }

  /** Where the outcomes of the session's turns that named a reply address go. */
  default TurnReplies replies(String sessionId) {
    return TurnReplies.NONE;
  }

  /** Where the replies to the session's user messages that named a reply address go. */
  default MessageReplies messageReplies(String sessionId) {
    return MessageReplies.NONE;
  }

  /** A listener that wants no event. */
  StepEventListener SILENT = new StepEventListener() {
    @Override
    public boolean wants(String type) {
      return false;
    }

    @Override
    public void accept(JsonObject event) {
    }
  };
}
