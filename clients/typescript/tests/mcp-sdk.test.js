import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { env, unique, whileDeciding, writesFor } from './support.js';

/** The MCP SDK's own client on Ratchet's endpoint for the agent, in `sessionId`. */
async function mcpClient(sessionId) {
  const transport = new StreamableHTTPClientTransport(new URL(`${env.url}/mcp/${env.agent}`), {
    requestInit: { headers: { Authorization: `Bearer ${env.agentToken}`, 'ratchet-session': sessionId } },
  });
  const client = new Client({ name: 'mcp-sdk-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const cancel = (order, turn) => ({ name: 'cancel_order', arguments: { order },
  _meta: { 'dev.ratchet/turn': turn, 'dev.ratchet/index': 0, 'dev.ratchet/count': 1 } });

test('an MCP SDK call whose timeout resets on progress outlasts an approval several times longer than the timeout', async () => {
  const sessionId = unique('mcp-sdk');
  const order = unique('o');
  const client = await mcpClient(sessionId);
  try {
    const progress = [];
    // Ratchet reports progress every 400 ms here (http.mcpProgressMillis); the timeout is 1.5 s, the person takes 4 s
    const result = await whileDeciding(sessionId, 'cancel_order', { approved: true, delayMs: 4_000 },
      () => client.callTool(cancel(order, 'resp-sdk-1'), { timeout: 1_500, resetTimeoutOnProgress: true, onprogress: (p) => progress.push(p) }));
    assert.equal(result.isError, false, JSON.stringify(result));
    assert.equal(result.structuredContent.done, 'cancel_order');
    assert.ok(progress.some((p) => /waiting for a person to approve cancel_order/.test(p.message)), JSON.stringify(progress));
    assert.deepEqual(await writesFor(order), { cancel_order: 1 });
  } finally {
    await client.close();
  }
});

test('without the reset the same timeout gives up on the approval, and the call runs on in Ratchet', async () => {
  const sessionId = unique('mcp-sdk');
  const order = unique('o');
  const client = await mcpClient(sessionId);
  try {
    await assert.rejects(client.callTool(cancel(order, 'resp-sdk-2'), { timeout: 1_500 }), /time/i);
    const resent = await whileDeciding(sessionId, 'cancel_order', { approved: true },
      () => client.callTool(cancel(order, 'resp-sdk-2'), { timeout: 20_000 }));
    assert.equal(resent.structuredContent.done, 'cancel_order');
    assert.deepEqual(await writesFor(order), { cancel_order: 1 });
  } finally {
    await client.close();
  }
});
