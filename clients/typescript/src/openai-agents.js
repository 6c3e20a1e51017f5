import { tool } from '@openai/agents';
import { StepTurns } from './step-turns.js';

function functionCallsOf(output, names) {
  return (output ?? [])
    .filter((item) => item.type === 'function_call' && names.has(item.name))
    .map((item) => ({ toolCallId: item.callId, name: item.name, arguments: item.arguments ? JSON.parse(item.arguments) : {} }));
}

/**
 * An agent's Ratchet tools for the OpenAI Agents SDK, and `wrapModel`, which makes the function
 * calls of each model response run as one Ratchet turn named by the response id:
 *
 * ```js
 * const ratchet = await ratchetAgentTools({ client, sessionId, agent: 'order-support' });
 * const agent = new Agent({ name: 'support', tools: ratchet.tools, model: ratchet.wrapModel(model) });
 * ```
 *
 * A call that does not succeed reaches the model as Ratchet's own text for it (a person's
 * rejection and reason, a skipped write, an unknown outcome), never as an invitation to retry.
 */
export async function ratchetAgentTools({ client, sessionId, agent, only }) {
  const catalogue = await client.tools(agent);
  const selected = only ? catalogue.filter((t) => only.includes(t.name)) : catalogue;
  const turns = new StepTurns({ client, sessionId, agent });
  const names = new Set(selected.map((t) => t.name));
  const tools = selected.map((t) => tool({
    name: t.name,
    description: t.description || t.name,
    parameters: { additionalProperties: true, ...(t.inputSchema ?? { type: 'object' }) },
    strict: false,
    execute: (input, _context, details) => turns.execute(details?.toolCall?.callId, t.name,
      typeof input === 'string' ? JSON.parse(input || '{}') : input),
    errorFunction: (_context, error) => error.message,
  }));
  return {
    tools,
    turns,
    wrapModel(model) {
      return recordingResponses(model, (responseId, output) => turns.record(responseId, functionCallsOf(output, names)));
    },
  };
}

/**
 * `model`, handing each response's id and output to `record` as it comes, streamed or not. Every
 * other member of the model (its prototype's methods, such as retry advice, included) is the
 * model's own, called on the model itself.
 */
function recordingResponses(model, record) {
  const wrapped = {
    async getResponse(request) {
      const response = await model.getResponse(request);
      record(response.responseId, response.output);
      return response;
    },
    async *getStreamedResponse(request) {
      for await (const event of model.getStreamedResponse(request)) {
        if (event.type === 'response_done') record(event.response?.id, event.response?.output);
        yield event;
      }
    },
  };
  return new Proxy(model, {
    get(target, property) {
      if (Object.hasOwn(wrapped, property)) return wrapped[property];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What the model reads when an MCP call brings no result: never the SDK's "please try again",
 * since a write given up on by the client may still run in Ratchet, and calling it again in a new
 * response would be a new turn.
 */
function mcpCallFailed(error, timeoutMs) {
  const message = error instanceof Error ? error.message : String(error);
  if (typeof error?.code === 'number') {
    // a JSON-RPC error: Ratchet answered, and said why (docs/MCP-SERVER.md#errors)
    return `Ratchet refused the call: ${message}`;
  }
  const why = /time(d)? ?out/i.test(message) ? `Ratchet did not answer this call within ${timeoutMs} ms`
    : `the connection to Ratchet failed (${message})`;
  return `${why}. It may still be running there (for example waiting for a person's approval), so its outcome`
    + ' is unknown: do not call it again; tell the user it is pending.';
}

/** How long an MCP tool call may wait for its answer by default: an approval can take a while. */
const MCP_CALL_TIMEOUT_MS = 60 * 60_000;

/**
 * Ratchet's MCP endpoint for one agent (`/mcp/<agent>`) as an Agents SDK MCP server, in session
 * `sessionId`, and `wrapModel`, which makes the calls of each model response one Ratchet turn: each
 * MCP `tools/call` carries `_meta` `dev.ratchet/turn`, `index` and `count` (docs/MCP-SERVER.md),
 * with the turn id from the response id.
 *
 * A call waits for its answer `timeoutMs` (one hour by default, instead of the MCP SDK's 60 s), so
 * that a write waiting for a person's approval is not given up: the Agents SDK does not let
 * progress notifications reset the timeout, so the timeout itself must cover the approval.
 *
 * ```js
 * const ratchet = await ratchetMcpServer({ baseUrl, token, sessionId: 'support-42', agent: 'order-support' });
 * const agent = new Agent({ name: 'support', mcpServers: [ratchet.server], model: ratchet.wrapModel(model) });
 * ```
 */
export async function ratchetMcpServer({ baseUrl, token, sessionId, agent, timeoutMs = MCP_CALL_TIMEOUT_MS }) {
  if (!(timeoutMs > 0)) throw new TypeError('timeoutMs must be a positive number of milliseconds');
  const { MCPServerStreamableHttp } = await import('@openai/agents');
  const { turnIdFor } = await import('./turn-ids.js');
  const metas = new Map();
  const server = new MCPServerStreamableHttp({
    url: `${baseUrl.replace(/\/+$/, '')}/mcp/${encodeURIComponent(agent)}`,
    name: `ratchet-${agent}`,
    requestInit: { headers: { Authorization: `Bearer ${token}`, 'ratchet-session': sessionId } },
    timeout: timeoutMs,
    errorFunction: ({ error }) => mcpCallFailed(error, timeoutMs),
    toolMetaResolver: ({ toolName, arguments: args }) => metas.get(`${toolName}\u0000${canonical(args ?? {})}`)?.shift(),
  });
  await server.connect();
  const names = new Set((await server.listTools()).map((t) => t.name));
  const record = (responseId, output) => {
    const calls = functionCallsOf(output, names);
    if (calls.length === 0) return;
    const turn = turnIdFor(responseId, calls.map((c) => c.toolCallId));
    calls.forEach((c, index) => {
      const key = `${c.name}\u0000${canonical(c.arguments)}`;
      if (!metas.has(key)) metas.set(key, []);
      metas.get(key).push({ 'dev.ratchet/turn': turn, 'dev.ratchet/index': index, 'dev.ratchet/count': calls.length });
    });
  };
  return {
    server,
    wrapModel(model) {
      return recordingResponses(model, record);
    },
    close: () => server.close(),
  };
}
