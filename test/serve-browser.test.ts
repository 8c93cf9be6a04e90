/**
 * The explorer page in Debian's Chromium (puppeteer-core, the system browser, no download):
 * moves played by clicking book rows and by dragging on the board, the table checked against
 * `tabiya book probe --json`, a link restoring position and line, the engine worker giving a
 * legal best move in SAN, and a user value edited on the page that is still there after the
 * server restarts. Screenshots (light and dark, phone and wide) go to $TABIYA_SHOTS (test/support/shots.ts).
 * Skipped, saying so, where /usr/bin/chromium is missing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'puppeteer-core';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { playMoveList } from '../src/notation/moveList.js';
import { parseSan } from '../src/notation/san.js';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { pageAddress } from './support/servePage.js';
import { settlesWithin } from './support/timeBounds.js';
import { shotsDir } from './support/shots.js';

// The page's globals, as the functions run inside the browser see them (this file compiles for Node).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any, location: { search: string }, window: { innerWidth: number }, MutationObserver: any;

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const OTHER_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-browser-'));
const TBK = join(tmp, 'sample.tbk');
let server: RunningServer;
let browser: Browser;

/**
 * How long a step waits for the page (a table, a move, the engine's first line): seconds on an
 * idle machine, far more when the tests run at low priority beside other work. A hang bound,
 * not a speed: nothing is judged by how much of it a step takes.
 */
const WAIT_MS = 30_000;

/**
 * Hang bound of a close (a page, the browser, a server: well under a second on an idle
 * machine): past it the test fails saying what hung, and what hung is ended so that the run
 * goes on (settlesWithin).
 */
const CLOSE_BOUND_MS = 30_000;

async function launch(): Promise<Browser> {
  const puppeteer = (await import('puppeteer-core')).default;
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** The browser's processes as `ps` sees them (state, CPU, what they wait in): what a hang looked like. */
function browserProcesses(b: Browser): string {
  const pid = b.process()?.pid;
  if (pid === undefined) return 'no browser process';
  const ps = spawnSync('ps', ['-o', 'pid,ppid,stat,pcpu,wchan:20,args', '--sort', 'ppid', '-g', String(pid)], { encoding: 'utf8' });
  return `\n${ps.stdout
    .split('\n')
    .map((l) => l.replace(/ --(?!type=)\S+/g, '').slice(0, 160))
    .join('\n')}`;
}

/** Ends the browser at once (its whole process group) and starts another for the tests that follow. */
async function replaceBrowser(): Promise<string> {
  const old = browser;
  const state = browserProcesses(old);
  old.process()?.kill('SIGKILL');
  browser = await launch();
  return `browser processes then:${state}\n(that browser was killed and another started)`;
}

/** Closes a page; a close that hangs fails the test and costs the browser, not the test run. */
function closePage(page: Page): Promise<void> {
  return settlesWithin('closing the page', CLOSE_BOUND_MS, page.close(), replaceBrowser);
}

/** Closes a server; a close that hangs fails the test, saying how many connections held it, which are then cut. */
function closeServer(s: RunningServer): Promise<void> {
  return settlesWithin('closing the server', CLOSE_BOUND_MS, s.close().then(() => undefined), async () => {
    const open = await new Promise<number>((resolve) => s.app.server.getConnections((_e, n) => resolve(n)));
    s.app.server.closeAllConnections();
    return `${open} connections were still open (now cut)`;
  });
}

before(async () => {
  if (skip) return;
  const r = spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, '-o', TBK, '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  server = await startServer({ books: [TBK], port: 0, host: '127.0.0.1', engineThreads: 1 });
  browser = await launch();
});
after(
  async () => {
    try {
      if (browser !== undefined) {
        const b = browser;
        await settlesWithin('closing the browser', CLOSE_BOUND_MS, b.close(), () => {
          const state = browserProcesses(b);
          b.process()?.kill('SIGKILL');
          return `browser processes then:${state}\n(killed)`;
        });
      }
    } finally {
      try {
        if (server !== undefined) await closeServer(server);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  },
  { timeout: 4 * CLOSE_BOUND_MS },
);

async function open(path: string, width = 1300, height = 900): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width, height });
  await page.goto(pageAddress(server, path), { waitUntil: 'load' });
  await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
  // Rows of this position's table, and no other load under way that could redraw them.
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  return { page, errors };
}

/** The table as the page shows it: SAN and games per row. */
function tableOf(page: Page): Promise<{ san: string; games: number; user: string }[]> {
  return page.$$eval('#rows tr[data-uci]', (rows) =>
    rows.map((r) => ({ san: r.querySelector('.san')!.textContent!, games: Number(r.children[1]!.firstChild!.textContent!.replace(/,/g, '')), user: r.querySelector('.user')!.textContent! })),
  );
}

function probe(moves: string): { san: string; games: number }[] {
  const r = spawnSync(process.execPath, [MAIN, 'book', 'probe', TBK, '--moves', moves, '--json'], { encoding: 'utf8' });
  return (JSON.parse(r.stdout) as { moves: { san: string; games: number }[] }).moves.map((m) => ({ san: m.san, games: m.games }));
}

