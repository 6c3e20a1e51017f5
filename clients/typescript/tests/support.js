import { randomUUID } from 'node:crypto';
import { RatchetClient } from '../src/index.js';

export const env = {
  url: process.env.RATCHET_URL,
  agent: process.env.RATCHET_AGENT ?? 'shop',
  agentToken: process.env.RATCHET_AGENT_TOKEN,
  approverToken: process.env.RATCHET_APPROVER_TOKEN,
};
if (!env.url) throw new Error('RATCHET_URL is not set: these tests run against a real Ratchet (see TypeScriptClientTest)');

export const agentClient = () => new RatchetClient({ baseUrl: env.url, token: env.agentToken });
export const approverClient = () => new RatchetClient({ baseUrl: env.url, token: env.approverToken });
export const unique = (prefix) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Waits for the session's pending approval of `tool`, then (after `delayMs`, a slow person) decides it with the approver token. */
export async function decideWhenAsked(sessionId, tool, { approved, reason = 'checked by the test', delayMs = 0 }) {
  const approver = approverClient();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const pending = (await approver.approvals()).find((a) => a.sessionId === sessionId && a.tool === tool);
    if (pending) {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return approver.decide(sessionId, pending.callId, { argumentsHash: pending.argumentsHash, approved, reason });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no approval of ${tool} was asked in session ${sessionId}`);
}

/** How many times each write ran for an order, read through the agent's own read tool. */
export async function writesFor(order) {
  const answer = await agentClient().runTurn(unique('counts'), {
    agent: env.agent, turnId: 'count', calls: [{ name: 'count_writes', arguments: { order } }],
  });
  return RatchetClient.valueOf(RatchetClient.callsOf(answer)[0]);
}

/** Runs `ask` while the approver decides the session's `tool` as `decision` says; what `ask` answered. */
export async function whileDeciding(sessionId, tool, decision, ask) {
  const [answer] = await Promise.all([ask(), decideWhenAsked(sessionId, tool, decision)]);
  return answer;
}

/** The session's turns as the approver's timeline shows them: [turn id, [tool of each call]]. */
export async function turnsOf(sessionId) {
  const timeline = await approverClient().session(sessionId);
  return timeline.turns.map((t) => [t.turnId, t.calls.map((c) => c.tool)]);
}

/** The tool calls of a response that looks an order up and cancels it. */
export const lookUpAndCancel = (order) => [
  { name: 'look_up_order', arguments: { order } },
  { name: 'cancel_order', arguments: { order } },
];
