/**
 * What `tabiya uci` and `tabiya xboard` load before they answer: the book readers (the .tbk and
 * Polyglot readers, the PGN parser of a book's games, zlib) only once a book is named or asked
 * about, so an engine without a book answers `readyok` and `feature done=1` sooner. Every module
 * loaded is listed by a module hook (node:module register) that the engine's threads inherit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MAIN } from './engineProcess.js';
import { holdUntilLoaded } from '../src/cli/commands/xboard.js';

const BOOK = fileURLToPath(new URL('../../test/fixtures/counted-each-time.tbk', import.meta.url));
/** Modules only a book needs. */
const BOOK_ONLY = /\/book\/rich\/(tbkBook|reader|container|gameReader)\.js$|\/book\/node\/(openTbk|engineBook|reachCache)\.js$|\/pgn\/parser\.js$|^node:zlib$/;

/** Runs the engine with `input`; returns its output and every module its threads loaded. */
function run(command: 'uci' | 'xboard', input: string): { out: string; modules: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-startup-'));
  try {
    const log = join(dir, 'modules.txt');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`,
    );
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, MAIN, command], { input, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const modules = spawnSync('cat', [log], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l !== '');
    return { out: r.stdout, modules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('uci without a book answers uciok and readyok without loading the book readers', () => {
  const { out, modules } = run('uci', 'uci\nisready\nquit\n');
  assert.match(out, /^uciok$/m);
  assert.match(out, /^readyok$/m);
  assert.ok(modules.some((m) => m.endsWith('/node/engineWorker.js')), 'the search thread was listed too');
  assert.deepEqual(modules.filter((m) => BOOK_ONLY.test(m)), []);
});

test('uci: a BookFile loads the readers on the search thread; readyok comes after the book is loaded or its error told', () => {
  const bad = run('uci', 'uci\nsetoption name BookFile value /nonexistent/book.bin\nisready\nquit\n').out.split('\n');
  const error = bad.findIndex((l) => /^info string \/nonexistent\/book\.bin: cannot read/.test(l));
  assert.ok(error >= 0 && error < bad.indexOf('readyok'), bad.join('\n'));
  const { out, modules } = run('uci', `uci\nsetoption name OwnBook value true\nsetoption name BookFile value ${BOOK}\nisready\nposition startpos\ngo depth 2\n`);
  assert.ok(modules.some((m) => BOOK_ONLY.test(m)));
  assert.doesNotMatch(out, /info string/);
  // The book's moves from the start position: e4 d4 Nf3 c4 b3 g3 (the last two never chosen).
  assert.match(out, /^bestmove (e2e4|d2d4|g1f3|c2c4)\b/m);
});

test('xboard answers protover (done=0 first, then done=1) without loading the book readers; bk loads them when asked', () => {
  const plain = run('xboard', 'xboard\nprotover 2\nping 1\nquit\n');
  const lines = plain.out.split('\n');
  assert.equal(lines[0], 'feature done=0');
  assert.ok(lines.indexOf('feature done=1') > 0 && lines.indexOf('feature done=1') < lines.indexOf('pong 1'), plain.out);
  assert.deepEqual(plain.modules.filter((m) => BOOK_ONLY.test(m)), []);
  const book = run('xboard', `xboard\nprotover 2\noption BookFile=${BOOK}\nbk\nping 7\nquit\n`);
  const after = book.out.split('\n').slice(book.out.split('\n').indexOf('feature done=1') + 1);
  // bk's lines (each starting with a space, ended by an empty line), then the pong: in order.
  assert.match(after[0]!, /^ e4 +play/);
  assert.equal(after[after.indexOf('') + 1], 'pong 7', book.out);
});

test('holdUntilLoaded: a line that needs the load waits for it, the lines after it too, and the end of input last', async () => {
  const got: string[] = [];
  const server = { receive: (l: string) => got.push(l), endOfInput: () => got.push('<end>') };
  let release!: () => void;
  const loaded = new Promise<void>((resolve) => (release = resolve));
  let loads = 0;
  let ready = false;
  const front = holdUntilLoaded(server, (l) => !ready && l === 'bk', () => (loads++, loaded.then(() => void (ready = true))));
  front.receive('ping 1');
  front.receive('bk');
  front.receive('ping 2');
  front.endOfInput();
  assert.deepEqual(got, ['ping 1']);
  release();
  await loaded;
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(got, ['ping 1', 'bk', 'ping 2', '<end>']);
  front.receive('bk');
  assert.equal(loads, 1);
  assert.deepEqual(got.at(-1), 'bk');
});