async function waitForPlay(page: Page, play: string): Promise<void> {
  await page.waitForFunction((p) => new URLSearchParams(location.search).get('play') === p, { timeout: WAIT_MS }, play);
  // The table of that position has arrived when the table is no longer busy: the page marks it
  // busy in the same step that puts the move in the link. The status line was empty before the
  // move too, so it alone does not say the table is in.
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  await page.waitForFunction(() => document.querySelector('#status')?.textContent?.trim() === '', { timeout: WAIT_MS });
}

async function drag(page: Page, from: string, to: string): Promise<void> {
  const box = async (sq: string) => (await page.$(`#board [data-square="${sq}"]`))!.boundingBox();
  const a = (await box(from))!;
  const b = (await box(to))!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

test('play by clicking rows and dragging; the table matches book probe; the link restores the line', { skip, timeout: 180_000 }, async () => {
  const { page, errors } = await open('/');
  assert.deepEqual((await tableOf(page)).map((r) => [r.san, r.games]), probe('').map((m) => [m.san, m.games]));
  await page.click('#rows tr[data-uci="e2e4"]');
  await waitForPlay(page, 'e2e4');
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci]')?.getAttribute('data-uci')?.[1] === '7', { timeout: WAIT_MS });
  assert.deepEqual((await tableOf(page)).map((r) => [r.san, r.games]), probe('e4').map((m) => [m.san, m.games]));
  await drag(page, 'c7', 'c5');
  await waitForPlay(page, 'e2e4,c7c5');
  await page.waitForFunction(() => document.querySelector('#opening')!.textContent!.includes('Sicilian'), { timeout: WAIT_MS });
  assert.match(await page.$eval('#opening', (e) => e.textContent!), /B20 Sicilian Defense/);
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci]')?.getAttribute('data-uci')?.[1] === '1', { timeout: WAIT_MS });
  assert.deepEqual((await tableOf(page)).map((r) => [r.san, r.games]), probe('e4 c5').map((m) => [m.san, m.games]));
  // An illegal drag changes nothing.
  await drag(page, 'e1', 'e3');
  assert.equal(new URL(page.url()).searchParams.get('play'), 'e2e4,c7c5');
  // Arrow keys step through the line.
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('at') === '1', { timeout: WAIT_MS });
  const link = page.url();
  const other = await open(new URL(link).search);
  assert.equal(await other.page.$eval('#fen', (e) => (e as unknown as { value: string }).value), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  assert.deepEqual(await other.page.$$eval('#moves .mv', (b) => b.map((x) => x.textContent)), ['e4', 'c5']);
  assert.equal(await other.page.$eval('#moves .mv.cur', (b) => b.textContent), 'e4');
  assert.deepEqual(errors.concat(other.errors), []);
  await closePage(other.page);
  await closePage(page);
});

test('click-click moves and flip', { skip, timeout: 180_000 }, async () => {
  const { page, errors } = await open('/');
  const click = async (sq: string): Promise<void> => {
    const b = (await (await page.$(`#board [data-square="${sq}"]`))!.boundingBox())!;
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  };
  await click('g1');
  await click('f3');
  await waitForPlay(page, 'g1f3');
  const before = (await (await page.$('#board [data-square="a1"]'))!.boundingBox())!;
  await page.keyboard.press('f');
  await page.waitForFunction((y) => document.querySelector('#board [data-square="a1"]').getBoundingClientRect().y < y - 100, { timeout: WAIT_MS }, before.y);
  assert.deepEqual(errors, []);
  await closePage(page);
});

test('a book move under the pointer, or on the row the keyboard is on, shows as an arrow on the board', { skip, timeout: 180_000 }, async () => {
  const { page, errors } = await open('/');
  const centre = async (sel: string): Promise<{ x: number; y: number; w: number }> => {
    const b = (await (await page.$(sel))!.boundingBox())!;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2, w: b.width };
  };
  /** The book arrows on the board, each as the middle of its box. */
  const arrows = (): Promise<{ x: number; y: number }[]> =>
    page.$$eval('#board .arrow-success', (a) =>
      a.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }),
    );
  /** One arrow, midway between the centres of `from` and `to`. */
  const shows = async (from: string, to: string): Promise<void> => {
    const [a, b] = [await centre(`#board [data-square="${from}"]`), await centre(`#board [data-square="${to}"]`)];
    const got = await arrows();
    assert.equal(got.length, 1, `one arrow for ${from}${to}`);
    assert.ok(Math.abs(got[0]!.x - (a.x + b.x) / 2) < a.w / 2 && Math.abs(got[0]!.y - (a.y + b.y) / 2) < a.w / 2, `the arrow goes ${from}-${to}: ${JSON.stringify(got[0])}`);
  };
  await page.hover('#rows tr[data-uci="g1f3"]');
  await page.waitForSelector('#board .arrow-success', { timeout: WAIT_MS });
  await shows('g1', 'f3');
  await page.hover('#rows tr[data-uci="d2d4"]');
  await page.waitForFunction(() => document.querySelectorAll('#board .arrow-success').length === 1, { timeout: WAIT_MS });
  await shows('d2', 'd4');
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.querySelector('#board .arrow-success') === null, { timeout: WAIT_MS });
  // Tab onto the rows: the focused row's move, and none once the focus leaves them.
  await page.focus('#add-move');
  await page.keyboard.down('Shift');
  for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement?.closest('#rows') != null)); i++) await page.keyboard.press('Tab');
  await page.keyboard.up('Shift');
  const focused = await page.evaluate(() => document.activeElement.closest('tr').dataset.uci);
  await page.waitForSelector('#board .arrow-success', { timeout: WAIT_MS });
  await shows(focused.slice(0, 2), focused.slice(2, 4));
  await page.focus('#add-move');
  await page.waitForFunction(() => document.querySelector('#board .arrow-success') === null, { timeout: WAIT_MS });
  assert.deepEqual(errors, []);
  await closePage(page);
});

