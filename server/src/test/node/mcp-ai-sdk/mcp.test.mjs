// Ratchet as the MCP server of a Vercel AI SDK agent. The JUnit test McpAiSdkTest starts
// `ratchet run` and passes its address, the demo agent's token and the admin password.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createMCPClient } from '@ai-sdk/mcp';

const base = process.env.RATCHET_URL;
const token = process.env.RATCHET_TOKEN;
const adminPassword = process.env.RATCHET_ADMIN_PASSWORD;

function ratchet(session) {
  return createMCPClient({
    transport: {
      type: 'http',
      url: `${base}/mcp/order-support`,
      headers: { Authorization: `Bearer ${token}`, 'ratchet-session': session },
    },
  });
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A mock model that asks for `calls` first, then answers with the text of what the tools said. */
function scriptedModel(calls) {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const results = prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content);
      if (results.length === 0) {
        return {
          content: calls.map(([toolName, input], i) => ({
            type: 'tool-call', toolCallId: `call_${i}`, toolName, input: JSON.stringify(input),
          })),
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: JSON.stringify(results.map((r) => r.output)) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

function texts(toolResult) {
  return toolResult.output.content.map((c) => c.text).join('\n');
}

test('the agent sees the catalogue with its effect-class hints', async () => {
  const client = await ratchet('ai-sdk-catalogue');
  try {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.equal(byName.shop_look_up_order.annotations.readOnlyHint, true);
    assert.equal(byName.shop_cancel_order.annotations.readOnlyHint, false);
    assert.equal(byName.shop_cancel_order.annotations.idempotentHint, false);
    assert.equal(byName.shop_look_up_order.inputSchema.type, 'object');
  } finally {
    await client.close();
  }
});

test('a model response with a read and a small refund runs both through Ratchet', async () => {
  const client = await ratchet('ai-sdk-refund');
  try {
    const result = await generateText({
      model: scriptedModel([
        ['shop_look_up_order', { orderId: '1001' }],
        ['shop_refund_order', { orderId: '1001', body: { amount: 5 } }],
      ]),
      tools: await client.tools(),
      prompt: 'Refund 5 on order 1001',
      stopWhen: stepCountIs(3),
    });
    const [lookUp, refund] = result.steps[0].toolResults;
    assert.equal(lookUp.output.isError, false, texts(lookUp));
    assert.match(texts(lookUp), /Ada Lovelace/);
    assert.equal(refund.output.isError, false, texts(refund));
    assert.equal(refund.output._meta['dev.ratchet/outcome'], 'succeeded');
    assert.equal(result.steps.length, 2);
    assert.match(result.text, /Ada Lovelace/);
  } finally {
    await client.close();
  }
});

test('a cancel a person rejects comes back to the model as an error with the reason', async () => {
  const client = await ratchet('ai-sdk-cancel');
  try {
    const rejected = rejectNextApproval('ai-sdk-cancel', 'the customer called back and keeps the order');
    const result = await generateText({
      model: scriptedModel([['shop_cancel_order', { orderId: '1003' }]]),
      tools: await client.tools(),
      prompt: 'Cancel order 1003',
      stopWhen: stepCountIs(3),
    });
    await rejected;
    const [cancel] = result.steps[0].toolResults;
    assert.equal(cancel.output.isError, true);
    assert.match(texts(cancel), /a person refused it/);
    assert.match(texts(cancel), /the customer called back and keeps the order/);
    assert.match(result.text, /keeps the order/);
  } finally {
    await client.close();
  }
});

/** Logs in as the admin, waits for the session's approval request and rejects it. */
async function rejectNextApproval(session, reason) {
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'admin', password: adminPassword }),
  });
  assert.equal(login.status, 200);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { csrfToken } = await login.json();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const list = await (await fetch(`${base}/api/approvals`, { headers: { Cookie: cookie } })).json();
    const request = list.approvals.find((a) => a.sessionId === session);
    if (request) {
      const decided = await fetch(`${base}/api/approvals/${session}/${request.callId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': csrfToken },
        body: JSON.stringify({ argumentsHash: request.argumentsHash, approved: false, reason }),
      });
      assert.equal(decided.status, 200, await decided.text());
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no approval was requested in ${session}`);
}
