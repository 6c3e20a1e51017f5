package dev.ratchet.runtime.journal;

import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Whether a session's conversation has a round of the agent loop that has not ended: a user message
 * after the messages the last {@code end} entry covers. The agent loop resumes such a round when
 * its session starts, so it is work in flight.
 */
final class OpenRound {

  private OpenRound() {
  }

  static boolean in(List<JsonObject> entries) {
    long covered = 0;
    for (int i = entries.size() - 1; i >= 0; i--) {
      if ("end".equals(entries.get(i).getString("type"))) {
        covered = entries.get(i).getLong("covers", 0L);
        break;
      }
    }
    for (int i = (int) covered; i < entries.size(); i++) {
      if ("user".equals(entries.get(i).getString("type"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * From the conversation's length and last entry alone: true or false when they tell, null when
   * the entries the last end does not cover must be read.
   */
  static Boolean fromTail(long length, JsonObject last) {
    if (length == 0 || last == null) {
      return false;
    }
    if (!"end".equals(last.getString("type"))) {
      // a user message or a model response after the last end: its round has not ended
      return true;
    }
    return last.getLong("covers", 0L) >= length - 1 ? false : null;
  }
}
