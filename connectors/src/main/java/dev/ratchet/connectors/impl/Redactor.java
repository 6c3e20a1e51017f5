package dev.ratchet.connectors.impl;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Removes credential values from anything that leaves a connector. A provider that echoes a
 * request (some do, in error bodies) must not carry a secret into a result or an error.
 */
public final class Redactor {

  private final List<String> secrets;

  public Redactor(List<String> secrets) {
    this.secrets = secrets.stream().filter(s -> s != null && s.length() >= 4).toList();
  }

  public String text(String s) {
    if (s == null) {
      return null;
    }
    String out = s;
    for (String secret : secrets) {
      out = out.replace(secret, "***");
    }
    return out;
  }

  public Object value(Object value) {
    if (secrets.isEmpty() || value == null) {
      return value;
    }
    if (value instanceof JsonObject o) {
      String enc = o.encode();
      String red = text(enc);
      return enc.equals(red) ? o : new JsonObject(red);
    }
    if (value instanceof JsonArray a) {
      String enc = a.encode();
      String red = text(enc);
      return enc.equals(red) ? a : new JsonArray(red);
    }
    if (value instanceof String s) {
      return text(s);
    }
    return value;
  }
}
