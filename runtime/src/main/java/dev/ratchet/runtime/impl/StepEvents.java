package dev.ratchet.runtime.impl;

import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.function.Consumer;

/** Builds a session's step event and hands it to the listener; a failing listener never stops the session. */
public final class StepEvents {

  private static final Logger LOG = LoggerFactory.getLogger(StepEvents.class);

  private StepEvents() {
  }

  /** Hands {@code listener} the event of a step written at {@code at} (epoch milliseconds of the session's clock). */
  public static void emit(Consumer<JsonObject> listener, long at, String sessionId, String type, String turnId,
                          String callId, JsonObject data) {
    // six fields at most: a map sized for them is never grown
    JsonObject event = new JsonObject(new LinkedHashMap<>(8)).put("type", type).put("sessionId", sessionId)
        .put("at", at);
    if (turnId != null) {
      event.put("turnId", turnId);
    }
    if (callId != null) {
      event.put("callId", callId);
    }
    event.put("data", data);
    try {
      listener.accept(event);
    } catch (RuntimeException e) {
      LOG.warn("session {}: an event listener failed: {}", sessionId, e.toString());
    }
  }
}
