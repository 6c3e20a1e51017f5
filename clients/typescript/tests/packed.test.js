import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unique, writesFor } from './support.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const pinned = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).devDependencies;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// An application outside the checkout: the packed client, the frameworks the application chose,
// and a run of each adapter against the real Ratchet.
const APP = `
import { RatchetClient } from '@ratchet/client';
import { ratchetTools } from '@ratchet/client/ai-sdk';
import { RatchetToolProvider } from '@ratchet/client/mastra';
import { ratchetAgentTools } from '@ratchet/client/openai-agents';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const [sessionId, order] = process.argv.slice(2);
const client = new RatchetClient({ baseUrl: process.env.RATCHET_URL, token: process.env.RATCHET_AGENT_TOKEN });
const agent = process.env.RATCHET_AGENT;
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
let step = 0;
const model = new MockLanguageModelV3({ doGenerate: async ({ prompt }) => (++step === 1
  ? { content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'add_note', input: JSON.stringify({ order, note: 'packed' }) }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [], response: { id: 'resp-packed-1' } }
  : { content: [{ type: 'text', text: JSON.stringify(prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content)) }],
      finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }) });
const adapted = await ratchetTools({ client, sessionId, agent, model });
const { text } = await generateText({ model: adapted.model, tools: adapted.tools, stopWhen: stepCountIs(3), prompt: 'note it' });
const mastra = await new RatchetToolProvider({ client, sessionId }).listTools({ toolkit: agent });
const agents = await ratchetAgentTools({ client, sessionId, agent });
console.log(JSON.stringify({ text, mastra: mastra.data.length, agents: agents.tools.length }));
`;

test('the packed client installs into an application outside the checkout, next to the frameworks the application chose', { timeout: 240_000 }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'ratchet-ts-app-'));
  try {
    const tarball = execFileSync(npm, ['pack', '--silent', '--pack-destination', work], { cwd: packageDir, encoding: 'utf8' }).trim();
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'support-app', private: true, type: 'module' }));
    // the install command docs/CLIENTS.md gives, with the framework versions this suite tests
    const frameworks = ['ai', '@mastra/core', '@openai/agents', 'zod'].map((name) => `${name}@${pinned[name]}`);
    execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, tarball), ...frameworks],
      { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

    const installed = join(app, 'node_modules', '@ratchet', 'client');
    assert.deepEqual(readdirSync(installed).sort(), ['package.json', 'src']);
    assert.ok(!existsSync(join(installed, 'node_modules')), 'the frameworks resolve from the application, not from a copy of their own');
    for (const name of ['ai', '@mastra/core', '@openai/agents']) {
      assert.equal(JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')).version, pinned[name]);
    }

    writeFileSync(join(app, 'app.js'), APP);
    const order = unique('o');
    const out = execFileSync(process.execPath, ['app.js', unique('s'), order], { cwd: app, encoding: 'utf8', env: process.env });
    const answer = JSON.parse(out.trim().split('\n').pop());
    assert.match(answer.text, /"done":"add_note"/);
    assert.ok(answer.mastra >= 4 && answer.agents === answer.mastra, out);
    assert.deepEqual(await writesFor(order), { add_note: 1 });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
