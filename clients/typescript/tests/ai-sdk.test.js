import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateText, stepCountIs } from 'ai';
import { ratchetTools } from '../src/ai-sdk.js';
import { agentClient, env, turnsOf, unique, whileDeciding, writesFor } from './support.js';
import { scriptedModel } from './fixtures/scripted-model.js';

test('the calls of one AI SDK step run as one Ratchet turn named by the model response id', async () => {
  const client = agentClient();
  const sessionId = unique('s');
  const order = unique('o');
  const { model, prompts } = scriptedModel('resp_step_1', [
    { name: 'look_up_order', arguments: { order } },
    { name: 'add_note', arguments: { order, note: 'looked up' } },
  ]);
  const adapted = await ratchetTools({ client, sessionId, agent: env.agent, model });
  const { text } = await generateText({ model: adapted.model, tools: adapted.tools, stopWhen: stepCountIs(3), prompt: 'go' });
  assert.deepEqual(await turnsOf(sessionId), [['resp_step_1', ['look_up_order', 'add_note']]]);
  assert.equal(prompts.length, 2);
  assert.match(text, /"status":"shipped"/);
  assert.deepEqual(await writesFor(order), { add_note: 1 });
});

test('a rejected write reaches the model as a tool error with the approver\'s reason', async () => {
  const client = agentClient();
  const sessionId = unique('s');
  const { model } = scriptedModel('resp_reject', [{ name: 'cancel_order', arguments: { order: unique('o') } }]);
  const adapted = await ratchetTools({ client, sessionId, agent: env.agent, model });
  const { text } = await whileDeciding(sessionId, 'cancel_order', { approved: false, reason: 'order already shipped' },
    () => generateText({ model: adapted.model, tools: adapted.tools, stopWhen: stepCountIs(3), prompt: 'cancel' }));
  assert.match(text, /error/);
  assert.match(text, /a person refused it/);
  assert.match(text, /order already shipped/);
});
