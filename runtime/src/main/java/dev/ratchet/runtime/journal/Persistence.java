package dev.ratchet.runtime.journal;

/**
 * What the journal's Redis server guarantees for an acknowledged step: whether it is written to
 * the AOF and how often that is synced, and whether Redis may evict journal keys when it is full.
 */
public record Persistence(boolean aofEnabled, String appendfsync, String redisVersion, long maxmemory,
                          String maxmemoryPolicy) {

  /** A server without a memory limit (the journal's keys are never evicted). */
  public Persistence(boolean aofEnabled, String appendfsync, String redisVersion) {
    this(aofEnabled, appendfsync, redisVersion, 0, "noeviction");
  }

  /**
   * True when Redis may evict journal keys: a memory limit with an {@code allkeys-*} policy. The
   * journal's keys never expire, so {@code volatile-*} policies leave them alone, and
   * {@code noeviction} refuses new steps when memory is full rather than dropping old ones.
   */
  public boolean mayEvictJournal() {
    return maxmemory > 0 && maxmemoryPolicy != null && maxmemoryPolicy.startsWith("allkeys-");
  }

  /** Whether an acknowledged step is at risk: no AOF, or keys Redis may evict. */
  public boolean atRisk() {
    return !aofEnabled || mayEvictJournal();
  }

  /** One line for the start-up log. */
  public String describe() {
    String line;
    if (!aofEnabled) {
      line = "Redis " + redisVersion + ": AOF off: acknowledged steps will NOT survive a Redis restart"
          + " (enable appendonly yes, with appendfsync always for the strictest setting)";
    } else {
      String loss = "always".equals(appendfsync) ? "no acknowledged step is lost on a Redis crash"
          : "everysec".equals(appendfsync) ? "up to about one second of acknowledged steps may be lost on a power loss"
          : "acknowledged steps may be lost on a crash (fsync left to the OS)";
      line = "Redis " + redisVersion + ": AOF on, appendfsync " + appendfsync + ": " + loss;
    }
    if (mayEvictJournal()) {
      line += "; maxmemory-policy " + maxmemoryPolicy + " with maxmemory " + maxmemory + ": Redis may EVICT journal"
          + " keys when memory is full, and a write whose record was evicted could be sent again"
          + " (set maxmemory-policy noeviction)";
    }
    return line;
  }
}
