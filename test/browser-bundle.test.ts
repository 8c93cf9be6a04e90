/**
 * The package in a web page: a bundler for the browser (esbuild, platform "browser", as Vite and
 * webpack resolve packages) takes `tabiya` through its "browser" export condition and
 * `tabiya/browser`, `tabiya/core` and `tabiya/notation`, with nothing of Node in the bundle; the
 * documented browser snippets bundle, and the README's library example runs from the bundle.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';
import { build } from 'esbuild';
import { Board } from '../src/board.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tabiya-browser-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// An app with the package installed (a link to this checkout: its package.json and dist/).
mkdirSync(join(dir, 'node_modules'));
symlinkSync(REPO, join(dir, 'node_modules', 'tabiya'));

/** The fenced ```ts block of `doc` that contains `marker`. */
function snippet(doc: string, marker: string): string {
  const text = readFileSync(join(REPO, doc), 'utf8');
  const block = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes(marker));
  assert.ok(block !== undefined, `${doc}: a ts block with ${marker}`);
  return block;
}

/** Bundles `code` for the browser; returns the bundle's text. Errors (an unresolvable node: module) fail the test. */
async function bundle(name: string, code: string): Promise<string> {
  const entry = join(dir, `${name}.mjs`);
  writeFileSync(entry, code);
  const r = await build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', absWorkingDir: dir });
  assert.deepEqual(r.errors, []);
  const out = r.outputFiles[0]!.text;
  assert.doesNotMatch(out, /from ["']node:|require\(["']node:/, `${name}: nothing of Node in the bundle`);
  return out;
}

test('tabiya in a browser bundle: the root through its "browser" condition, and every subpath', async () => {
  for (const spec of ['tabiya', 'tabiya/browser', 'tabiya/core', 'tabiya/notation', 'tabiya/engine']) {
    await bundle(spec.replace('/', '-'), `import * as T from '${spec}';\nglobalThis.names = Object.keys(T);\n`);
  }
  // The root for Node still has the file adapters; the browser's has the same names but those.
  const node = await import('tabiya');
  const browser = await import('tabiya/browser');
  for (const name of Object.keys(browser)) assert.ok(name in node, `${name} is in the Node root too`);
  // Left out are exactly the names that need Node (files, locks, processes, the tuner's data
  // files); whatever a bundle for the browser can take is there under the same name.
  const nodeOnly = ['addToRichBook', 'learnFromPgn', 'learnGame', 'learnGameSync', 'makeBook', 'makeRichBook', 'openAnyRichBook', 'openBook', 'openEngine', 'openRichBook',
    'patchRichBook', 'readPgn', 'spawnEngine', 'tune', 'updateRichBook', 'withBookLock', 'writeBookFile'];
  assert.deepEqual(Object.keys(node).filter((name) => !(name in browser)).sort(), nodeOnly);
  await assert.rejects(bundle('tune', "import * as tune from './node_modules/tabiya/dist/src/tune/index.js';\nglobalThis.t = tune;\n"), /Could not resolve "node:/, 'the tuner needs Node');
});

test('the documented browser snippets bundle, and the README example runs from its bundle', async () => {
  await bundle('pgn-doc', snippet('docs/pgn.md', 'new pgn.PgnParser(visitor)'));
  await bundle('books-doc', snippet('docs/books.md', 'book.PolyglotReader.from(bytes').split('// Node:')[0]!);
  await bundle('engine-readme', snippet('README.md', "import { BrowserEngine } from 'tabiya/engine';"));
  // docs/match.md calls the statistics and the match runner browser-safe: its example, bundled, prints what its comment says.
  const stats = snippet('docs/match.md', "import { match, stats } from 'tabiya';").replace(/^(stats\.trinomialElo\([^;]*\));/m, 'console.log(JSON.stringify($1));') + 'console.log(typeof match.runMatch, typeof match.UciClient);\n';
  const statsFile = join(dir, 'stats.bundle.mjs');
  writeFileSync(statsFile, await bundle('match-doc', stats));
  const s = spawnSync(process.execPath, [statsFile], { encoding: 'utf8' });
  assert.equal(s.status, 0, s.stderr);
  const [elo, types] = s.stdout.trim().split('\n');
  assert.deepEqual([JSON.parse(elo!).elo.toFixed(2), JSON.parse(elo!).los.toFixed(2), types], ['34.86', '97.83', 'function function']);
  const readme = snippet('README.md', "import { Board } from 'tabiya';");
  // The README's lines are expressions whose values the comments give: print them from the bundle.
  const printed = readme.replace(/^(board\.(?:moves|fen|polyglotKeyHex|outcome)\(\)[^;]*);/gm, 'console.log(JSON.stringify($1));');
  const file = join(dir, 'readme.bundle.mjs');
  writeFileSync(file, await bundle('readme', printed));
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // What the same lines give in Node, unbundled.
  const board = new Board();
  board.push('e4');
  board.push('e7e5');
  const expected = [board.moves().map((m) => m.san), board.fen(), board.polyglotKeyHex(), board.outcome()].map((v) => JSON.stringify(v) ?? 'undefined');
  assert.deepEqual(r.stdout.trim().split('\n'), expected);
  assert.equal(board.fen(), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', 'as the README says');
});
