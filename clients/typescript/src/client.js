import { RatchetError, ToolCallError } from './errors.js';

const RETRY_DELAYS_MS = [200, 500, 1000, 2000, 4000];
const LONG_POLL_SECONDS = 30;

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

/**
 * A client of one Ratchet server's HTTP API, authenticated with an API token. Submitting a turn is
 * idempotent by turn id, so every request that does not change anything twice is retried on
 * network errors and 503 answers with the same body.
 */
export class RatchetClient {
  /**
   * @param {object} options
   * @param {string} options.baseUrl e.g. `http://127.0.0.1:8080`
   * @param {string} options.token an API token (`http.tokens` of the server)
   * @param {typeof fetch} [options.fetch]
   */
  constructor({ baseUrl, token, fetch: fetchImpl = globalThis.fetch } = {}) {
    if (!baseUrl) throw new TypeError('baseUrl is required');
    if (!token) throw new TypeError('token is required');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.token = token;
    this.fetch = fetchImpl;
  }

  async #request(method, url, body, { signal, retry = true } = {}) {
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await this.fetch(this.baseUrl + url, {
          method,
          signal,
          headers: {
            Authorization: `Bearer ${this.token}`,
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (e) {
        if (!retry || signal?.aborted || attempt >= RETRY_DELAYS_MS.length) throw e;
        await sleep(RETRY_DELAYS_MS[attempt], signal);
        continue;
      }
      const text = await response.text();
      const json = text ? JSON.parse(text) : {};
      if (response.ok) return { status: response.status, body: json };
      const error = new RatchetError(response.status, json.code ?? `HTTP_${response.status}`, json.message);
      if (!retry || !error.retryable || attempt >= RETRY_DELAYS_MS.length) throw error;
      await sleep(RETRY_DELAYS_MS[attempt], signal);
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
  async submitTurn(sessionId, { agent, turnId, calls }, { signal } = {}) {
    const { body } = await this.#request('POST', `/api/sessions/${path(sessionId)}/turns`,
      { agent, turn: { turnId, calls } }, { signal });
    return body;
  }

  /**
   * Waits for a turn's results, long-polling the server. A turn whose write waits for a person's
   * approval completes only once someone decides: without `timeoutMs` this waits as long as that takes.
   */
  async awaitTurn(sessionId, turnId, { signal, timeoutMs } = {}) {
    const deadline = timeoutMs == null ? Infinity : Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new RatchetError(408, 'TIMEOUT', `turn '${turnId}' did not complete in ${timeoutMs} ms`);
      const wait = Math.max(1, Math.min(LONG_POLL_SECONDS, Math.floor(left / 1000)));
      const { status, body } = await this.#request('GET',
        `/api/sessions/${path(sessionId)}/turns/${path(turnId)}?wait=${wait}`, undefined, { signal });
      if (status === 200 && body.status === 'completed') return body;
    }
  }

  /** Submits a turn and waits for its results: `{results: {results: [call, ...]}, reconciled}`. */
  async runTurn(sessionId, turn, options = {}) {
    const submitted = await this.submitTurn(sessionId, turn, options);
    if (submitted.status === 'completed') return submitted;
    return this.awaitTurn(sessionId, turn.turnId, options);
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
   * live ones; reconnects after a dropped connection from the last event seen.
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
        const json = await response.json().catch(() => ({}));
        throw new RatchetError(response.status, json.code ?? `HTTP_${response.status}`, json.message);
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
