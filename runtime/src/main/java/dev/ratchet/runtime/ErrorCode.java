package dev.ratchet.runtime;

/**
 * Every code a {@link RatchetException} carries, with the HTTP status the HTTP API and the
 * event-bus API answer it with and what it means. The constant's name is the wire name.
 */
public enum ErrorCode {
  INVALID_REQUEST(400, "the request is malformed; the message names the field"),
  INVALID_ID(400, "an id outside the id alphabet"),
  TOO_MANY_CALLS(400, "more calls in one turn than engine.maxCallsPerTurn"),
  ARGUMENTS_TOO_LARGE(400, "a call's arguments are over engine.maxArgumentsBytes"),
  UNAUTHENTICATED(401, "not logged in, or the bearer token is not valid"),
  FORBIDDEN(403, "the caller's role or tenants do not allow this"),
  CSRF(403, "missing or wrong X-CSRF-Token header; reload the page"),
  CALLER_MISMATCH(403, "the session belongs to another caller"),
  FOUR_EYES(403, "the session's creator may not decide its writes"),
  UNKNOWN_AGENT(404, "no agent of that name"),
  UNKNOWN_CALL(404, "no such call, or no approval was requested for it"),
  UNKNOWN_TURN(404, "the session holds no such turn: never accepted (a refused turn is not journaled) or removed by retention"),
  UNKNOWN_SESSION(404, "no such session, or not one of the caller's"),
  NOT_FOUND(404, "no such endpoint or resource"),
  UNKNOWN_CONNECTION(404, "no such provider connection, or not one of the caller's"),
  TURN_ID_REUSED(409, "the turn id was used before with other calls"),
  SESSION_EXISTS(409, "the journal already holds this session; import never overwrites one"),
  STALE_DECISION(409, "the decision names arguments other than the ones the call waits with"),
  ALREADY_DECIDED(409, "the call was already decided"),
  APPROVAL_EXPIRED(409, "the approval request expired, which counts as rejected"),
  AGENT_MISMATCH(409, "the session belongs to another agent"),
  NOT_UNKNOWN(409, "only a call whose outcome is unknown can be reconciled"),
  NO_MODEL(409, "the agent has no model, so it cannot answer messages"),
  TURN_INCOMPLETE(409, "not every call of an MCP turn arrived in time, or they disagree on the turn's size"),
  TURN_EXPIRED(410, "the turn was removed by retention and its tombstone window has passed; use a new turn id"),
  SESSION_FORGOTTEN(410, "retention archived the session and then forgot it; its id is not used again, start a new session"),
  SESSION_ERASED(410, "an operator erased the session; its id is not used again, start a new session"),
  PAYLOAD_TOO_LARGE(413, "the request body is over the limit"),
  TOO_MANY_ATTEMPTS(429, "too many failed log-ins; try again after Retry-After seconds"),
  JOURNAL_UNAVAILABLE(503, "the journal cannot be reached; try again"),
  FENCED(503, "a newer owner claimed the session; try again"),
  JOURNAL_NOT_REPLICATED(503, "a step reached fewer Redis replicas than journal.waitReplicas asks for in time"),
  NODE_UNAVAILABLE(503, "the cluster node that owns the session did not answer; try again"),
  NOT_READY(503, "this member is still starting (journal, agent files, cluster placement); try again after Retry-After seconds"),
  SESSION_STORE_UNAVAILABLE(503, "a login could not be stored or read; try again later"),
  INTERNAL(500, "the request failed; see the server log"),
  JOURNAL_ERROR(500, "the journal refused a step"),
  JOURNAL_INCOMPLETE(500, "the journal lacks a record it should hold"),
  JOURNAL_LAYOUT(500, "the journal was written in another layout"),
  ARCHIVE_ERROR(500, "the retention archive could not be read or written"),
  STEP_OUT_OF_ORDER(500, "a model response for a loop step that is not the next one"),
  STOPPED(500, "the session stopped"),
  PASSIVATED(500, "the session is being passivated; the request goes to its next instance"),
  TOOL_SOURCE(500, "a tool source could not list its tools"),
  INVALID_TOOL(500, "a tool's definition is not valid"),
  DUPLICATE_TOOL(500, "two tools of an agent have the same name"),
  DUPLICATE_AGENT(500, "an agent of that name is registered already"),
  UNKNOWN_TOOL(500, "no tool of that name"),
  INVALID_MANIFEST(500, "a connector manifest is not valid"),
  INVALID_CONNECTIONS(500, "a connections file is not valid"),
  NO_IDENTITY(500, "a tool provider call names no identity to act as"),
  NOT_ALLOWED(500, "not allowed by the tool provider's allow-list"),
  CONNECTION_NOT_OWNED(500, "the connection is not one of the caller's"),
  UNSUPPORTED(500, "the tool provider does not support this"),
  INVALID_CURSOR(500, "a page cursor this tool provider did not give"),
  PROVIDER_ERROR(500, "the tool provider answered with an error");

  private final int httpStatus;
  private final String meaning;

  ErrorCode(int httpStatus, String meaning) {
    this.httpStatus = httpStatus;
    this.meaning = meaning;
  }

  /** The status the HTTP API answers with, also the failure code of an event-bus reply. */
  public int httpStatus() {
    return httpStatus;
  }

  public String meaning() {
    return meaning;
  }

  public String wireName() {
    return name();
  }
}
