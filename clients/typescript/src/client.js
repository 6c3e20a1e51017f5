import { RatchetError, ToolCallError } from './errors.js';

const RETRY_DELAYS_MS = [200, 500, 1000, 2000, 4000];
const LONG_POLL_SECONDS = 30;
/** How long waiting for a turn lasts by default, through restarts of Ratchet and proxy errors. */
export const DEFAULT_TURN_TIMEOUT_MS = 30 * 60_000;

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    }, { once: true });
  });
}

function path(...segments) {
  return segments.map(encodeURIComponent).join('/');
}

/** The answer's JSON object, or undefined when the body is something else (a proxy's HTML page). */
function jsonOf(text) {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The error an answer that is not a success carries: Ratchet's own code, or what a proxy's page means. */
function errorOf(response, text, json) {
  return json === undefined ? notRatchet(response, text)
    : new RatchetError(response.status, json.code ?? `HTTP_${response.status}`, json.message);
}

/** What a request that is not Ratchet's JSON answer means, as a typed error; 502, 503 and 504 may be retried. */
function notRatchet(response, text) {
  const type = response.headers.get('content-type') ?? 'no content type';
  const excerpt = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120);
  return new RatchetError(response.status, response.ok ? 'NOT_RATCHET' : `HTTP_${response.status}`,
    `the answer is not Ratchet's JSON (HTTP ${response.status}, ${type}), probably from a proxy in between: ${excerpt}`);
}

/**
 * A client of one Ratchet server's HTTP API, authenticated with an API token. Submitting a turn is
 * idempotent by turn id, so every request that does not change anything twice is retried on
 * network errors and 502, 503 and 504 answers (a proxy's HTML error page included) with the same
 * body; waiting for a turn retries them until the turn's deadline, so a restart of Ratchet while a
 * write waits for approval is waited out on the same turn id.
 */
export class RatchetClient {
  /**
   * @param {object} options
   * @param {string} options.baseUrl e.g. `http://127.0.0.1:8080`
   * @param {string} options.token an API token (`http.tokens` of the server)
   * @param {typeof fetch} [options.fetch]
   * @param {number} [options.turnTimeoutMs] how long `runTurn` and `awaitTurn` wait for a turn by
   *   default (30 minutes), through restarts of Ratchet and proxy errors
   */
  constructor({ baseUrl, token, fetch: fetchImpl = globalThis.fetch, turnTimeoutMs = DEFAULT_TURN_TIMEOUT_MS } = {}) {
    if (!baseUrl) throw new TypeError('baseUrl is required');
    if (!token) throw new TypeError('token is required');
    if (!(turnTimeoutMs > 0)) throw new TypeError('turnTimeoutMs must be a positive number of milliseconds');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.token = token;
    this.fetch = fetchImpl;
    this.turnTimeoutMs = turnTimeoutMs;
  }

