// Runs the browser tests, two files at a time, the walk first. node --test
// runs its files in name order, which left the walk (half the phase's
// work) to start last and run alone on a core and a half; started first,
// it runs beside the other files and the phase ends with it.
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const first = ['walk.test.mjs'];
const files = readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort()
  .sort((a, b) => Number(first.includes(b)) - Number(first.includes(a)))
  .map((f) => join(here, f));

run({ files, concurrency: Number(process.env.E2E_CONCURRENCY) || 2 })
  .on('test:fail', () => { process.exitCode = 1; })
  .compose(spec)
  .pipe(process.stdout);
