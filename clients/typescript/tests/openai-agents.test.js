import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, Usage, run, setTracingDisabled } from '@openai/agents';
import { ratchetAgentTools } from '../src/openai-agents.js';
import { agentClient, approverClient, decideWhenAsked, env, unique, writesFor } from './support.js';

setTracingDisabled(true);

const usage = () => new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });

/** A model of the Agents SDK's Model interface: first the scripted function calls, then a text listing the tool outputs it got. */
function scriptedModel(responseId, calls) {
  let step = 0;
  return {
    async getResponse(request) {
      step++;
      if (step === 1) {
        return {
          usage: usage(), responseId,
          output: calls.map((c, i) => ({ type: 'function_call', callId: `call_${i}`, name: c.name, arguments: JSON.stringify(c.arguments), status: 'completed' })),
        };
      }
      const outputs = (Array.isArray(request.input) ? request.input : []).filter((i) => i.type === 'function_call_result');
      return {
        usage: usage(),
        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: JSON.stringify(outputs) }] }],
      };
    },
    async *getStreamedResponse() {
      throw new Error('not used');
    },
  };
}

test('the function calls of one Agents SDK response run as one Ratchet turn named by the response id', async () => {
  const sessionId = unique('s');
  const order = unique('o');
  const ratchet = await ratchetAgentTools({ client: agentClient(), sessionId, agent: env.agent });
  const agent = new Agent({ name: 'support', instructions: 'help', tools: ratchet.tools,
    model: ratchet.wrapModel(scriptedModel('resp_agents_1', [
      { name: 'look_up_order', arguments: { order } },
      { name: 'cancel_order', arguments: { order } },
    ])) });
  const [result] = await Promise.all([
    run(agent, 'cancel my order', { maxTurns: 3 }),
    decideWhenAsked(sessionId, 'cancel_order', { approved: true }),
  ]);
  assert.match(result.finalOutput, /cancel_order/);
  const timeline = await approverClient().session(sessionId);
  assert.deepEqual(timeline.turns.map((t) => [t.turnId, t.calls.map((c) => c.tool)]),
    [['resp_agents_1', ['look_up_order', 'cancel_order']]]);
  assert.deepEqual(await writesFor(order), { cancel_order: 1 });
});

test('a rejected write reaches the Agents SDK model as Ratchet\'s text, not an invitation to retry', async () => {
  const sessionId = unique('s');
  const ratchet = await ratchetAgentTools({ client: agentClient(), sessionId, agent: env.agent });
  const agent = new Agent({ name: 'support', instructions: 'help', tools: ratchet.tools,
    model: ratchet.wrapModel(scriptedModel('resp_agents_2', [{ name: 'cancel_order', arguments: { order: unique('o') } }])) });
  const [result] = await Promise.all([
    run(agent, 'cancel my order', { maxTurns: 3 }),
    decideWhenAsked(sessionId, 'cancel_order', { approved: false, reason: 'fraud check pending' }),
  ]);
  assert.match(result.finalOutput, /a person refused it/);
  assert.match(result.finalOutput, /fraud check pending/);
  assert.doesNotMatch(result.finalOutput, /try again/);
});
