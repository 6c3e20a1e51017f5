import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { ratchetAgentTools } from '../src/openai-agents.js';
import { agentClient, env, lookUpAndCancel, turnsOf, unique, whileDeciding, writesFor } from './support.js';
import { agentsModel as scriptedModel } from './fixtures/agents-model.js';

setTracingDisabled(true);

test('the function calls of one Agents SDK response run as one Ratchet turn named by the response id', async () => {
  const sessionId = unique('s');
  const order = unique('o');
  const ratchet = await ratchetAgentTools({ client: agentClient(), sessionId, agent: env.agent });
  const agent = new Agent({ name: 'support', instructions: 'help', tools: ratchet.tools,
    model: ratchet.wrapModel(scriptedModel('resp_agents_1', lookUpAndCancel(order))) });
  const result = await whileDeciding(sessionId, 'cancel_order', { approved: true },
    () => run(agent, 'cancel my order', { maxTurns: 3 }));
  assert.match(result.finalOutput, /cancel_order/);
  assert.deepEqual(await turnsOf(sessionId), [['resp_agents_1', ['look_up_order', 'cancel_order']]]);
  assert.deepEqual(await writesFor(order), { cancel_order: 1 });
});

test('a rejected write reaches the Agents SDK model as Ratchet\'s text, not an invitation to retry', async () => {
  const sessionId = unique('s');
  const ratchet = await ratchetAgentTools({ client: agentClient(), sessionId, agent: env.agent });
  const agent = new Agent({ name: 'support', instructions: 'help', tools: ratchet.tools,
    model: ratchet.wrapModel(scriptedModel('resp_agents_2', [{ name: 'cancel_order', arguments: { order: unique('o') } }])) });
  const result = await whileDeciding(sessionId, 'cancel_order', { approved: false, reason: 'fraud check pending' },
    () => run(agent, 'cancel my order', { maxTurns: 3 }));
  assert.match(result.finalOutput, /a person refused it/);
  assert.match(result.finalOutput, /fraud check pending/);
  assert.doesNotMatch(result.finalOutput, /try again/);
});

test('wrapping a model keeps its other methods, its retry advice included', async () => {
  class AdvisingModel {
    constructor() { this.calls = 0; }
    async getResponse() { throw new Error('not used'); }
    async *getStreamedResponse() { throw new Error('not used'); }
    getRetryAdvice(args) { this.calls++; return { suggested: true, retryAfterMs: 250, reason: args.reason }; }
  }
  const model = new AdvisingModel();
  const ratchet = await ratchetAgentTools({ client: agentClient(), sessionId: unique('s'), agent: env.agent });
  const wrapped = ratchet.wrapModel(model);
  assert.deepEqual(await wrapped.getRetryAdvice({ reason: 'rate limited' }), { suggested: true, retryAfterMs: 250, reason: 'rate limited' });
  assert.equal(model.calls, 1);
});