test("the browser's Back and Forward go through the positions visited, also after a reload; the board's side stays as set", { skip, timeout: 180_000 }, async () => {
  const { page, errors } = await open('/');
  const first = page.url();
  const where = (): Promise<{ play: string | null; at: string | null; side: string | null; fen: string; list: string[]; cur: string | null }> =>
    page.evaluate(() => {
      const q = new URLSearchParams(location.search);
      return {
        play: q.get('play'),
        at: q.get('at'),
        side: q.get('orientation'),
        fen: document.querySelector('#fen').value,
        list: [...document.querySelectorAll('#moves .mv')].map((b: { textContent: string }) => b.textContent),
        cur: document.querySelector('#moves .mv.cur')?.textContent ?? null,
      };
    });
  /** Goes back (or forward) one entry and waits for the page to show the position of `at`. */
  const step = async (dir: 'back' | 'forward', at: string | null): Promise<void> => {
    await (dir === 'back' ? page.goBack() : page.goForward());
    await page.waitForFunction((a) => new URLSearchParams(location.search).get('at') === a, { timeout: WAIT_MS }, at);
    await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  };
  const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
  const AFTER_C5 = 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
  for (const [uci, play] of [['e2e4', 'e2e4'], ['c7c5', 'e2e4,c7c5'], ['g1f3', 'e2e4,c7c5,g1f3']] as const) {
    await page.click(`#rows tr[data-uci="${uci}"]`);
    await waitForPlay(page, play);
  }
  // Back is the position before, in the same line (its later moves kept, as with ←), not the
  // page the explorer was opened from.
  await step('back', '2');
  assert.deepEqual(await where(), { play: 'e2e4,c7c5,g1f3', at: '2', side: null, fen: AFTER_C5, list: ['e4', 'c5', 'Nf3'], cur: 'c5' });
  assert.deepEqual((await tableOf(page)).map((r) => [r.san, r.games]), probe('e4 c5').map((m) => [m.san, m.games]));
  await step('back', '1');
  assert.equal((await where()).fen, AFTER_E4);
  await step('forward', '2');
  assert.equal((await where()).fen, AFTER_C5);
  // ← is a visit too; a flip is not (Back keeps the board turned).
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('at') === '1', { timeout: WAIT_MS });
  await page.keyboard.press('f');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('orientation') === 'black', { timeout: WAIT_MS });
  await step('back', '2');
  assert.deepEqual(await where(), { play: 'e2e4,c7c5,g1f3', at: '2', side: 'black', fen: AFTER_C5, list: ['e4', 'c5', 'Nf3'], cur: 'c5' });
  // Reloaded, the page stands where it stood, and Back still goes on through the visits.
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
  assert.deepEqual(await where(), { play: 'e2e4,c7c5,g1f3', at: '2', side: 'black', fen: AFTER_C5, list: ['e4', 'c5', 'Nf3'], cur: 'c5' });
  await step('back', '1');
  assert.equal((await where()).fen, AFTER_E4);
  await step('back', '0');
  assert.equal((await where()).fen, STARTING_FEN);
  // Another move from a position gone back to starts a new line; Back from it is that position.
  await page.click('#rows tr[data-uci="d2d4"]');
  await waitForPlay(page, 'd2d4');
  await step('back', '0');
  assert.deepEqual(await where(), { play: 'd2d4', at: '0', side: 'black', fen: STARTING_FEN, list: ['d4'], cur: null });
  // The first entry is the page as opened: one more Back leaves the explorer.
  await page.goBack();
  assert.notEqual(new URL(page.url()).origin, new URL(first).origin);
  assert.deepEqual(errors, []);
  await closePage(page);
});

