import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { ratchetMcpServer } from '../src/openai-agents.js';
import { approverClient, env, lookUpAndCancel, turnsOf, unique, whileDeciding, writesFor } from './support.js';
import { agentsModel } from './fixtures/agents-model.js';

setTracingDisabled(true);

test('an Agents SDK agent with Ratchet as its MCP server runs each response\'s calls as one turn', async () => {
  const sessionId = unique('mcp');
  const order = unique('o');
  const ratchet = await ratchetMcpServer({ baseUrl: env.url, token: env.agentToken, sessionId, agent: env.agent });
  try {
    const agent = new Agent({ name: 'support', instructions: 'help', mcpServers: [ratchet.server],
      model: ratchet.wrapModel(agentsModel('resp_mcp_1', lookUpAndCancel(order))) });
    const result = await whileDeciding(sessionId, 'cancel_order', { approved: true },
      () => run(agent, 'cancel my order', { maxTurns: 3 }));
    assert.match(result.finalOutput, /cancel_order/);
    assert.deepEqual(await turnsOf(sessionId), [['resp_mcp_1', ['look_up_order', 'cancel_order']]]);
    assert.deepEqual(await writesFor(order), { cancel_order: 1 });
  } finally {
    await ratchet.close();
  }
});

test('a write rejected over MCP reaches the Agents SDK model with the approver\'s reason', async () => {
  const sessionId = unique('mcp');
  const ratchet = await ratchetMcpServer({ baseUrl: env.url, token: env.agentToken, sessionId, agent: env.agent });
  try {
    const agent = new Agent({ name: 'support', instructions: 'help', mcpServers: [ratchet.server],
      model: ratchet.wrapModel(agentsModel('resp_mcp_2', [{ name: 'cancel_order', arguments: { order: unique('o') } }])) });
    const result = await whileDeciding(sessionId, 'cancel_order', { approved: false, reason: 'the order is a gift' },
      () => run(agent, 'cancel my order', { maxTurns: 3 }));
    assert.match(result.finalOutput, /a person refused it/);
    assert.match(result.finalOutput, /the order is a gift/);
  } finally {
    await ratchet.close();
  }
});

test('an MCP call waits as long as its configured timeout, and a client that gave up early loses only the answer', async () => {
  const sessionId = unique('mcp');
  const order = unique('o');
  const calls = [{ name: 'cancel_order', arguments: { order } }];
  const impatient = await ratchetMcpServer({ baseUrl: env.url, token: env.agentToken, sessionId, agent: env.agent, timeoutMs: 1_000 });
  try {
    const agent = new Agent({ name: 'support', instructions: 'help', mcpServers: [impatient.server],
      model: impatient.wrapModel(agentsModel('resp_mcp_slow', calls)) });
    const gaveUp = await run(agent, 'cancel my order', { maxTurns: 3 });
    assert.match(gaveUp.finalOutput, /did not answer this call within 1000 ms/);
    assert.match(gaveUp.finalOutput, /do not call it again/);
    assert.doesNotMatch(gaveUp.finalOutput, /try again/);
    assert.ok((await approverClient().approvals()).some((a) => a.sessionId === sessionId && a.tool === 'cancel_order'));
  } finally {
    await impatient.close();
  }
  const patient = await ratchetMcpServer({ baseUrl: env.url, token: env.agentToken, sessionId, agent: env.agent, timeoutMs: 20_000 });
  try {
    const agent = new Agent({ name: 'support', instructions: 'help', mcpServers: [patient.server],
      model: patient.wrapModel(agentsModel('resp_mcp_slow', calls)) });
    const result = await whileDeciding(sessionId, 'cancel_order', { approved: true, delayMs: 2_500 },
      () => run(agent, 'cancel my order', { maxTurns: 3 }));
    assert.match(result.finalOutput, /cancel_order/);
    assert.deepEqual(await writesFor(order), { cancel_order: 1 });
    assert.deepEqual(await turnsOf(sessionId), [['resp_mcp_slow', ['cancel_order']]]);
  } finally {
    await patient.close();
  }
});
