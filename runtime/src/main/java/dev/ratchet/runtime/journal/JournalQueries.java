package dev.ratchet.runtime.journal;

import dev.ratchet.runtime.ApprovalRequest;
import dev.ratchet.runtime.CallId;
import dev.ratchet.runtime.Turn;
import dev.ratchet.runtime.TurnResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * The journal's read side, a port of its own beside {@link SessionJournal}: what the HTTP API, the
 * dashboard, the CLI and recovery's choice of sessions read. Reads take no
 * epoch and never change what a session holds; they see every step acknowledged before they were
 * sent. A read of a session the journal does not know answers empty (an empty object or list, or
 * null where so stated), never fails for that reason.
 */
public interface JournalQueries {

  /**
   * Session metadata: {@code agent}, {@code epoch}, {@code owner}, {@code createdAt},
   * {@code updatedAt} (numbers are longs), {@code caller} and {@code creator}, each when the session
   * has it; an empty object when the session is unknown.
   */
  Future<JsonObject> sessionInfo(String sessionId);

  /**
   * A session's step events in the order journaled, each {@code {id, type, turn, call, at, data}}
   * ({@code turn} and {@code call} only when the event has them): at most {@code count} events after
   * the event {@code afterId} (from the first when null). Fewer than {@code count} means there are
   * no more for now. Ids are opaque, increasing, and stable across reads. A {@code turn.submitted}
   * event's data is the turn's spec; a {@code call.completed} event's data is the call's record as
   * first journaled without its result, with the result's size in bytes ({@code resultBytes}).
   */
  Future<List<JsonObject>> events(String sessionId, String afterId, int count);

  /**
   * A completed turn's results, its calls' records in the model's order as they were first journaled
   * (J7: a later reconciliation does not change what a completed turn answers); null when the turn is
   * unknown or still running.
   */
  Future<TurnResult> turnResult(String sessionId, String turnId);

  /**
   * Whether the journal holds the turn: {@code "running"} or {@code "completed"}; null when it does
   * not (never accepted, for a turn refused at submission is not journaled, or removed by retention).
   */
  Future<String> turnStatus(String sessionId, String turnId);

  /** Session ids by last activity, most recent first: {@code limit} of them from {@code offset}. */
  Future<List<String>> recentSessions(int offset, int limit);

  /** The agent of each of these sessions; sessions the journal does not know are left out. */
  Future<Map<String, String>> sessionAgents(List<String> sessionIds);

  /** Pending approvals across sessions, oldest request first, at most {@code limit}; decided ones are never listed. */
  Future<List<ApprovalRequest>> pendingApprovals(int limit);

  /** The approval request a call journaled, decided or not; null when it asked none. */
  Future<ApprovalRequest> approvalRequest(String sessionId, CallId callId);

  /** A session's conversation entries (agent loop) in order: user messages, model responses, round ends. */
  Future<List<JsonObject>> conversation(String sessionId);

  /** What the journal holds about one call; {@link CallState#fresh} when nothing. */
  Future<CallState> callState(String sessionId, CallId callId);

  /** The calls turn {@code turnId} was submitted with; null when the session has no such turn. */
  Future<Turn> submittedTurn(String sessionId, String turnId);

  /**
   * The session in which {@code callerId}'s turn {@code turnId} of {@code agent} runs: the session
   * it was first placed in, else {@code sessionId}, which is recorded for it now (for
   * {@link #TURN_HOME_MILLIS}). Lets a client that lost its session find its turn again.
   */
  Future<String> turnHome(String callerId, String agent, String turnId, String sessionId);

  /** How long {@link #turnHome} remembers where a turn runs. */
  long TURN_HOME_MILLIS = 7L * 24 * 3600 * 1000;

  /** The session's current epoch; 0 when it was never claimed. */
  Future<Long> currentEpoch(String sessionId);

  /** Turns journaled but not completed, oldest first, with each call's state. */
  Future<List<InflightTurn>> inflightTurns(String sessionId);

  /**
   * Sessions that may have work in flight: listed by a submit or a user message, until
   * {@link SessionJournal#markIdle}.
   */
  Future<List<String>> activeSessions();

  /**
   * The sessions among {@code sessionIds} with work in flight: a turn not completed, or a round of
   * the agent loop not ended. A session of {@link #activeSessions} without either has nothing to resume.
   */
  Future<List<String>> withWorkInFlight(List<String> sessionIds);
}
