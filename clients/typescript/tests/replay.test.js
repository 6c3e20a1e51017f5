import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { approverClient, decideWhenAsked, turnsOf, unique, writesFor } from './support.js';

const agentProcess = (framework, sessionId, responseId, order) => spawn(process.execPath,
  ['tests/fixtures/agent-process.js', framework, sessionId, responseId, order], { stdio: ['ignore', 'pipe', 'inherit'] });

for (const framework of ['ai-sdk', 'mastra', 'openai-agents', 'mcp-openai-agents']) {
  test(`${framework}: an agent process killed between its two writes and replayed runs each write once`, async () => {
    const sessionId = unique('replay');
    const order = unique('o');
    const responseId = `resp-replay-${framework}`;
    const first = agentProcess(framework, sessionId, responseId, order);
    const approvals = approverClient();
    const deadline = Date.now() + 30_000;
    while (!(await approvals.approvals()).some((a) => a.sessionId === sessionId)) {
      assert.ok(Date.now() < deadline, 'the agent process never asked for the cancel approval');
      await new Promise((r) => setTimeout(r, 100));
    }
    first.kill('SIGKILL');
    await once(first, 'exit');
    assert.deepEqual(await writesFor(order), { add_note: 1 });

    const replay = agentProcess(framework, sessionId, responseId, order);
    let output = '';
    replay.stdout.on('data', (d) => { output += d; });
    // a person who takes a while: the replayed process waits on the same turn meanwhile
    await decideWhenAsked(sessionId, 'cancel_order', { approved: true, delayMs: 1_500 });
    const [code] = await once(replay, 'exit');
    assert.equal(code, 0, output);
    assert.match(output, /answer .*cancel_order/);
    assert.deepEqual(await writesFor(order), { add_note: 1, cancel_order: 1 });
    assert.deepEqual(await turnsOf(sessionId), [[responseId, ['add_note', 'cancel_order']]]);
  });
}
