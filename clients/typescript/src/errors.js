/**
 * An error answered by the Ratchet API: the HTTP status and the API's error code
 * (`UNKNOWN_SESSION`, `TURN_ID_REUSED`, `STALE_DECISION`, ...; see docs/HTTP-API.md).
 */
export class RatchetError extends Error {
  constructor(status, code, message) {
    super(message ? `${code}: ${message}` : code);
    this.name = 'RatchetError';
    this.status = status;
    this.code = code;
    this.apiMessage = message;
  }

  /**
   * Whether the same request may be sent again as it is: the journal or a fence was briefly
   * unavailable, a proxy answered 502, 503 or 504, or the answer was not Ratchet's.
   */
  get retryable() {
    return this.status === 503 || this.status === 502 || this.status === 504 || this.code === 'NOT_RATCHET'
      || this.code === 'UNREACHABLE';
  }
}

/**
 * A tool call that did not succeed: `failed` (a person refused it, invalid arguments, the tool
 * failed, or skipped after an earlier write failed) or `outcome_unknown` (a write may have taken
 * effect). Its message is the text Ratchet writes for the model.
 */
export class ToolCallError extends Error {
  constructor(call) {
    super(call.error ?? `the call ended ${call.outcome}`);
    this.name = 'ToolCallError';
    this.call = call;
    this.outcome = call.outcome;
    this.skipped = call.skipped === true;
  }
}
