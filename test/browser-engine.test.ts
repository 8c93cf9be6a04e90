/**
 * tabiya's engine in a page of one's own (`tabiya/engine`), as a web developer embeds it: a page
 * bundled by esbuild from the installed package, the worker and the cores copied from the
 * package's exports into a directory under a sub-path, served by a plain static server with
 * and without the cross-origin isolation headers, and driven in Chromium. The search is the
 * command-line engine's, node for node (`tabiya analyse` at the same hash size). Books fetched
 * by the page are read from their bytes (`tabiya/browser`) as `tabiya book probe` reads the files.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { build } from 'esbuild';
import { Board } from '../src/board.js';
import { BrowserEngine, type EngineResult } from '../src/engine/browserEngine.js';
import { makeRichBook } from '../src/book/node/richMake.js';

// The page's globals, as the functions run inside the browser see them (this file compiles for Node).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const window: any;

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(REPO, 'dist/src/cli/main.js');
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;
const dir = mkdtempSync(join(tmpdir(), 'tabiya-embed-'));
const SITE = join(dir, 'site');
/** A hang bound for a page step, not a speed: nothing is judged by how much of it a step takes. */
const WAIT_MS = 60_000;
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

let server: Server;
let origin = '';
let browser: Browser;

before(async () => {
  if (skip) return;
  // An app with the package installed (a link to this checkout: its package.json and dist/).
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO, join(dir, 'node_modules', 'tabiya'));
  writeFileSync(join(dir, 'page.mjs'), "import { BrowserEngine } from 'tabiya/engine';\nimport { Board, book, TbkBook } from 'tabiya/browser';\nwindow.BrowserEngine = BrowserEngine;\nwindow.tabiya = { Board, book, TbkBook };\n");
  const r = await build({ entryPoints: [join(dir, 'page.mjs')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', absWorkingDir: dir });
  assert.deepEqual(r.errors, []);
  assert.doesNotMatch(r.outputFiles[0]!.text, /from ["']node:|require\(["']node:/, 'nothing of Node in the bundle');
  const app = join(SITE, 'app');
  mkdirSync(join(app, 'vendor/tabiya'), { recursive: true });
  mkdirSync(join(app, 'broken'));
  writeFileSync(join(app, 'page.js'), r.outputFiles[0]!.text);
  writeFileSync(join(app, 'index.html'), '<!doctype html><meta charset="utf-8"><title>embed</title><script type="module" src="page.js"></script>\n');
  // What the developer copies: the package's exports, resolved as a build script would.
  const require = createRequire(join(dir, 'package.json'));
  for (const f of ['worker.js', 'core.wasm', 'core-shared.wasm']) copyFileSync(require.resolve(`tabiya/${f}`), join(app, 'vendor/tabiya', f));
  copyFileSync(require.resolve('tabiya/worker.js'), join(app, 'broken/worker.js')); // and forgot the cores
  // Books the page fetches: a Polyglot and a rich book made by the command line, and a version 1 .tbk.
  mkdirSync(join(app, 'books'));
  for (const f of ['sample.bin', 'sample.tbk']) {
    const made = spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, '--max-ply', '12', '-o', join(app, 'books', f)], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
  }
  await makeRichBook(join(app, 'books/v1.tbk'), { inputs: [SAMPLE_GZ], maxPly: 12 });
  // A server that does not know .js: it serves the worker as bytes, which a browser refuses.
  mkdirSync(join(app, 'octet'));
  for (const f of ['worker.js', 'core.wasm']) copyFileSync(require.resolve(`tabiya/${f}`), join(app, 'octet', f));
  // /iso/... is served cross-origin isolated, /plain/... is not; both from SITE.
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const isolated = path.startsWith('/iso/');
    let file = normalize(join(SITE, path.replace(/^\/(iso|plain)\//, '/')));
    if (file.endsWith('/')) file += 'index.html';
    const headers: Record<string, string> = isolated ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {};
    if (!file.startsWith(SITE) || !existsSync(file) || !/^\/(iso|plain)\//.test(path)) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    const type = path.includes('/octet/') ? 'application/octet-stream' : (TYPES[extname(file)] ?? 'application/octet-stream');
    res.writeHead(200, { ...headers, 'Content-Type': type }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const puppeteer = (await import('puppeteer-core')).default;
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  rmSync(dir, { recursive: true, force: true });
});

async function open(kind: 'iso' | 'plain'): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT_MS);
  await page.goto(`${origin}/${kind}/app/`);
  await page.waitForFunction(() => window.BrowserEngine !== undefined);
  return page;
}

const FEN = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';

test('not isolated: one thread, and a depth search node for node as tabiya analyse', { skip, timeout: 4 * WAIT_MS }, async () => {
  const page = await open('plain');
  const got = await page.evaluate(async (fen) => {
    const e = new window.BrowserEngine({ assets: 'vendor/tabiya/', threads: 2, hashMB: 32 });
    const infos: number[] = [];
    const r = await e.search({ fen, moves: ['f1b5', 'a7a6'], depth: 12, onInfo: (i: { depth: number }) => infos.push(i.depth) });
    // The worker's script missing, or served as bytes: the error says which (the browser's own
    // error event has no message at all).
    const failures: string[] = [];
    for (const assets of ['vendor/nothing/', 'octet/']) {
      await new window.BrowserEngine({ assets }).search({ depth: 1 }).catch((err: Error) => failures.push(err.message));
    }
    return { threads: e.threads, limitedBy: e.limitedBy, isolated: e.isolated, r, infos, failures };
  }, FEN);
  assert.match(got.failures[0]!, /^engine worker http:\/\/127\.0\.0\.1:\d+\/plain\/app\/vendor\/nothing\/worker\.js: HTTP 404/);
  assert.match(got.failures[1]!, /\/plain\/app\/octet\/worker\.js: served as application\/octet-stream, and a module worker's script must be served as text\/javascript/);
  assert.equal(got.isolated, false);
  assert.equal(got.threads, 1);
  assert.match(got.limitedBy, /not cross-origin isolated/);
  const cli = spawnSync(process.execPath, [MAIN, 'analyse', '--fen', FEN, '--moves', 'f1b5', 'a7a6', '--depth', '12', '--hash', '32', '--json'], { encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  const want = JSON.parse(cli.stdout) as { bestmove: string; nodes: number; lines: { pv: string[]; score: { cp?: number } }[] };
  const r = got.r as EngineResult;
  assert.equal(r.stopped, false);
  assert.equal(r.depth, 12);
  assert.equal(r.bestMove, want.bestmove);
  assert.equal(r.nodes, want.nodes);
  assert.deepEqual(r.pv, want.lines[0]!.pv);
  assert.equal(r.score, want.lines[0]!.score.cp);
  assert.deepEqual(got.infos.slice(0, 3), [1, 2, 3]);
  await page.close();
});

test('isolated: two threads, stop, the next search, a mate, a bad move, missing cores', { skip, timeout: 4 * WAIT_MS }, async () => {
  const page = await open('iso');
  const got = await page.evaluate(async (fen) => {
    const e = new window.BrowserEngine({ assets: '/iso/app/vendor/tabiya', threads: 2 });
    const deep = await e.search({ fen, depth: 10 });
    // An analysis without limits, stopped once it has finished depth 2 (a line of the main
    // thread, not a bound): its promise has the best line so far. Stopped after a fixed time
    // instead, a busy machine could stop it before it had a line to give.
    let deepEnough = (): void => {};
    const reached = new Promise<void>((resolve) => (deepEnough = resolve));
    const infinite = e.search({ fen, moves: ['f1c4'], onInfo: (i: { depth: number; multipv: number; bound?: string }) => i.multipv === 1 && i.bound === undefined && i.depth >= 2 && deepEnough() });
    await reached;
    e.stop();
    const stopped = await infinite;
    // A newer search overtakes a running one.
    const first = e.search({ fen });
    const mate = await e.search({ fen: '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', depth: 6 });
    const overtaken = await first;
    let bad = '';
    await e.search({ fen, moves: ['e2e5'], depth: 3 }).catch((err: Error) => (bad = err.message));
    const after = await e.search({ fen, nodes: 20000 });
    let missing = '';
    await new window.BrowserEngine({ assets: '/iso/app/broken/' }).search({ depth: 1 }).catch((err: Error) => (missing = err.message));
    e.terminate();
    return { threads: e.threads, isolated: e.isolated, deep, stopped, mate, overtaken, bad, after, missing };
  }, FEN);
  assert.equal(got.isolated, true);
  assert.equal(got.threads, 2);
  const legal = (fen: string, moves: string[], r: EngineResult): void => {
    const b = new Board(fen);
    for (const m of moves) b.push(m);
    assert.ok(r.bestMove !== null && b.moves().some((m) => m.uci === r.bestMove), `${r.bestMove} is legal`);
    for (const m of r.pv) b.push(m); // every move of the line is legal in turn
  };
  legal(FEN, [], got.deep);
  assert.equal(got.deep.depth, 10);
  assert.equal(got.deep.stopped, false);
  legal(FEN, ['f1c4'], got.stopped);
  assert.equal(got.stopped.stopped, true);
  assert.ok(got.stopped.depth > 1, `the stopped analysis reached depth ${got.stopped.depth}`);
  assert.equal(got.overtaken.stopped, true);
  assert.deepEqual([got.mate.bestMove, got.mate.mate, got.mate.stopped], ['d1d8', 1, false]);
  assert.match(got.bad, /move e2e5/);
  legal(FEN, [], got.after);
  assert.ok(got.after.nodes >= 20000 && got.after.nodes < 200000, `a node limit (${got.after.nodes}: the main thread's 20,000 and the helper's)`);
  assert.match(got.missing, /\/iso\/app\/broken\/core\.wasm: HTTP 404/);
  await page.close();
});

test('isolated: a bad FEN rejects its search, and only that: onError hears nothing of it', { skip, timeout: 4 * WAIT_MS }, async () => {
  const page = await open('iso');
  const got = await page.evaluate(async () => {
    // Every error message a worker sends, seen before the engine's own handler sees it.
    let seen = 0;
    let both = (): void => {};
    const twice = new Promise<void>((resolve) => (both = resolve));
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      constructor(url: string, options: unknown) {
        super(url, options);
        this.addEventListener('message', (e: { data: { type: string } }) => e.data.type === 'error' && ++seen === 2 && both());
      }
    };
    const e = new window.BrowserEngine({ assets: 'vendor/tabiya/', threads: 2 });
    const engineErrors: string[] = [];
    e.onError = (message: string) => engineErrors.push(message);
    let rejected = '';
    await e.search({ fen: '8/8/8/8/8/8/8/8 w - - 0 1', depth: 3 }).catch((err: Error) => (rejected = err.message));
    await twice; // the main thread's and the helper's: both have reached the engine
    const next = await e.search({ depth: 3 });
    e.terminate();
    window.Worker = PageWorker;
    return { rejected, engineErrors, next: next.bestMove };
  });
  assert.match(got.rejected, /^bad FEN: .*White has 0 kings/);
  assert.deepEqual(got.engineErrors, []);
  assert.notEqual(got.next, null);
  await page.close();
});

test('a search stopped or overtaken while the engine loads settles, as does a load ended by terminate()', { skip, timeout: 4 * WAIT_MS }, async () => {
  for (const kind of ['plain', 'iso'] as const) {
    const page = await open(kind);
    const got = await page.evaluate(async (fen) => {
      const settled: Record<string, unknown> = {};
      const watch = (name: string, p: Promise<unknown>): void => void p.then((r) => (settled[name] = r), (err: Error) => (settled[name] = err.message));
      const e = new window.BrowserEngine({ assets: 'vendor/tabiya/', threads: 2 });
      // Each asked for before the workers have said they are ready: a page that is not isolated
      // ends them at a stop, and an ended worker never says so.
      watch('stopped', e.search({ fen, depth: 8 }));
      e.stop();
      watch('overtaken', e.search({ fen, depth: 8 }));
      const last = await e.search({ fen, depth: 3 });
      e.terminate(); // the next search starts the workers anew
      watch('terminated', e.search({ fen, depth: 8 }));
      watch('load', e.load());
      e.terminate();
      // A search that starts the engine anew and ends: the ones before it had every chance to settle.
      const again = await e.search({ fen, depth: 3 });
      e.terminate();
      return { settled, last: last.bestMove, again: again.bestMove };
    }, FEN);
    const stopped = { bestMove: null, score: 0, depth: 0, nodes: 0, pv: [], stopped: true };
    assert.deepEqual(got.settled.stopped, stopped, `${kind}: the stopped search`);
    assert.deepEqual(got.settled.overtaken, stopped, `${kind}: the overtaken search`);
    assert.deepEqual(got.settled.terminated, stopped, `${kind}: the search ended by terminate()`);
    assert.equal(got.settled.load, 'BrowserEngine: ended by stop() or terminate() before the engine had loaded', kind);
    assert.ok(got.last !== null && got.again !== null, `${kind}: the engine still searches`);
    await page.close();
  }
});

test('books fetched by the page: probed as tabiya book probe probes the files; bytes that are no such book say what they are', { skip, timeout: 4 * WAIT_MS }, async () => {
  const page = await open('plain');
  const lines = [[], ['e2e4', 'c7c5'], ['d2d4', 'g8f6', 'c2c4'], ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5']];
  const got = await page.evaluate(async (lines: string[][]) => {
    const { Board, book, TbkBook } = window.tabiya;
    const bytes = async (url: string): Promise<ArrayBuffer> => (await fetch(url)).arrayBuffer();
    const [bin, tbk, v1, html] = await Promise.all(['books/sample.bin', 'books/sample.tbk', 'books/v1.tbk', 'index.html'].map(bytes));
    const polyglot = book.PolyglotReader.from(bin, 'sample.bin').value;
    const rich = TbkBook.open(tbk, 'sample.tbk').value;
    const probes = lines.map((moves) => {
      const board = new Board();
      for (const m of moves) board.push(m);
      return {
        bin: polyglot.moves(board).map((m: { uci: string; weight: number }) => [m.uci, m.weight]),
        tbk: rich.probe(board).map((m: { move: number; wins: number; draws: number; losses: number }) => [board.uci(m.move), m.wins, m.draws, m.losses]),
      };
    });
    const refused = (r: { ok: boolean; error?: Error }): string => (r.ok ? 'opened' : r.error!.message);
    return {
      probes,
      errors: [
        refused(TbkBook.open(html, 'book.tbk')),
        refused(TbkBook.open(bin, 'book.tbk')),
        refused(TbkBook.open(v1, 'v1.tbk')),
        refused(book.PolyglotReader.from(html, 'book.bin')),
        refused(book.PolyglotReader.from(tbk, 'book.bin')),
      ],
    };
  }, lines);
  const byMove = (a: [string, ...number[]][]): [string, ...number[]][] => [...a].sort((x, y) => (x[0] < y[0] ? -1 : 1));
  lines.forEach((moves, i) => {
    const probe = (file: string): { moves: { uci: string; weight: number; wins: number; draws: number; losses: number }[] } => {
      const r = spawnSync(process.execPath, [MAIN, 'book', 'probe', join(SITE, 'app/books', file), ...(moves.length > 0 ? ['--moves', moves.join(' ')] : []), '--json'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const bin = probe('sample.bin').moves.map((m): [string, number] => [m.uci, m.weight]);
    const tbk = probe('sample.tbk').moves.map((m): [string, number, number, number] => [m.uci, m.wins, m.draws, m.losses]);
    assert.ok(bin.length > 1 && tbk.length > 1, `${moves.join(' ')}: the book has moves here`);
    assert.deepEqual(got.probes[i]!.bin, bin, `${moves.join(' ')}: the .bin`);
    assert.deepEqual(byMove(got.probes[i]!.tbk as [string, ...number[]][]), byMove(tbk), `${moves.join(' ')}: the .tbk`);
  });
  // A server's HTML page where a book was expected, a Polyglot book, a version 1 book: each named.
  assert.deepEqual(got.errors, [
    'book.tbk: not a .tbk book (it looks like a text file)',
    'book.tbk: not a .tbk book (it looks like a Polyglot .bin book: the book commands pick the format by the file name, so name it .bin)',
    'v1.tbk: a version 1 .tbk book, which this reader (version 2) cannot read: open it with RichBook.open, or make it version 2 with tabiya book upgrade',
    'book.bin: not a Polyglot book (it looks like a text file)',
    'book.bin: not a Polyglot book (it looks like a tabiya rich book (.tbk); the book commands pick the format by the file name, so name it .tbk)',
  ]);
  await page.close();
});

test('outside a browser: a clear error, not a crash', async () => {
  assert.throws(() => new BrowserEngine({ assets: 'vendor/' }), /assets "vendor\/" is not a URL/);
  const e = new BrowserEngine({ assets: 'http://127.0.0.1/vendor/' });
  await assert.rejects(e.search({ depth: 1 }), /needs Web Workers/);
  // One thread here (Node is no cross-origin isolated page): its core's table is at most 512 MB,
  // and hashMB says what the search will have, not what was asked for.
  assert.equal(new BrowserEngine({ assets: 'http://127.0.0.1/vendor/', hashMB: 100 }).hashMB, 100);
  const big = new BrowserEngine({ assets: 'http://127.0.0.1/vendor/', threads: 2, hashMB: 2048 });
  assert.deepEqual([big.threads, big.hashMB], [1, 512]);
  // NaN, what Number('') or parseInt gives for an empty field: an engine of NaN threads started
  // no worker and its searches never ended; a limit of NaN or 0 searched until stop().
  assert.throws(() => new BrowserEngine({ assets: 'http://127.0.0.1/vendor/', threads: NaN }), /^RangeError: BrowserEngine: threads NaN is not a number$/);
  assert.throws(() => new BrowserEngine({ assets: 'http://127.0.0.1/vendor/', hashMB: NaN }), /hashMB NaN is not a number/);
  for (const [name, value] of [['depth', 0], ['depth', NaN], ['nodes', -1], ['movetime', Infinity]] as const) {
    await assert.rejects(e.search({ [name]: value }), new RegExp(`^RangeError: ${name} ${value}: a limit is a positive number`));
  }
  await assert.rejects(e.search({ multiPV: 0, depth: 1 }), /^RangeError: multiPV 0: the number of lines is a positive number$/);
});
