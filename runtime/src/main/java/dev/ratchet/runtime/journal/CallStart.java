package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.CallId;
import io.vertx.core.json.JsonObject;

/**
 * A write's "started" step (J2) carried by another journal step of the same turn, so that the
 * write's request can leave without a round trip of its own.
 *
 * @param callId the write's call id
 * @param attempt the attempt about to be sent
 * @param data the {@code call.started} event data
 */
public record CallStart(CallId callId, int attempt, JsonObject data) {
}
