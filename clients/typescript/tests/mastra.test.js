import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent } from '@mastra/core/agent';
import { RatchetToolProvider } from '../src/mastra.js';
import { agentClient, env, lookUpAndCancel, turnsOf, unique, whileDeciding, writesFor } from './support.js';
import { scriptedModel } from './fixtures/scripted-model.js';

test('the provider lists each agent as a toolkit with its tools, searchable, with their exact schemas', async () => {
  const provider = new RatchetToolProvider({ client: agentClient() });
  assert.deepEqual((await provider.listToolkits()).data.map((t) => t.slug), [env.agent]);
  const found = await provider.listTools({ toolkit: env.agent, search: 'cancel' });
  assert.deepEqual(found.data.map((t) => t.slug), [`${env.agent}/cancel_order`]);
  const schema = await provider.getToolSchema(`${env.agent}/cancel_order`);
  const catalogue = await agentClient().tools(env.agent);
  assert.deepEqual(schema, catalogue.find((t) => t.name === 'cancel_order').inputSchema);
  assert.equal(await provider.getToolSchema(`${env.agent}/no_such_tool`), null);
  assert.deepEqual(await provider.getHealth(), { ok: true });
});

test('a Mastra agent\'s calls of one response run as one turn, and an approved write runs once', async () => {
  const sessionId = unique('s');
  const order = unique('o');
  const provider = new RatchetToolProvider({ client: agentClient(), sessionId });
  const tools = await provider.resolveTools([`${env.agent}/look_up_order`, `${env.agent}/cancel_order`]);
  const { model } = scriptedModel('msg_mastra_1', lookUpAndCancel(order));
  const agent = new Agent({ id: 'support', name: 'support', instructions: 'help', tools,
    model: await provider.wrapModel(model, { sessionId, agent: env.agent }) });
  const answer = await whileDeciding(sessionId, 'cancel_order', { approved: true },
    () => agent.generate('cancel my order', { maxSteps: 3 }));
  assert.match(answer.text, /"done":"cancel_order"/);
  assert.deepEqual(await turnsOf(sessionId), [['msg_mastra_1', ['look_up_order', 'cancel_order']]]);
  assert.deepEqual(await writesFor(order), { cancel_order: 1 });
});

test('a rejected write reaches the Mastra agent\'s model with the approver\'s reason', async () => {
  const sessionId = unique('s');
  const provider = new RatchetToolProvider({ client: agentClient(), sessionId });
  const tools = await provider.resolveTools([`${env.agent}/cancel_order`]);
  const { model } = scriptedModel('msg_mastra_2', [{ name: 'cancel_order', arguments: { order: unique('o') } }]);
  const agent = new Agent({ id: 'support', name: 'support', instructions: 'help', tools, model });
  const answer = await whileDeciding(sessionId, 'cancel_order', { approved: false, reason: 'needs a manager' },
    () => agent.generate('cancel my order', { maxSteps: 3 }));
  assert.match(answer.text, /a person refused it/);
  assert.match(answer.text, /needs a manager/);
});

test('a description override from Mastra\'s tool configuration replaces the catalogue\'s, in both resolve surfaces', async () => {
  const provider = new RatchetToolProvider({ client: agentClient(), sessionId: unique('s') });
  const slug = `${env.agent}/cancel_order`;
  const legacy = await provider.resolveTools([slug, `${env.agent}/look_up_order`], { [slug]: { description: 'Cancel only when asked twice' } });
  assert.equal(legacy.cancel_order.description, 'Cancel only when asked twice');
  assert.equal(legacy.look_up_order.description, 'Finds an order by its number');
  const vnext = await provider.resolveToolsVNext({ toolSlugs: [slug], connectionId: 'c', toolMeta: { [slug]: { toolkit: env.agent, description: 'Ask first' } } });
  assert.equal(vnext.cancel_order.description, 'Ask first');
});
