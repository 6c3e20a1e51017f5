package dev.ratchet.connectors.mcp.impl;

import dev.ratchet.runtime.Secret;
import dev.ratchet.runtime.ToolNotSentException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * Replaces the current values of configured secrets with {@code ***} in text that leaves the
 * source: error messages, health, logs and tool results. A server may echo a credential it was
 * given; it must still never reach the journal.
 */
public final class Redactor {

  /** Shorter values would blank out ordinary words; such secrets are not worth guessing anyway. */
  private static final int MIN_LENGTH = 4;

  private final List<Secret> secrets;

  public Redactor(List<Secret> secrets) {
    this.secrets = List.copyOf(secrets);
  }

  public String scrub(String text) {
    if (text == null || secrets.isEmpty()) {
      return text;
    }
    String out = text;
    for (Secret secret : secrets) {
      String value;
      try {
        value = secret.reveal();
      } catch (ToolNotSentException e) {
        continue;
      }
      if (value.length() >= MIN_LENGTH) {
        out = out.replace(value, "***");
      }
    }
    return out;
  }

  /** Scrubs every string inside a JSON-compatible value. */
  public Object scrubValue(Object value) {
    if (value instanceof String s) {
      return scrub(s);
    }
    if (value instanceof JsonObject o) {
      JsonObject copy = new JsonObject();
      for (Map.Entry<String, Object> e : o) {
        copy.put(scrub(e.getKey()), scrubValue(e.getValue()));
      }
      return copy;
    }
    if (value instanceof JsonArray a) {
      JsonArray copy = new JsonArray();
      for (Object item : a) {
        copy.add(scrubValue(item));
      }
      return copy;
    }
    return value;
  }
}
