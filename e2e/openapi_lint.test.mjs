// Redocly lints the document the server serves (its recommended rules):
// 0 errors and 0 warnings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let server;

before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

test('Redocly lints /openapi.json with no error and no warning', async () => {
  const res = await fetch(server.url + '/openapi.json');
  assert.equal(res.status, 200);
  const dir = mkdtempSync(join(tmpdir(), 'voyage-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, await res.text());
    const run = spawnSync(join(root, 'node_modules', '.bin', 'redocly'), ['lint', file, '--format=json'],
      { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
    const out = JSON.parse(run.stdout.slice(run.stdout.indexOf('{')));
    const problems = out.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
    assert.deepEqual(problems, []);
    assert.deepEqual([out.totals.errors, out.totals.warnings], [0, 0]);
    assert.equal(run.status, 0, run.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
