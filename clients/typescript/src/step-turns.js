import { RatchetClient } from './client.js';
import { modelCallIdFor, turnIdFor } from './turn-ids.js';

/**
 * A tool call the framework executed without the model's call id. Ratchet names a turn by the
 * model's ids so that a replay runs nothing twice; without one, an identical call of a later step
 * would be taken for this one and answered with its results, so the call is refused instead.
 */
export class MissingCallIdError extends Error {
  constructor(tool) {
    super(`the call of '${tool}' has no tool call id, so Ratchet cannot tell it from an identical earlier call;`
      + ' it did not run. Use a model (or framework) that gives each tool call an id');
    this.name = 'MissingCallIdError';
  }
}

/**
 * Runs the tool calls of one model response as one Ratchet turn, for frameworks that execute each
 * tool call on its own. A model wrapper records each response's calls (`record`); the first of
 * them to execute submits the whole turn and every call answers with its own result. A call no
 * recorded response names runs as a turn of its own, with its tool call id as turn id; a call
 * without a tool call id is refused ({@link MissingCallIdError}).
 */
export class StepTurns {
  #pending = new Map();

  constructor({ client, sessionId, agent }) {
    if (!(client instanceof RatchetClient)) throw new TypeError('client must be a RatchetClient');
    if (!sessionId) throw new TypeError('sessionId is required');
    if (!agent) throw new TypeError('agent is required');
    this.client = client;
    this.sessionId = sessionId;
    this.agent = agent;
  }

  /** Records one model response: its id (may be missing) and its calls `{toolCallId, name, arguments}` in order. */
  record(responseId, calls) {
    if (calls.length === 0) return;
    const turn = {
      agent: this.agent,
      turnId: turnIdFor(responseId, calls.map((c) => c.toolCallId)),
      calls: calls.map((c) => ({ name: c.name, arguments: c.arguments ?? {}, modelCallId: modelCallIdFor(c.toolCallId) })),
    };
    const step = { turn, answer: null, left: calls.length };
    calls.forEach((c, index) => this.#pending.set(c.toolCallId, { step, index }));
  }

  /** The result of one call (its tool call id, name and arguments); throws a ToolCallError when it did not succeed. */
  async execute(toolCallId, name, args, { signal } = {}) {
    if (toolCallId == null || toolCallId === '') {
      throw new MissingCallIdError(name);
    }
    let entry = this.#pending.get(toolCallId);
    if (!entry) {
      const turn = {
        agent: this.agent,
        turnId: turnIdFor(undefined, [toolCallId]),
        calls: [{ name, arguments: args ?? {}, modelCallId: modelCallIdFor(toolCallId) }],
      };
      entry = { step: { turn, answer: null, left: 1 }, index: 0 };
    } else {
      this.#pending.delete(toolCallId);
    }
    const { step, index } = entry;
    step.answer ??= this.client.runTurn(this.sessionId, step.turn, { signal });
    const answer = await step.answer;
    const call = RatchetClient.callsOf(answer).find((c) => c.index === index);
    if (!call) throw new Error(`Ratchet's answer for turn '${step.turn.turnId}' has no call ${index}`);
    return RatchetClient.valueOf(call);
  }
}
