/**
 * What `npm install tabiya` gets (package.json "files"): every module the shipped code imports,
 * the WebAssembly builds, the web page, the data read at run time (the bundled games and book,
 * the opening names) and the docs; not the tests, sources, tuning data or build leftovers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

test('the package holds what runs and nothing of the tests', () => {
  // --ignore-scripts: packing would otherwise run `prepare` (a full build) over this checkout.
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = new Set((JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin: Record<string, string>; exports: Record<string, unknown> };
  const needed = [
    ...Object.values(pkg.bin),
    'dist/src/index.js',
    'dist/src/index.d.ts',
    'dist/src/browser.js',
    ...['core', 'core-checked', 'core-shared', 'core-trace'].map((w) => `dist/wasm/${w}.wasm`),
    'dist/web/index.html',
    'dist/web/app.js',
    'dist/web/worker.js',
    'data/masters-2550.pgn.gz',
    'data/tabiya.bin',
    'data/openings/a.tsv',
    'data/openings-by-key.tsv',
    'data/openings/COPYING.txt',
    'README.md',
    'LICENSE',
  ];
  for (const f of needed) assert.ok(files.has(f), `${f} is in the package`);
  for (const f of files) {
    // testData: the tuner tests' loader of ../shared's labelled positions, a path no installed package has.
    assert.doesNotMatch(f, /(^|\/)test\/|\.test\.|(^|\/)testData\.|^src\/|^scripts\/|^\.ci\/|^data\/tuning\/|tsbuildinfo/, `${f} is not shipped`);
  }
  // Every relative import of the shipped code is shipped too.
  for (const f of files) {
    if (!f.endsWith('.js') || !f.startsWith('dist/src/')) continue;
    const text = readFileSync(join(REPO, f), 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = normalize(join(dirname(f), m[1]!));
      assert.ok(files.has(target), `${f} imports ${m[1]}, which is not in the package`);
    }
  }
});
