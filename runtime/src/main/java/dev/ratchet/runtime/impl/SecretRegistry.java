package dev.ratchet.runtime.impl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The secret values this process has revealed, and every form of each (see {@link SecretForms}),
 * for the one redactor that all tool sources, the engine and the log output go through. A secret
 * whose supplier starts returning a new value keeps its last {@link #HISTORY} values: text produced
 * with the old one (a child process started before the rotation, a late reply) is still scrubbed.
 */
public final class SecretRegistry {

  /** Values shorter than this are not scrubbed: they would blank out ordinary words. */
  public static final int MIN_LENGTH = 4;

  /** How many values of one rotated secret are kept. */
  public static final int HISTORY = 4;

  /**
   * How many secrets are remembered; past it the one used longest ago is forgotten, so that code
   * creating a secret per request cannot grow this without bound.
   */
  static final int MAX_SECRETS = 1024;

  private static final SecretRegistry GLOBAL = new SecretRegistry();

  private final Map<Object, Deque<String>> values = new LinkedHashMap<>(16, 0.75f, true);
  /** The forms of each value, computed once: a supplier may hand out a new value often. */
  private final Map<String, List<String>> formsOf = new HashMap<>();
  /** Every form of every value, longest first, so that a whole form is replaced before a shorter part of it. */
  private volatile String[] forms = new String[0];

  public static SecretRegistry global() {
    return GLOBAL;
  }

  /**
   * Notes that the secret identified by {@code key} has the value {@code value}. Called at every
   * reveal, so the common case (the same value again) returns before any work.
   */
  public void record(Object key, String value) {
    if (value == null || value.length() < MIN_LENGTH) {
      return;
    }
    synchronized (this) {
      Deque<String> history = values.get(key);
      if (history != null && value.equals(history.peekFirst())) {
        return;
      }
      if (history == null) {
        history = new ArrayDeque<>(HISTORY);
        values.put(key, history);
        if (values.size() > MAX_SECRETS) {
          values.remove(values.keySet().iterator().next());
        }
      }
      history.remove(value);
      history.addFirst(value);
      while (history.size() > HISTORY) {
        history.removeLast();
      }
      rebuild();
    }
  }

  private void rebuild() {
    Set<String> all = new LinkedHashSet<>();
    Map<String, List<String>> kept = new HashMap<>();
    for (Deque<String> history : values.values()) {
      for (String v : history) {
        List<String> forms = formsOf.get(v);
        kept.put(v, forms != null ? forms : SecretForms.of(v));
        all.addAll(kept.get(v));
      }
    }
    formsOf.clear();
    formsOf.putAll(kept);
    List<String> sorted = new ArrayList<>(all);
    sorted.removeIf(f -> f.length() < MIN_LENGTH);
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    forms = sorted.toArray(new String[0]);
  }

  /** {@code text} with every form of every known value replaced by {@code ***}. */
  public String scrub(String text) {
    if (text == null || text.length() < MIN_LENGTH) {
      return text;
    }
    String out = text;
    for (String form : forms) {
      if (out.contains(form)) {
        out = out.replace(form, "***");
      }
    }
    return out;
  }

  /** True when no secret has been revealed yet: callers may then skip work. */
  public boolean isEmpty() {
    return forms.length == 0;
  }
}
