import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { generateText, stepCountIs } from 'ai';
import { ratchetTools } from '../src/ai-sdk.js';
import { agentClient, approverClient, decideWhenAsked, env, turnsOf, unique, whileDeciding, writesFor } from './support.js';
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

test('an agent process killed while a write waits for approval replays its step without running a write twice', async () => {
  const sessionId = unique('s');
  const order = unique('o');
  const args = ['tests/fixtures/ai-sdk-agent.js', sessionId, 'chatcmpl-crash-1', order];
  const first = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const approvals = approverClient();
  const deadline = Date.now() + 30_000;
  while (!(await approvals.approvals()).some((a) => a.sessionId === sessionId)) {
    assert.ok(Date.now() < deadline, 'the agent process never asked for the cancel approval');
    await new Promise((r) => setTimeout(r, 100));
  }
  first.kill('SIGKILL');
  await once(first, 'exit');
  assert.deepEqual(await writesFor(order), { add_note: 1 });

  const replay = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  replay.stdout.on('data', (d) => { output += d; });
  await decideWhenAsked(sessionId, 'cancel_order', { approved: true });
  const [code] = await once(replay, 'exit');
  assert.equal(code, 0, output);
  assert.match(output, /answer .*"done":"cancel_order"/);
  assert.deepEqual(await writesFor(order), { add_note: 1, cancel_order: 1 });
  const timeline = await approvals.session(sessionId);
  assert.deepEqual(timeline.turns.map((t) => t.turnId), ['chatcmpl-crash-1']);
});
