import { createTool } from '@mastra/core/tools';
import { RatchetClient } from './client.js';
import { StepTurns } from './step-turns.js';

const SEPARATOR = '/';

function slugOf(agent, tool) {
  return `${agent}${SEPARATOR}${tool}`;
}

function parseSlug(slug) {
  const at = slug.indexOf(SEPARATOR);
  if (at <= 0) throw new Error(`'${slug}' is not a Ratchet tool slug (<agent>${SEPARATOR}<tool>)`);
  return { agent: slug.slice(0, at), tool: slug.slice(at + 1) };
}

function contextValue(context, key) {
  const rc = context?.requestContext;
  if (rc == null) return undefined;
  return typeof rc.get === 'function' ? rc.get(key) : rc[key];
}

/**
 * Ratchet as a Mastra tool provider (Mastra's `ToolProvider` interface): each Ratchet agent is a
 * toolkit, its catalogue the toolkit's tools (slug `<agent>/<tool>`), and a resolved tool's
 * `execute` runs the call durably through Ratchet. The session is the request context's
 * `ratchetSessionId`, else the Mastra thread id, else the provider's `sessionId`.
 *
 * Mastra executes tool calls one by one: each runs as a turn of its own (turn id from the tool call
 * id). To run the calls of one model response as one turn, wrap the agent's model with
 * {@link RatchetToolProvider#wrapModel}.
 */
export class RatchetToolProvider {
  info = { id: 'ratchet', name: 'Ratchet', description: 'Tools that run durably through Ratchet, with approvals' };
  capabilities = {
    multipleConnectionsPerToolkit: false, batchConnectionStatus: false, reauthorizeReusesConnectionId: false,
    supportsRevoke: false,
  };
  defaultScope = 'caller-supplied';
  #turns = new Map();

  constructor({ client, sessionId, agents } = {}) {
    if (!(client instanceof RatchetClient)) throw new TypeError('client must be a RatchetClient');
    this.client = client;
    this.sessionId = sessionId;
    this.agents = agents;
  }

  async #agentNames() {
    if (this.agents) return this.agents;
    return (await this.client.agents()).map((a) => a.name);
  }

  async #allTools() {
    const tools = [];
    for (const agent of await this.#agentNames()) {
      for (const t of await this.client.tools(agent)) tools.push({ agent, ...t });
    }
    return tools;
  }

  async listToolkits() {
    return { data: (await this.#agentNames()).map((agent) => ({ slug: agent, name: agent, description: `Ratchet agent ${agent}` })) };
  }

  async listTools({ toolkit, search, page = 1, perPage = 50 } = {}) {
    const needle = search?.toLowerCase();
    const all = (await this.#allTools())
      .filter((t) => !toolkit || t.agent === toolkit)
      .filter((t) => !needle || t.name.toLowerCase().includes(needle) || (t.description ?? '').toLowerCase().includes(needle))
      .map((t) => ({ slug: slugOf(t.agent, t.name), name: t.name, description: t.description, toolkit: t.agent }));
    const start = (page - 1) * perPage;
    return { data: all.slice(start, start + perPage), pagination: { total: all.length, page, perPage, hasMore: start + perPage < all.length } };
  }

  async listToolkitsVNext() {
    return this.listToolkits();
  }

  async listToolsVNext(opts = {}) {
    return this.listTools(opts);
  }

  async getToolSchema(slug) {
    const { agent, tool } = parseSlug(slug);
    return (await this.client.tools(agent)).find((t) => t.name === tool)?.inputSchema ?? null;
  }

  async getHealth() {
    try {
      await this.client.agents();
      return { ok: true };
    } catch (e) {
      return { ok: false, message: e.message };
    }
  }

  #turnsFor(sessionId, agent) {
    const key = `${sessionId}\u0000${agent}`;
    let turns = this.#turns.get(key);
    if (!turns) {
      turns = new StepTurns({ client: this.client, sessionId, agent });
      this.#turns.set(key, turns);
    }
    return turns;
  }

  #sessionOf(context, options) {
    const sessionId = contextValue(context, 'ratchetSessionId') ?? options?.requestContext?.ratchetSessionId
      ?? context?.agent?.threadId ?? context?.threadId ?? this.sessionId;
    if (!sessionId) throw new Error('no Ratchet session: set ratchetSessionId in the request context, use a thread, or give the provider a sessionId');
    return sessionId;
  }

  /**
   * Mastra tools for these slugs, keyed by tool name; executing one runs it through Ratchet. A
   * description in `toolConfigs` (keyed by slug, as Mastra's stored agents keep them) replaces the
   * catalogue's.
   */
  async resolveTools(toolSlugs, toolConfigs, options) {
    const resolved = {};
    for (const slug of toolSlugs) {
      const { agent, tool } = parseSlug(slug);
      const definition = (await this.client.tools(agent)).find((t) => t.name === tool);
      if (!definition) throw new Error(`agent '${agent}' has no tool '${tool}'`);
      resolved[tool] = createTool({
        id: tool,
        description: toolConfigs?.[slug]?.description || definition.description || tool,
        inputSchema: definition.inputSchema ?? { type: 'object' },
        execute: async (input, context) => this.#turnsFor(this.#sessionOf(context, options), agent)
          .execute(context?.agent?.toolCallId ?? context?.toolCallId, tool, input, { signal: context?.abortSignal }),
      });
    }
    return resolved;
  }

  async resolveToolsVNext({ toolSlugs, toolMeta, requestContext }) {
    return this.resolveTools(toolSlugs, toolMeta, { requestContext });
  }

  /**
   * The model wrapped so that the tool calls of each of its responses run as one Ratchet turn in
   * `sessionId` (an AI SDK model, as Mastra agents take).
   */
  async wrapModel(model, { sessionId, agent }) {
    const { wrapLanguageModel } = await import('ai');
    const { ratchetMiddleware } = await import('./ai-sdk.js');
    const names = new Set((await this.client.tools(agent)).map((t) => t.name));
    return wrapLanguageModel({ model, middleware: ratchetMiddleware(this.#turnsFor(sessionId, agent), names) });
  }
}