test('a broken link says so; at= must be a whole number; Ctrl and Alt keys stay the browser\'s; Copy PGN copies the line on the board', { skip, timeout: 180_000 }, async () => {
  const statusOf = (page: Page): Promise<string> => page.$eval('#status', (e) => e.textContent!.trim());
  // A move that is not legal in the link: the message stays after the table has loaded.
  const broken = await open('/?play=e2e4,e2e5');
  assert.match(await statusOf(broken.page), /^The link's position is not valid \(move 2: illegal move "e2e5".*\): the start position is shown instead\.$/);
  assert.equal(await broken.page.$eval('#fen', (e) => (e as unknown as { value: string }).value), STARTING_FEN);
  await closePage(broken.page);
  // at= that is not a whole number is left out: the line shows to its end, and the keys work.
  for (const at of ['1.5', 'x']) {
    const { page, errors } = await open(`/?play=e2e4,e7e5&at=${at}`);
    assert.equal(await page.$eval('#moves .mv.cur', (b) => b.textContent), 'e5', at);
    assert.equal(new URL(page.url()).searchParams.get('at'), null, at);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('at') === '1', { timeout: WAIT_MS });
    assert.deepEqual(errors, [], at);
    await closePage(page);
  }
  const { page, errors } = await open('/?play=e2e4,e7e5,g1f3');
  // Ctrl+F (find) and Alt+← (back) are not taken: no flip, no step.
  const a1 = async (): Promise<number> => (await (await page.$('#board [data-square="a1"]'))!.boundingBox())!.y;
  const y = await a1();
  for (const [mod, key] of [['Control', 'f'], ['Alt', 'ArrowLeft']] as const) {
    await page.keyboard.down(mod);
    await page.keyboard.press(key);
    await page.keyboard.up(mod);
  }
  assert.equal(await a1(), y, 'Ctrl+F did not flip the board');
  assert.equal(new URL(page.url()).searchParams.get('at'), null, 'Alt+← did not step back');
  // Copy PGN: the line on the board, also after the box showed an older line.
  const copied = async (): Promise<string> => {
    await page.click('#pgn-copy');
    return page.$eval('#pgn', (e) => (e as unknown as { value: string }).value);
  };
  assert.match(await copied(), /\n\n1\. e4 e5 2\. Nf3 \*/);
  await page.click('#rows tr[data-uci]');
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('play') ?? '').split(',').length === 4, { timeout: WAIT_MS });
  const san = await page.$eval('#moves .mv.cur', (b) => b.textContent!);
  assert.match(await copied(), new RegExp(`\\n\\n1\\. e4 e5 2\\. Nf3 ${san} \\*`));
  // Text typed into the box is the user's: Copy PGN copies the board's line and leaves it.
  await page.$eval('#pgn', (e) => ((e as unknown as { value: string }).value = ''));
  await page.type('#pgn', '1. d4 *');
  assert.equal(await copied(), '1. d4 *');
  assert.deepEqual(errors, []);
  await closePage(page);
});

test('a server that stops while the page is open: the page says so and shows no stale table', { skip, timeout: 180_000 }, async () => {
  const own = await startServer({ books: [TBK], port: 0, host: '127.0.0.1', engineThreads: 1, readOnly: true });
  const page = await browser.newPage();
  await page.setViewport({ width: 1300, height: 900 });
  await page.goto(`${own.url}?play=e2e4`, { waitUntil: 'load' });
  await page.waitForSelector('#rows tr[data-uci="c7c5"]', { timeout: WAIT_MS });
  await closeServer(own);
  await page.click('#rows tr[data-uci="c7c5"]');
  await page.waitForFunction(() => /^Book: the server does not answer/.test(document.querySelector('#status').textContent), { timeout: WAIT_MS });
  assert.equal(await page.$$eval('#rows tr[data-uci]', (r) => r.length), 0, 'the table of 1.e4 is gone');
  await page.click('#analyse');
  await page.waitForFunction(() => /^engine worker \S+worker\.js: could not be loaded|^cannot load the engine/.test(document.querySelector('#engineinfo').textContent), { timeout: WAIT_MS });
  assert.equal(await page.$eval('#analyse', (b) => b.textContent), 'Analyse', 'the analysis ended');
  assert.ok(!(await page.evaluate(() => document.body.textContent.includes('Searching\u2026'))), 'and says no more that it searches');
  assert.equal(await page.$eval('#opening', (e) => e.textContent!.trim()), '', "1.e4's opening name is gone too");
  // The server back on the same port: the engine that could not load loads now, without a reload of the page.
  const again = await startServer({ books: [TBK], port: Number(new URL(own.url).port), host: '127.0.0.1', engineThreads: 1, readOnly: true });
  try {
    await page.click('#analyse');
    await page.waitForFunction(() => /^depth \d+/.test(document.querySelector('#engineinfo').textContent), { timeout: 2 * WAIT_MS });
    await page.click('#analyse');
  } finally {
    await closePage(page);
    await closeServer(again);
  }
});

test('a promotion asks for the piece', { skip, timeout: 180_000 }, async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width: 1300, height: 900 });
  await page.goto(`${server.url}?fen=${encodeURIComponent('4k3/P7/8/8/8/8/8/4K3 w - - 0 1')}`, { waitUntil: 'load' });
  await page.waitForSelector('#rows tr.none', { timeout: WAIT_MS });
  await drag(page, 'a7', 'a8');
  const knight = await page.waitForSelector('#board [data-piece="wn"]', { timeout: WAIT_MS });
  const b = (await knight!.boundingBox())!;
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  await waitForPlay(page, 'a7a8n');
  assert.match(await page.$eval('#fen', (e) => (e as unknown as { value: string }).value), /^N3k3\//);
  assert.deepEqual(errors, []);
  await closePage(page);
});

