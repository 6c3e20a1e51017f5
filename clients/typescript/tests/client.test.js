import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RatchetClient, RatchetError, ToolCallError, turnIdFor } from '../src/index.js';
import { agentClient, env, unique, whileDeciding, writesFor } from './support.js';

test('a turn submitted twice runs its write once and answers the same results', async () => {
  const client = agentClient();
  const sessionId = unique('s');
  const order = unique('o');
  const turn = { agent: env.agent, turnId: 't1', calls: [{ name: 'add_note', arguments: { order, note: 'hi' } }] };
  const first = await client.runTurn(sessionId, turn);
  const second = await client.runTurn(sessionId, turn);
  assert.deepEqual(RatchetClient.callsOf(second), RatchetClient.callsOf(first));
  assert.equal(RatchetClient.valueOf(RatchetClient.callsOf(first)[0]).done, 'add_note');
  assert.deepEqual(await writesFor(order), { add_note: 1 });
});

test('API errors are typed and carry the API error code', async () => {
  const client = agentClient();
  const sessionId = unique('s');
  await client.runTurn(sessionId, { agent: env.agent, turnId: 't1', calls: [{ name: 'look_up_order', arguments: { order: '1' } }] });
  await assert.rejects(
    client.submitTurn(sessionId, { agent: env.agent, turnId: 't1', calls: [{ name: 'look_up_order', arguments: { order: '2' } }] }),
    (e) => e instanceof RatchetError && e.status === 409 && e.code === 'TURN_ID_REUSED');
  await assert.rejects(
    client.submitTurn(unique('s'), { agent: 'no-such-agent', turnId: 't1', calls: [{ name: 'x', arguments: {} }] }),
    (e) => e instanceof RatchetError && e.status === 404 && e.code === 'UNKNOWN_AGENT');
  await assert.rejects(
    new RatchetClient({ baseUrl: env.url, token: 'rt_wrong' }).agents(),
    (e) => e instanceof RatchetError && e.status === 401 && e.code === 'UNAUTHENTICATED');
});

test('a write that needs approval completes once an approver approves it', async () => {
  const client = agentClient();
  const sessionId = unique('s');
  const order = unique('o');
  const turn = { agent: env.agent, turnId: 't1', calls: [{ name: 'cancel_order', arguments: { order } }] };
  const submitted = await client.submitTurn(sessionId, turn);
  assert.equal(submitted.status, 'accepted');
  const answer = await whileDeciding(sessionId, 'cancel_order', { approved: true },
    () => client.awaitTurn(sessionId, 't1'));
  const call = RatchetClient.callsOf(answer)[0];
  assert.equal(call.outcome, 'succeeded');
  assert.equal(call.approval.status, 'approved');
  assert.deepEqual(await writesFor(order), { cancel_order: 1 });
});

test('a rejected write throws a ToolCallError whose text carries the approver\'s reason', async () => {
  const client = agentClient();
  const sessionId = unique('s');
  const turn = { agent: env.agent, turnId: 't1', calls: [{ name: 'cancel_order', arguments: { order: unique('o') } }] };
  const answer = await whileDeciding(sessionId, 'cancel_order', { approved: false, reason: 'the customer changed their mind' },
    () => client.runTurn(sessionId, turn));
  assert.throws(() => RatchetClient.valueOf(RatchetClient.callsOf(answer)[0]), (e) => e instanceof ToolCallError
    && e.message.includes('a person refused it') && e.message.includes('the customer changed their mind'));
});

test('the event stream yields the turn\'s journaled events in order', async () => {
  const client = agentClient();
  const sessionId = unique('s');
  await client.runTurn(sessionId, { agent: env.agent, turnId: 't1', calls: [{ name: 'look_up_order', arguments: { order: '7' } }] });
  const controller = new AbortController();
  const types = [];
  for await (const event of client.events(sessionId, { signal: controller.signal })) {
    types.push(event.type);
    if (event.type === 'turn.completed') controller.abort();
  }
  assert.deepEqual(types.filter((t) => t !== 'session.claimed' && t !== 'call.started'),
    ['turn.submitted', 'call.completed', 'turn.completed']);
});

test('turn ids derive from the model response id, or a digest when it is not a valid id', () => {
  assert.equal(turnIdFor('chatcmpl-abc123'), 'chatcmpl-abc123');
  assert.match(turnIdFor('resp with spaces/and slashes'), /^sha256:[0-9a-f]{32}$/);
  assert.equal(turnIdFor('resp with spaces'), turnIdFor('resp with spaces'));
  assert.equal(turnIdFor(undefined, ['call_1', 'call_2']), 'calls:sha256:85dd584336591c630e0fb02d611d70a5');
  assert.throws(() => turnIdFor(undefined, []));
});
