/**
 * The engine from Node code, as the README shows it: its example, type-checked strictly and run
 * in a project with the package installed, starts `tabiya uci` through the package root's
 * `spawnEngine` and `match.UciClient` and prints a legal reply; `tabiya/engine`'s
 * BrowserEngine, which needs Web Workers, points a Node caller to that route.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Board } from '../src/board.js';
import { BrowserEngine } from '../src/engine/browserEngine.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

test("the README's engine in Node: type-checks, runs and answers with a legal move", () => {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8');
  const code = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('new match.UciClient'));
  assert.ok(code !== undefined, 'README: the Node engine example');
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-node-engine-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO, join(dir, 'node_modules', 'tabiya'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'engine.ts'), code);
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
      '--types', 'node', '--typeRoots', join(REPO, 'node_modules/@types'), 'engine.ts'], { cwd: dir, encoding: 'utf8' });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    const r = spawnSync(process.execPath, ['engine.js'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const board = new Board();
    board.push('e2e4');
    assert.ok(board.moves().some((m) => m.uci === r.stdout.trim()), `a legal reply to 1. e4: ${r.stdout}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('BrowserEngine in Node names the route that works there', async () => {
  const e = new BrowserEngine({ assets: 'http://127.0.0.1/vendor/' });
  await assert.rejects(e.search({ depth: 1 }), /needs Web Workers \(a browser\); in Node, run `tabiya uci` with the package root's spawnEngine and match\.UciClient/);
});