test('the engine runs in a worker and gives a legal best move in SAN', { skip, timeout: 180_000 }, async () => {
  const { page, errors } = await open('/?play=e2e4,e7e5,g1f3');
  await page.click('#analyse');
  await page.waitForFunction(() => /depth (\d+)/.test(document.querySelector('#engineinfo')!.textContent!) && Number(/depth (\d+)/.exec(document.querySelector('#engineinfo')!.textContent!)![1]) >= 6, { timeout: 2 * WAIT_MS });
  const pv = await page.$eval('#pvs li .pv', (e) => e.textContent!);
  await page.click('#analyse');
  const first = pv.replace(/^\d+\.+\s*|^\d+…\s*/, '').split(' ')[0]!;
  const pos = unwrap(positionFromFen(STARTING_FEN));
  assert.ok(unwrap(playMoveList(pos, 'e4 e5 Nf3')).length === 3);
  assert.ok(parseSan(pos, first).ok, `best move "${first}" (line "${pv}") is legal`);
  assert.match(await page.$eval('#evaltext', (e) => e.textContent!), /^[+-]\d+\.\d\d$|#/);
  assert.deepEqual(errors, []);
  await closePage(page);
});

/** Analyses the page's position for `ms`: the nodes per second and the first move of the best line, in SAN. */
async function analyseFor(page: Page, ms: number, steps?: Steps): Promise<{ nps: number; best: string; depth: number }> {
  await page.click('#analyse');
  // The first line needs the engine loaded (the core compiled, its workers started): seconds on a busy machine.
  await page.waitForFunction(() => document.querySelector('#pvs li .pv') !== null, { timeout: WAIT_MS });
  steps?.mark('first line');
  await new Promise((r) => setTimeout(r, ms));
  const out = await page.evaluate(() => ({
    nps: Number(document.querySelector('#engineinfo').dataset.nps),
    info: document.querySelector('#engineinfo').textContent as string,
    pv: document.querySelector('#pvs li .pv').textContent as string,
  }));
  await page.click('#analyse');
  steps?.mark('stopped');
  return { nps: out.nps, best: out.pv.replace(/^\d+\.+\s*|^\d+…\s*/, '').split(' ')[0]!, depth: Number(/depth (\d+)/.exec(out.info)?.[1] ?? 0) };
}

/** The steps a long test has taken and when: what its failure says when it has to give up. */
class Steps {
  private readonly t0 = Date.now();
  private readonly done: string[] = [];

  mark(step: string): void {
    this.done.push(`${step} at ${((Date.now() - this.t0) / 1000).toFixed(1)} s`);
  }

  toString(): string {
    return `steps taken: ${this.done.join(', ') || 'none'}`;
  }
}

/**
 * Runs a test's body with a hang bound under the test's own timeout, so that a step that never
 * ends fails the test saying which steps were taken (the test runner's timeout would say nothing).
 */
function withSteps(what: string, ms: number, body: (steps: Steps) => Promise<void>): () => Promise<void> {
  return async () => {
    const steps = new Steps();
    await settlesWithin(what, ms, body(steps), () => String(steps));
  };
}

test(
  'engine threads: with --engine-threads 2 the page is cross-origin isolated and searches on 2 threads',
  { skip, timeout: 180_000 },
  withSteps('the test with 2 engine threads', 150_000, async (steps) => {
    const two = await startServer({ books: [TBK], port: 0, host: '127.0.0.1', engineThreads: 2 });
    try {
      const fen = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
      const path = `?fen=${encodeURIComponent(fen)}`;
      const one = await open(path);
      steps.mark('1-thread page open');
      assert.equal(await one.page.$eval('#enginestat', (e) => e.dataset.threads), '1');
      const single = await analyseFor(one.page, 2000, steps);
      await closePage(one.page);
      steps.mark('1-thread page closed');
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.setViewport({ width: 1300, height: 900 });
      await page.goto(two.url + path, { waitUntil: 'load' });
      await page.waitForSelector('#rows tr', { timeout: WAIT_MS });
      steps.mark('2-thread page open');
      assert.equal(await page.evaluate(() => (globalThis as unknown as { crossOriginIsolated: boolean }).crossOriginIsolated), true, 'the page is cross-origin isolated');
      assert.equal(await page.$eval('#enginestat', (e) => e.dataset.threads), '2');
      assert.match(await page.$eval('#enginestat', (e) => e.textContent!), /2 threads/);
      const dual = await analyseFor(page, 2000, steps);
      const pos = unwrap(positionFromFen(fen));
      for (const r of [single, dual]) assert.ok(parseSan(pos, r.best).ok, `best move "${r.best}" is legal`);
      // Diagnostic only (no timing threshold): the machine may be busy.
      console.log(`# page engine: 1 thread ${single.nps} nodes/s (depth ${single.depth}), 2 threads ${dual.nps} nodes/s (depth ${dual.depth}), ratio ${(dual.nps / Math.max(1, single.nps)).toFixed(2)}`);
      assert.ok(dual.nps > 0 && single.nps > 0);
      assert.deepEqual(errors.concat(one.errors), []);
      await closePage(page);
      steps.mark('2-thread page closed');
    } finally {
      await closeServer(two);
      steps.mark('server closed');
    }
  }),
);

/**
 * A proxy on 127.0.0.1 that forwards every request to `target` and drops COOP and COEP from
 * the answers, as a proxy that does not know them would: its pages are not cross-origin isolated.
 */
async function stripIsolation(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const t = new URL(target);
  const proxy = createServer((req, res) => {
    const up = httpRequest({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } }, (r) => {
      const headers = { ...r.headers };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      res.writeHead(r.statusCode ?? 502, headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as { port: number }).port;
  // The browser's connections are cut, not waited for: one it opened ahead of need and never
  // used would hold close() until the browser dropped it.
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      proxy.close(() => resolve());
      proxy.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${port}/`, close: () => settlesWithin('closing the proxy', CLOSE_BOUND_MS, close()) };
}

test('engine threads: a page served without the isolation headers searches on one thread and says why', { skip, timeout: 180_000 }, async () => {
  const two = await startServer({ books: [TBK], port: 0, host: '127.0.0.1', engineThreads: 2 });
  const proxy = await stripIsolation(two.url);
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(proxy.url, { waitUntil: 'load' });
    await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
    assert.equal(await page.evaluate(() => (globalThis as unknown as { crossOriginIsolated: boolean }).crossOriginIsolated), false);
    assert.equal(await page.$eval('#enginestat', (e) => e.dataset.threads), '1');
    assert.match(await page.$eval('#enginestat', (e) => e.textContent!), /1 thread \(one thread: the page is not cross-origin isolated/);
    const r = await analyseFor(page, 800);
    assert.ok(parseSan(unwrap(positionFromFen(STARTING_FEN)), r.best).ok, `best move "${r.best}" is legal`);
    assert.deepEqual(errors, []);
    await closePage(page);
  } finally {
    await proxy.close();
    await closeServer(two);
  }
});

test('play from here: the engine answers from the book and on its clock; the game comes out as PGN', { skip, timeout: 180_000 }, async () => {
  const { page, errors } = await open('/');
  await page.select('#play-side', 'b');
  await page.select('#play-tc', '60+1');
  await page.click('#play');
  // The engine has White: its first move comes from the book.
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('play') ?? '').split(',').filter((x) => x !== '').length === 1, { timeout: WAIT_MS });
  const first = new URL(page.url()).searchParams.get('play')!;
  const bookFirst = JSON.parse(spawnSync(process.execPath, [MAIN, 'book', 'probe', TBK, '--json'], { encoding: 'utf8' }).stdout) as { moves: { uci: string; probability: number }[] };
  assert.ok(bookFirst.moves.some((m) => m.uci === first && m.probability > 0), `${first} is a book move the policy plays`);
  // A screen reader hears the engine's move (a live region out of sight).
  assert.equal(await page.$eval('#announce', (e) => e.getAttribute('aria-live')), 'polite');
  assert.match(await page.$eval('#announce', (e) => e.textContent!), /^tabiya plays 1\. [a-hNBRQKO][a-h1-8x+=O-]*, from the book$/);
  await page.waitForFunction(() => /^[a-h][78]/.test(document.querySelector('#rows tr[data-uci]')?.getAttribute('data-uci') ?? ''), { timeout: WAIT_MS });
  await page.click('#rows tr[data-uci]');
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('play') ?? '').split(',').length >= 3, { timeout: WAIT_MS });
  assert.match(await page.$eval('#clocks', (e) => e.textContent!), /^White \d:\d\d · Black \d:\d\d$/);
  // Back during the game stays in it (the page was opened on this game's start) and says so.
  const during = new URL(page.url()).searchParams.get('play');
  await page.goBack();
  await page.waitForFunction(() => /^A game is on: Resign ends it/.test(document.querySelector('#status').textContent), { timeout: WAIT_MS });
  assert.equal(new URL(page.url()).searchParams.get('play'), during);
  assert.equal(await page.$eval('#play', (e) => e.textContent), 'Resign');
  await page.click('#play'); // resign
  const pgn = await page.$eval('#pgn', (e) => (e as unknown as { value: string }).value);
  assert.match(pgn, /\[White "tabiya"\]/);
  assert.match(pgn, /\[Black "You"\]/);
  assert.match(pgn, /\[Result "1-0"\]/);
  const moves = pgn.split('\n\n')[1]!.replace(/\d+\./g, ' ').replace('1-0', '').trim().split(/\s+/);
  assert.ok(moves.length >= 3, pgn);
  const pos = unwrap(positionFromFen(STARTING_FEN));
  assert.ok(playMoveList(pos, moves.join(' ')).ok, `the game replays: ${moves.join(' ')}`);
  assert.deepEqual(errors, []);
  await closePage(page);
});

test("play from here: a book move picked for a position the game has left is not played (the table reloaded while the engine's pick waited)", { skip, timeout: 180_000 }, async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The engine's book moves wait 300 ms before they are played: hold them, to play them when the
  // test says. And the picks, once the game starts: the first is the most played move, the
  // others the least played.
  await page.evaluateOnNewDocument(() => {
    const w = globalThis as unknown as { setTimeout: (f: () => void, ms?: number) => number; heldPicks: (() => void)[]; Math: { random: () => number } };
    const real = w.setTimeout.bind(w);
    w.heldPicks = [];
    w.setTimeout = (f: () => void, ms?: number): number => (ms === 300 ? (w.heldPicks.push(f), 0) : real(f, ms));
    const random = w.Math.random.bind(w.Math);
    const draws: number[] = [];
    (w as unknown as { draws: number[] }).draws = draws;
    w.Math.random = () => draws.shift() ?? random();
  });
  await page.setViewport({ width: 1300, height: 900 });
  await page.goto(server.url + '?policy=uniform', { waitUntil: 'load' });
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  const held = (n: number) => page.waitForFunction((k: number) => (globalThis as unknown as { heldPicks: unknown[] }).heldPicks.length >= k, { timeout: WAIT_MS }, n);
  const release = (i: number) => page.evaluate((k: number) => (globalThis as unknown as { heldPicks: (() => void)[] }).heldPicks[k]!(), i);
  const played = () => new URL(page.url()).searchParams.get('play') ?? '';
  await page.select('#play-side', 'b');
  await page.evaluate(() => (globalThis as unknown as { draws: number[] }).draws.push(0, 0.999999, 0.999999));
  await page.click('#play');
  // One pick when the game starts, one more when the start position's table comes again.
  await held(2);
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  await release(0);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('play') !== null, { timeout: WAIT_MS });
  assert.equal(played(), 'e2e4', 'the most played move');
  await page.waitForSelector('#rows tr[data-uci="c7c5"]', { timeout: WAIT_MS });
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  await page.click('#rows tr[data-uci="c7c5"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('play') === 'e2e4,c7c5', { timeout: WAIT_MS });
  // The second pick was for the start position (its least played move, legal after 1.e4 c5 too):
  // the game has moved on, so it plays nothing.
  await release(1);
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  assert.equal(played(), 'e2e4,c7c5', 'the start position\'s pick was not played after 1...c5');
  // The pick for the position after 1.e4 c5 is played.
  await held(3);
  const bookThere = JSON.parse(spawnSync(process.execPath, [MAIN, 'book', 'probe', TBK, '--moves', 'e2e4 c7c5', '--json', '--policy', 'uniform'], { encoding: 'utf8' }).stdout) as { moves: { uci: string }[] };
  await release(2);
  await page.waitForFunction(() => (new URLSearchParams(location.search).get('play') ?? '').split(',').length === 3, { timeout: WAIT_MS });
  const third = played().split(',')[2]!;
  assert.ok(bookThere.moves.some((m) => m.uci === third), `${third} is a book move after 1.e4 c5`);
  assert.deepEqual(errors, []);
  await closePage(page);
});

test('import: a PGN file chosen on the page is counted into the .tbk with progress; the new counts match book probe', { skip, timeout: 180_000 }, async () => {
  // About forty games the book does not have (another collection), and one with an illegal move.
  const head = spawnSync('sh', ['-c', `zcat ${JSON.stringify(OTHER_GZ)} | head -c 40000`], { encoding: 'utf8' }).stdout;
  const good = head.slice(0, head.lastIndexOf('\n\n[Event ') + 1);
  const games = good.split('[Event ').length - 1;
  const finished = games - good.split('[Result "*"]').length + 1;
  const pgn = join(tmp, 'import.pgn');
  writeFileSync(pgn, `${good}\n[Event "broken"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 1-0\n`);
  const book = join(tmp, 'import.tbk');
  copyFileSync(TBK, book);
  const before = JSON.parse(spawnSync(process.execPath, [MAIN, 'book', 'probe', book, '--json'], { encoding: 'utf8' }).stdout) as { moves: { games: number }[] };
  const served = await startServer({ books: [book], port: 0, host: '127.0.0.1', engineThreads: 1 });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setViewport({ width: 1300, height: 900 });
    await page.goto(served.pageUrl, { waitUntil: 'load' });
    await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
    const sumBefore = await page.$eval('#sum td.stat', (e) => Number(e.textContent!.replace(/,/g, '')));
    // What the page shows while it imports: the status lines and the progress bar.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      const bar = document.querySelector('#import-progress');
      new MutationObserver(() => seen.push(`${document.querySelector('#status').textContent}|${bar.hidden ? '' : bar.value}`)).observe(document.querySelector('#status'), { childList: true, characterData: true, subtree: true });
    });
    const input = await page.$('#import-file');
    await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(pgn);
    await page.waitForFunction(() => /^Imported/.test(document.querySelector('#status').textContent), { timeout: 2 * WAIT_MS });
    const status = await page.$eval('#status', (e) => e.textContent!);
    // The broken game's place and fault, as the command line gives them.
    assert.match(status, new RegExp(`^Imported import\\.pgn: ${games} games counted, 1 broken game skipped \\(import\\.pgn line \\d+: illegal move 2\\. Ke3.*\\)\\.$`));
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    assert.ok(seen.some((l) => /^Importing import\.pgn: \d+ games?( read; writing the book…( \d+%)?)?\|(0|1|0\.\d+)$/.test(l)), `progress shown while importing: ${seen.join(' / ')}`);
    assert.equal(await page.$eval('#import-progress', (e) => e.hidden), true, 'the bar goes when the import is done');
    // The table of the start position, read again: the book's new counts.
    await page.waitForFunction((n) => Number(document.querySelector('#sum td.stat')?.textContent?.replace(/,/g, '')) !== n, { timeout: WAIT_MS }, sumBefore);
    const after = JSON.parse(spawnSync(process.execPath, [MAIN, 'book', 'probe', book, '--json'], { encoding: 'utf8' }).stdout) as { moves: { san: string; games: number }[] };
    assert.deepEqual((await tableOf(page)).map((r) => [r.san, r.games]), after.moves.map((m) => [m.san, m.games]));
    const sum = (m: { games: number }[]): number => m.reduce((n, x) => n + x.games, 0);
    assert.equal(sum(after.moves) - sum(before.moves), finished, 'every finished game imported counts once at the start position');
    assert.equal(await page.$eval('#sum td.stat', (e) => Number(e.textContent!.replace(/,/g, ''))), sum(after.moves));
    assert.deepEqual(errors, []);
    await closePage(page);
  } finally {
    await closeServer(served);
  }
});

test('import: the page sends the file as it is, so a .pgn.gz and a Windows-1252 export are read, and UTF-16 is refused in words', { skip, timeout: 180_000 }, async () => {
  const game = (moves: string, result: string): string => `[Event "x"]\r\n[White "Müller, Jürgen"]\r\n[Black "Pérez"]\r\n[Result "${result}"]\r\n\r\n${moves} ${result}\r\n\r\n`;
  const text = game('1. e4 e5 2. Nf3 Nc6', '1-0') + game('1. d4 d5 2. c4 e6', '0-1');
  const files: [string, Buffer, RegExp][] = [
    ['chessbase.pgn', Buffer.from(text, 'latin1'), /^Imported chessbase\.pgn: 2 games counted\.$/],
    ['games.pgn.gz', gzipSync(Buffer.from(text, 'latin1')), /^Imported games\.pgn\.gz: 2 games counted\.$/],
    ['notepad.pgn', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), /^Import: notepad\.pgn:1: UTF-16 text, not PGN text \(save it as UTF-8\)$/],
  ];
  const book = join(tmp, 'import-bytes.tbk');
  copyFileSync(TBK, book);
  const served = await startServer({ books: [book], port: 0, host: '127.0.0.1', engineThreads: 1 });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(served.pageUrl, { waitUntil: 'load' });
    await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
    for (const [name, bytes, said] of files) {
      const path = join(tmp, name);
      writeFileSync(path, bytes);
      const input = await page.$('#import-file');
      await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(path);
      // Done when the status names this file as imported or refused (not "Importing").
      await page.waitForFunction((n: string) => [`Imported ${n}`, `Import: ${n}`].some((p) => document.querySelector('#status').textContent.startsWith(p)), { timeout: 2 * WAIT_MS }, name);
      assert.match(await page.$eval('#status', (e) => e.textContent!), said, name);
    }
    assert.deepEqual(errors, []);
    await closePage(page);
  } finally {
    await closeServer(served);
  }
});

test('a user value edited on the page survives a server restart; screenshots', { skip, timeout: 180_000 }, async () => {
  const { page, errors } = await open('/?play=e2e4');
  await page.click('#rows tr[data-uci="c7c5"] button.edit');
  await page.waitForSelector('#editor:not([hidden])');
  await page.type('#edit-user', '77');
  await page.click('#edit-save');
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci="c7c5"] .user')?.textContent === '77', { timeout: WAIT_MS });
  const path = new URL(page.url()).search;
  await closePage(page);
  await closeServer(server);
  server = await startServer({ books: [TBK], port: 0, host: '127.0.0.1', engineThreads: 1 });
  for (const [width, height] of [
    [1920, 1000],
    [1280, 900],
    [800, 1000],
    [375, 812],
  ] as const) {
    const name = String(width);
    for (const theme of ['light', 'dark'] as const) {
      const p = await browser.newPage();
      await p.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
      await p.setViewport({ width, height });
      await p.goto(server.url + path, { waitUntil: 'load' });
      await p.waitForSelector('#rows tr[data-uci="c7c5"]', { timeout: WAIT_MS });
      assert.equal(await p.$eval('#rows tr[data-uci="c7c5"]', (r) => r.querySelector('.user')!.textContent), '77', 'the edit is in the book after the restart');
      // No sideways scrolling, even at phone width (the table scrolls inside its panel there).
      assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${name}: the page fits its width`);
      // From 800 px up every column of the table shows, the comment's header too.
      if (width >= 800) assert.ok(await p.evaluate(() => document.querySelector('.table-wrap').scrollWidth <= document.querySelector('.table-wrap').clientWidth), `${name}: the table fits its panel`);
      await p.screenshot({ path: join(shotsDir(), `${name}-${theme}.png`), fullPage: width < 1250 });
      await closePage(p);
    }
  }
  assert.deepEqual(errors, []);
});