  /**
   * One request, retried on network errors and retryable answers: a few times, or until `deadline`
   * (a `Date.now()` value) when one is given.
   */
  async #request(method, url, body, { signal, retry = true, deadline } = {}) {
    for (let attempt = 0; ; attempt++) {
      let failure;
      try {
        const response = await this.fetch(this.baseUrl + url, {
          method,
          signal,
          headers: {
            Authorization: `Bearer ${this.token}`,
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        const json = jsonOf(text);
        if (json !== undefined && response.ok) return { status: response.status, body: json };
        failure = errorOf(response, text, json);
        if (!failure.retryable) throw failure;
      } catch (e) {
        if (e instanceof RatchetError && !e.retryable) throw e;
        if (signal?.aborted) throw e;
        failure ??= e;
      }
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
      const more = deadline == null ? attempt < RETRY_DELAYS_MS.length : Date.now() + delay < deadline;
      if (!retry || !more) throw unreachable(failure, url, deadline);
      await sleep(delay, signal);
    }
  }

  /**
   * Submits one model response as a turn. The same (session, turn id) runs once: submitting it again
   * answers with the same results. Answers `{status: 'accepted'}` while the turn runs (for example
   * while a write waits for approval) or `{status: 'completed', results}`.
   *
   * @param {string} sessionId
   * @param {{agent: string, turnId: string, calls: Array<{name: string, arguments: object, modelCallId?: string}>}} turn
   */
  async submitTurn(sessionId, { agent, turnId, calls }, { signal, deadline } = {}) {
    const { body } = await this.#request('POST', `/api/sessions/${path(sessionId)}/turns`,
      { agent, turn: { turnId, calls } }, { signal, deadline });
    return body;
  }

  /**
   * Waits for a turn's results, long-polling the server, for `timeoutMs` (the client's
   * `turnTimeoutMs`, 30 minutes, by default). A turn whose write waits for a person's approval
   * completes only once someone decides. Ratchet restarting, a dropped connection or a proxy's
   * error page meanwhile is waited out on the same turn id; only the deadline ends the wait, with a
   * `RatchetError` coded `TIMEOUT` that says the call may still run.
   */
  async awaitTurn(sessionId, turnId, { signal, timeoutMs = this.turnTimeoutMs, deadline } = {}) {
    const until = deadline ?? Date.now() + timeoutMs;
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) {
        throw new RatchetError(408, 'TIMEOUT', `turn '${turnId}' did not complete in ${timeoutMs} ms; its calls may`
          + ' still run in Ratchet: wait for the same turn id again rather than submitting the calls anew');
      }
      const wait = Math.max(1, Math.min(LONG_POLL_SECONDS, Math.floor(left / 1000)));
      const { status, body } = await this.#request('GET',
        `/api/sessions/${path(sessionId)}/turns/${path(turnId)}?wait=${wait}`, undefined, { signal, deadline: until });
      if (status === 200 && body.status === 'completed') return body;
    }
  }

  /**
   * Submits a turn and waits for its results: `{results: {results: [call, ...]}, reconciled}`.
   * Submitting is retried until the same deadline as the wait, since a turn id runs once.
   */
  async runTurn(sessionId, turn, { signal, timeoutMs = this.turnTimeoutMs } = {}) {
    const deadline = Date.now() + timeoutMs;
    const submitted = await this.submitTurn(sessionId, turn, { signal, deadline });
    if (submitted.status === 'completed') return submitted;
    return this.awaitTurn(sessionId, turn.turnId, { signal, timeoutMs, deadline });
  }

  /** The results of a turn's calls, in the order of the turn. */
  static callsOf(turnAnswer) {
    return turnAnswer.results?.results ?? [];
  }

  /** A call's result when it succeeded; otherwise throws a {@link ToolCallError} carrying Ratchet's text for the model. */
  static valueOf(call) {
    if (call.outcome === 'succeeded') return call.result ?? null;
    throw new ToolCallError(call);
  }

  /** Sends a user message to an agent that runs Ratchet's own loop; `waitSeconds` waits for its answer. */
  async sendMessage(sessionId, { agent, text, messageId }, { waitSeconds, signal } = {}) {
    const query = waitSeconds ? `?wait=${Math.min(60, waitSeconds)}` : '';
    const { body } = await this.#request('POST', `/api/sessions/${path(sessionId)}/messages${query}`,
      { agent, text, ...(messageId ? { messageId } : {}) }, { signal, retry: messageId != null });
    return body;
  }

  /** The session's conversation rebuilt from the journal. */
  async messages(sessionId, { signal } = {}) {
    return (await this.#request('GET', `/api/sessions/${path(sessionId)}/messages`, undefined, { signal })).body;
  }

  /** The session's timeline (needs a token that may read sessions). */
  async session(sessionId, { signal } = {}) {
    return (await this.#request('GET', `/api/sessions/${path(sessionId)}`, undefined, { signal })).body;
  }

  /** The agents this token may use. */
  async agents({ signal } = {}) {
    return (await this.#request('GET', '/api/agents', undefined, { signal })).body.agents;
  }

  /** An agent's tool catalogue: name, description, effect class, approval rule and the exact input schema. */
  async tools(agent, { signal } = {}) {
    return (await this.#request('GET', `/api/agents/${path(agent)}/tools`, undefined, { signal })).body.tools;
  }

  /** Pending approvals of the token's tenants (a token with role viewer or approver). */
  async approvals({ signal } = {}) {
    return (await this.#request('GET', '/api/approvals', undefined, { signal })).body.approvals;
  }

  /**
   * Approves or rejects a waiting call (a token with role approver), naming the arguments hash it
   * was shown; rejecting needs a reason, which the model is told.
   */
  async decide(sessionId, callId, { argumentsHash, approved, reason }, { signal } = {}) {
    return (await this.#request('POST', `/api/approvals/${path(sessionId)}/${path(callId)}`,
      { argumentsHash, approved, ...(reason ? { reason } : {}) }, { signal, retry: false })).body;
  }

  /**
   * The session's events as they are journaled (server-sent events): every past event first, then
   * live ones; reconnects after a dropped connection or a proxy's 502, 503 or 504 from the last
   * event seen.
   *
   * @returns {AsyncGenerator<{id: string, type: string, data: object}>}
   */
  async *events(sessionId, { signal, lastEventId } = {}) {
    let last = lastEventId;
    for (let attempt = 0; !signal?.aborted; attempt++) {
      let response;
      try {
        response = await this.fetch(`${this.baseUrl}/api/sessions/${path(sessionId)}/events`, {
          signal,
          headers: {
            Authorization: `Bearer ${this.token}`,
            Accept: 'text/event-stream',
            ...(last ? { 'Last-Event-ID': last } : {}),
          },
        });
      } catch (e) {
        if (signal?.aborted) return;
        await sleep(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)], signal);
        continue;
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        const error = errorOf(response, text, jsonOf(text));
        if (!error.retryable) throw error;
        await sleep(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)], signal).catch(() => {});
        continue;
      }
      attempt = 0;
      try {
        for await (const event of parseEventStream(response.body)) {
          if (event.id) last = event.id;
          yield event;
        }
      } catch (e) {
        if (signal?.aborted) return;
      }
    }
  }
}

/** A request's last failure, as a RatchetError the model can read (never a bare "fetch failed"). */
function unreachable(failure, url, deadline) {
  if (failure instanceof RatchetError) return failure;
  const until = deadline == null ? 'after retrying' : 'until the deadline';
  const error = new RatchetError(0, 'UNREACHABLE', `Ratchet could not be reached ${until} (${failure?.cause?.code
    ?? failure?.message ?? failure}); a call already submitted may still run in Ratchet`);
  error.cause = failure;
  return error;
}

async function* parseEventStream(stream) {
  const decoder = new TextDecoder();
  let buffer = '';
  let id;
  let type;
  let data = [];
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
      if (line === '') {
        if (data.length) {
          const text = data.join('\n');
          let parsed;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
          yield { id, type: type ?? 'message', data: parsed };
        }
        type = undefined;
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') type = value;
        else if (field === 'data') data.push(value);
      }
    }
  }
}
