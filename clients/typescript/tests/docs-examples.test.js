import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { agentClient, env, lookUpAndCancel, unique, whileDeciding, writesFor } from './support.js';
import { scriptedModel } from './fixtures/scripted-model.js';
import { agentsModel } from './fixtures/agents-model.js';

const docs = fileURLToPath(new URL('../../../docs/CLIENTS.md', import.meta.url));
// inside the package, so that the examples import '@ratchet/client' by its name, as an application does
const dir = fileURLToPath(new URL('./.docs-examples/', import.meta.url));

/** The TypeScript examples of docs/CLIENTS.md: every ```ts block that starts with `// example: <file>`. */
function examples() {
  const found = {};
  for (const [, body] of readFileSync(docs, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)) {
    const name = /^\/\/ example: (\S+\.ts)\n/.exec(body)?.[1];
    if (name) found[name] = body;
  }
  return found;
}

function compile(found) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(found)) writeFileSync(join(dir, name), body);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true,
      skipLibCheck: true, types: ['node'], outDir: 'out', rootDir: '.' },
    files: Object.keys(found),
  }));
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  return spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
}

const load = (name) => import(pathToFileURL(join(dir, 'out', name)).href);

test('the TypeScript examples of docs/CLIENTS.md compile under tsc --strict and run against Ratchet', { timeout: 120_000 }, async () => {
  const found = examples();
  assert.deepEqual(Object.keys(found).sort(),
    ['ai-sdk.ts', 'client.ts', 'mastra.ts', 'openai-agents-mcp.ts', 'openai-agents.ts']);
  const compiled = compile(found);
  assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);

  const client = agentClient();
  const { cancelOrder } = await load('client.js');
  const order = unique('o');
  const sessionId = unique('docs');
  const text = await whileDeciding(sessionId, 'cancel_order', { approved: true },
    () => cancelOrder(client, env.agent, sessionId, 'chatcmpl-docs-1', order));
  assert.match(text, /"done":"cancel_order"/);
  assert.deepEqual(await writesFor(order), { cancel_order: 1 });

  const { support: aiSdk } = await load('ai-sdk.js');
  const aiSession = unique('docs');
  const aiText = await whileDeciding(aiSession, 'cancel_order', { approved: false, reason: 'the parcel left' },
    () => aiSdk(client, env.agent, aiSession, scriptedModel('resp-docs-ai', lookUpAndCancel(unique('o'))).model, 'cancel it'));
  assert.match(aiText, /the parcel left/);

  const { support: mastra } = await load('mastra.js');
  const mastraSession = unique('docs');
  const mastraOrder = unique('o');
  const mastraText = await whileDeciding(mastraSession, 'cancel_order', { approved: true },
    () => mastra(client, env.agent, mastraSession, scriptedModel('resp-docs-mastra', lookUpAndCancel(mastraOrder)).model, 'cancel it'));
  assert.match(mastraText, /"done":"cancel_order"/);
  assert.deepEqual(await writesFor(mastraOrder), { cancel_order: 1 });

  const { support: agents } = await load('openai-agents.js');
  const agentsSession = unique('docs');
  const agentsText = await whileDeciding(agentsSession, 'cancel_order', { approved: false, reason: 'a manager must agree' },
    () => agents(client, env.agent, agentsSession, agentsModel('resp-docs-agents', lookUpAndCancel(unique('o'))), 'cancel it'));
  assert.match(agentsText, /a manager must agree/);

  const { supportOverMcp } = await load('openai-agents-mcp.js');
  const mcpSession = unique('docs');
  const mcpOrder = unique('o');
  const mcpText = await whileDeciding(mcpSession, 'cancel_order', { approved: true },
    () => supportOverMcp(env.url, env.agentToken, env.agent, mcpSession, agentsModel('resp-docs-mcp', lookUpAndCancel(mcpOrder)), 'cancel it'));
  assert.match(mcpText, /cancel_order/);
  assert.deepEqual(await writesFor(mcpOrder), { cancel_order: 1 });
});
