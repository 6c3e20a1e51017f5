import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('the type declarations compile as an application uses them', () => {
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const config = fileURLToPath(new URL('./fixtures/tsconfig.json', import.meta.url));
  const run = spawnSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
