import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('the type declarations compile as an application uses them', () => {
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const config = fileURLToPath(new URL('./fixtures/tsconfig.json', import.meta.url));
  const run = spawnSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test('the engines field admits the Node version this suite runs on, the version it states as tested', () => {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const [, major, minor] = /^>=(\d+)\.(\d+)$/.exec(engines.node) ?? [];
  assert.ok(major, `engines.node is '${engines.node}', expected >=<major>.<minor>`);
  const [runMajor, runMinor] = process.versions.node.split('.').map(Number);
  assert.ok(runMajor > Number(major) || (runMajor === Number(major) && runMinor >= Number(minor)),
    `Node ${process.versions.node} runs this suite, but engines.node is '${engines.node}'`);
});
