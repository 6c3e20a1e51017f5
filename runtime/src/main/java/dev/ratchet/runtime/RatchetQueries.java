package dev.ratchet.runtime;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * What a {@link Ratchet} holds, read only: its agents, its sessions, their step events, turns'
 * results, approval requests and conversations. Reads never change a session; a session or turn
 * it does not know answers empty (or null where so stated).
 */
public interface RatchetQueries {

  /** The names of the registered agents. */
  List<String> agents();

  /** The resolved tools of a registered agent; null when none has that name. */
  ToolCatalog catalog(String agent);

  /** Session ids by last activity, most recent first: {@code limit} of them from {@code offset}. */
  Future<List<String>> sessions(int offset, int limit);

  /**
   * A session's metadata: {@code agent}, {@code createdAt}, {@code updatedAt}, and {@code caller}
   * and {@code creator} when it has them; empty when the session is unknown.
   */
  Future<JsonObject> session(String sessionId);

  /**
   * A session's step events in the order journaled, each {@code {id, type, turn, call, at, data}}:
   * at most {@code count} after the event {@code afterId} (from the first when null).
   */
  Future<List<JsonObject>> events(String sessionId, String afterId, int count);

  /** A completed turn's results; null while it runs or when it is unknown. */
  Future<TurnResult> turnResult(String sessionId, String turnId);

  /** The approval request a call made, decided or not; null when it asked none. */
  Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId);

  /**
   * A session's conversation: {@code {"sessionId", "messages": [...]}} with user messages, model
   * responses (with their tool calls' results) and final answers.
   */
  Future<JsonObject> conversation(String sessionId);
}
