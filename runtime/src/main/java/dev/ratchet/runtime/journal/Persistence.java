package dev.ratchet.runtime.journal;

/** What the journal's Redis server guarantees for an acknowledged step. */
public record Persistence(boolean aofEnabled, String appendfsync, String redisVersion) {

  /** One line for the start-up log. */
  public String describe() {
    if (!aofEnabled) {
      return "Redis " + redisVersion + ": AOF off: acknowledged steps will NOT survive a Redis restart"
          + " (enable appendonly yes, with appendfsync always for the strictest setting)";
    }
    String loss = "always".equals(appendfsync) ? "no acknowledged step is lost on a Redis crash"
        : "everysec".equals(appendfsync) ? "up to about one second of acknowledged steps may be lost on a power loss"
        : "acknowledged steps may be lost on a crash (fsync left to the OS)";
    return "Redis " + redisVersion + ": AOF on, appendfsync " + appendfsync + ": " + loss;
  }
}
