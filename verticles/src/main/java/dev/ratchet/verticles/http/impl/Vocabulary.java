package dev.ratchet.verticles.http.impl;

import dev.ratchet.runtime.ErrorCode;
import dev.ratchet.runtime.EventType;
import dev.ratchet.runtime.Outcome;
import dev.ratchet.runtime.VisibleText;
import dev.ratchet.verticles.http.TimelineStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The vocabulary the dashboard shares with the server, generated from the enums that define it:
 * error codes with their HTTP status and meaning, event types, call statuses and outcomes, and the
 * data of the rule that shows unusual text as escapes ({@link VisibleText#rules}). It is
 * checked in as {@code webroot/assets/vocabulary.json} so the dashboard reads it as a plain file.
 */
public final class Vocabulary {

  /** Where the generated file lives, relative to the {@code verticles} module. */
  public static final String FILE = "src/main/resources/webroot/assets/vocabulary.json";

  private Vocabulary() {
  }

  public static JsonObject json() {
    JsonObject errors = new JsonObject();
    for (ErrorCode c : ErrorCode.values()) {
      errors.put(c.wireName(), new JsonObject().put("status", c.httpStatus()).put("meaning", c.meaning()));
    }
    JsonObject events = new JsonObject();
    for (EventType t : EventType.values()) {
      events.put(t.wireName(), t.meaning());
    }
    JsonObject statuses = new JsonObject();
    for (TimelineStatus s : TimelineStatus.values()) {
      statuses.put(s.wireName(), new JsonObject().put("label", s.label()).put("terminal", s.terminal()));
    }
    JsonArray outcomes = new JsonArray();
    for (Outcome o : Outcome.values()) {
      outcomes.add(o.wireName());
    }
    return new JsonObject().put("errorCodes", errors).put("eventTypes", events).put("callStatuses", statuses)
        .put("outcomes", outcomes).put("visibleText", VisibleText.rules());
  }

  /** The file's text: the JSON indented, with a final newline. */
  public static String text() {
    return json().encodePrettily() + "\n";
  }
}
