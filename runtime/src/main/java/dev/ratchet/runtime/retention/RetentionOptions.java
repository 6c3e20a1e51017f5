package dev.ratchet.runtime.retention;

import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * The {@code retention} section of the configuration: whether the sweeper runs, the default policy
 * of agents that set none, how long tombstones answer resubmissions, how often and how much the
 * sweeper works, where the default archive writes, and how long an archived session's stub stays
 * before the journal forgets it ({@code forgetAfter}, null: never; at least the tombstone window).
 */
public record RetentionOptions(boolean enabled, RetentionPolicy defaultPolicy, Duration tombstoneWindow,
                               Duration sweepInterval, int sweepBatch, String archiveDir, long archiveMaxFileBytes,
                               Duration forgetAfter) {

  public static final RetentionOptions DISABLED = new RetentionOptions(false, RetentionPolicy.KEEP_ALL,
      Duration.ofDays(7), Duration.ofSeconds(10), 100, "./data/archive", 64L * 1024 * 1024, null);

  public RetentionOptions {
    if (tombstoneWindow.isNegative()) {
      throw new IllegalArgumentException("retention.tombstoneWindowMillis must not be negative");
    }
    if (sweepInterval.toMillis() < 1 || sweepBatch < 1 || archiveMaxFileBytes < 1) {
      throw new IllegalArgumentException("retention.sweepIntervalMillis, sweepBatch and archive.maxFileBytes must be positive");
    }
    // a session forgotten before its tombstones expired would lose the answers they give
    if (forgetAfter != null && forgetAfter.compareTo(tombstoneWindow) < 0) {
      throw new IllegalArgumentException("retention.forgetArchivedAfterMillis must be at least retention.tombstoneWindowMillis");
    }
  }

  /** Options that never forget an archived session. */
  public RetentionOptions(boolean enabled, RetentionPolicy defaultPolicy, Duration tombstoneWindow,
                          Duration sweepInterval, int sweepBatch, String archiveDir, long archiveMaxFileBytes) {
    this(enabled, defaultPolicy, tombstoneWindow, sweepInterval, sweepBatch, archiveDir, archiveMaxFileBytes, null);
  }

  public static RetentionOptions fromJson(JsonObject json) {
    if (json == null) {
      return DISABLED;
    }
    JsonObject archive = json.getJsonObject("archive", new JsonObject());
    RetentionOptions d = DISABLED;
    return new RetentionOptions(json.getBoolean("enabled", false), RetentionPolicy.fromJson(json),
        Duration.ofMillis(json.getLong("tombstoneWindowMillis", d.tombstoneWindow.toMillis())),
        Duration.ofMillis(json.getLong("sweepIntervalMillis", d.sweepInterval.toMillis())),
        json.getInteger("sweepBatch", d.sweepBatch), archive.getString("dir", d.archiveDir),
        archive.getLong("maxFileBytes", d.archiveMaxFileBytes),
        json.getLong("forgetArchivedAfterMillis") == null ? null
            : Duration.ofMillis(json.getLong("forgetArchivedAfterMillis")));
  }

  public RetentionOptions withDefaultPolicy(RetentionPolicy policy) {
    return new RetentionOptions(enabled, policy, tombstoneWindow, sweepInterval, sweepBatch, archiveDir, archiveMaxFileBytes, forgetAfter);
  }

  public RetentionOptions withEnabled(boolean on) {
    return new RetentionOptions(on, defaultPolicy, tombstoneWindow, sweepInterval, sweepBatch, archiveDir, archiveMaxFileBytes, forgetAfter);
  }

  public RetentionOptions withTombstoneWindow(Duration window) {
    return new RetentionOptions(enabled, defaultPolicy, window, sweepInterval, sweepBatch, archiveDir, archiveMaxFileBytes, forgetAfter);
  }

  public RetentionOptions withSweepInterval(Duration interval) {
    return new RetentionOptions(enabled, defaultPolicy, tombstoneWindow, interval, sweepBatch, archiveDir, archiveMaxFileBytes, forgetAfter);
  }

  public RetentionOptions withArchiveDir(String dir) {
    return new RetentionOptions(enabled, defaultPolicy, tombstoneWindow, sweepInterval, sweepBatch, dir, archiveMaxFileBytes, forgetAfter);
  }

  public RetentionOptions withForgetAfter(Duration after) {
    return new RetentionOptions(enabled, defaultPolicy, tombstoneWindow, sweepInterval, sweepBatch, archiveDir, archiveMaxFileBytes, after);
  }

  public RetentionOptions withSweepBatch(int batch) {
    return new RetentionOptions(enabled, defaultPolicy, tombstoneWindow, sweepInterval, batch, archiveDir, archiveMaxFileBytes, forgetAfter);
  }
}
