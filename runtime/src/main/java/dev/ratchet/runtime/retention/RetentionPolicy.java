package dev.ratchet.runtime.retention;

import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * How long an agent's sessions keep their completed turns in the journal. A completed turn is
 * removed (archived first) once no rule that is set keeps it: {@code keepFor} keeps turns completed
 * more recently than that, {@code keepLast} the last N completed turns of each session; with
 * neither set, turns are kept. A session with no activity for {@code idleAfter} is archived whole:
 * its turns and events leave the journal, its meta stays. Null means "not set". Whatever the policy,
 * J9 holds: a call without a final outcome, an unreconciled {@code outcome_unknown}, a pending
 * approval and the session's meta are never removed.
 */
public record RetentionPolicy(Duration keepFor, Integer keepLast, Duration idleAfter) {

  /** Keeps everything: the journal as it was before retention. */
  public static final RetentionPolicy KEEP_ALL = new RetentionPolicy(null, null, null);

  public RetentionPolicy {
    if (keepFor != null && keepFor.isNegative()) {
      throw new IllegalArgumentException("retention keepFor must not be negative");
    }
    if (keepLast != null && keepLast < 0) {
      throw new IllegalArgumentException("retention keepLast must not be negative");
    }
    if (idleAfter != null && (idleAfter.isNegative() || idleAfter.isZero())) {
      throw new IllegalArgumentException("retention idleAfter must be positive");
    }
  }

  /** Whether the policy removes anything at all. */
  public boolean removesAnything() {
    return keepFor != null || keepLast != null || idleAfter != null;
  }

  /** Reads {@code keepForMillis}, {@code keepLast} and {@code idleAfterMillis} (each null or absent: not set). */
  public static RetentionPolicy fromJson(JsonObject json) {
    if (json == null) {
      return KEEP_ALL;
    }
    Long keepFor = json.getLong("keepForMillis");
    Long idle = json.getLong("idleAfterMillis");
    return new RetentionPolicy(keepFor == null ? null : Duration.ofMillis(keepFor), json.getInteger("keepLast"),
        idle == null ? null : Duration.ofMillis(idle));
  }

  public JsonObject toJson() {
    return new JsonObject().put("keepForMillis", keepFor == null ? null : keepFor.toMillis())
        .put("keepLast", keepLast).put("idleAfterMillis", idleAfter == null ? null : idleAfter.toMillis());
  }
}
