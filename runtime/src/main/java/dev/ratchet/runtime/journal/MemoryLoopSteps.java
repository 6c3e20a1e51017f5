package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.RatchetException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import static dev.ratchet.runtime.journal.MemoryStore.ownSession;

/**
 * The in-memory journal's steps of the agent loop (user messages, model responses, round ends)
 * and the recovery index they and turns keep.
 */
record MemoryLoopSteps(MemoryStore store, Vertx vertx) implements LoopSteps {

  @Override
  public Future<ConversationAppend> messageUser(UserMessage message) {
    String encoded = message.entry().encode();
    String data = message.eventData().encode();
    return store.step(vertx, () -> {
      long now = store.now();
      MemorySession s = store.entered(message.sessionId(), message.epoch(), message.callerId(), true, now);
      Long known = s.messages.get(message.messageId());
      if (known != null) {
        return new ConversationAppend(known, false, message.entry());
      }
      ownSession(s, message.agent(), message.callerId(), message.creator(), now);
      s.updatedAt = now;
      long index = push(s, encoded);
      s.messages.put(message.messageId(), index);
      s.append(EventType.MESSAGE_USER.wireName(), null, null, now, data);
      return new ConversationAppend(index, true, message.entry());
    });
  }

  @Override
  public Future<ConversationAppend> modelResponse(String sessionId, long epoch, long step, String turnId,
                                                  JsonObject entry, JsonObject eventData) {
    String encoded = entry.encode();
    String data = eventData.encode();
    return store.step(vertx, () -> {
      long now = store.now();
      store.recent.put(sessionId, now);
      MemorySession s = store.fenced(sessionId, epoch);
      Long known = s.modelSteps.get(step);
      if (known != null) {
        return new ConversationAppend(known, false, new JsonObject(s.conversation.get(known.intValue())));
      }
      if (step != s.lastStep + 1) {
        throw new RatchetException(ErrorCode.STEP_OUT_OF_ORDER, "session " + sessionId + ": step " + step
            + " does not follow the last recorded step " + s.lastStep);
      }
      s.updatedAt = now;
      long index = push(s, encoded);
      s.modelSteps.put(step, index);
      s.lastStep = step;
      s.append(EventType.MODEL_RESPONSE.wireName(), turnId, null, now, data);
      return new ConversationAppend(index, true, entry);
    });
  }

  @Override
  public Future<ConversationAppend> roundEnded(String sessionId, long epoch, String endId, String eventType,
                                               JsonObject entry, JsonObject eventData) {
    String encoded = entry.encode();
    String data = eventData.encode();
    return store.step(vertx, () -> {
      MemorySession s = store.fenced(sessionId, epoch);
      Long known = s.ends.get(endId);
      if (known != null) {
        return new ConversationAppend(known, false, entry);
      }
      long now = store.now();
      s.updatedAt = now;
      long index = push(s, encoded);
      s.ends.put(endId, index);
      s.append(eventType, null, null, now, data);
      return new ConversationAppend(index, true, entry);
    });
  }

  private static long push(MemorySession s, String entry) {
    s.conversation.add(entry);
    return s.conversation.size() - 1;
  }
}
