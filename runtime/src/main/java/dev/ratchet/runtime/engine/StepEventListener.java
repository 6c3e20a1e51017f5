package dev.ratchet.runtime.engine;

import io.vertx.core.json.JsonObject;

import java.util.function.Consumer;

/**
 * A session's step-event listener that tells when an event would reach no one, so that the engine
 * builds none: a session whose events nobody hears allocates nothing for them.
 */
public interface StepEventListener extends Consumer<JsonObject> {

  /** Whether an event of {@code type} built now would reach anyone; when false, none is built or handed over. */
  boolean wants(String type);
}
