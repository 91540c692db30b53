// A TypeScript client generated from the served document (openapi-typescript
// types, openapi-fetch calls) runs the core flows against a real
// `voyage serve`: the generated types must type-check e2e/client/flows.ts,
// and the calls must work; the requests in e2e/client/mistakes.ts, which the
// server refuses, must not compile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startServer } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const gen = join(here, 'client', '.gen');
let server;

before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

test('the generated TypeScript client type-checks and runs search, verify, book, pay, refund, statements and wallet', async () => {
  mkdirSync(gen, { recursive: true });
  const doc = await (await fetch(server.url + '/openapi.json')).json();
  writeFileSync(join(gen, 'api.d.ts'), astToString(await openapiTS(doc)));
  const src = join(here, 'client', 'flows.ts');

  // The reference's TypeScript code samples, each in a function with the
  // client and a file in scope, type-check against the same types.
  const samples = ["import type { Client } from 'openapi-fetch';", "import type { paths } from './api';", ''];
  let count = 0;
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      const sample = (op['x-codeSamples'] ?? []).find((s) => s.lang === 'TypeScript');
      assert.ok(sample, `${op.operationId} has no TypeScript sample`);
      samples.push(`export async function sample_${op.operationId}(client: Client<paths>, file: Blob) {`,
        '  ' + sample.source.replaceAll('\n', '\n  '), '}', '');
      count++;
    }
  }
  assert.ok(count > 100, `${count} samples`);
  writeFileSync(join(gen, 'samples.ts'), samples.join('\n'));

  // mistakes.ts: requests the server refuses, each expected not to compile.
  const program = ts.createProgram([src, join(here, 'client', 'mistakes.ts'), join(gen, 'samples.ts')], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  const diags = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diags, []);

  const js = ts.transpileModule(readFileSync(src, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const out = join(gen, 'flows.mjs');
  writeFileSync(out, js);
  const { run } = await import(pathToFileURL(out).href);
  const log = await run(server.url);
  assert.ok(log.some((l) => l.startsWith('refund refund ')), log.join('\n'));
  assert.ok(log.includes('issued'), log.join('\n'));
});
