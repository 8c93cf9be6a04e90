/**
 * The explorer page without a mouse, with a screen reader and in both themes, in Debian's
 * Chromium (puppeteer-core, the system browser, no download): every control is reached with
 * Tab (Import PGN… and the board, where the arrow keys and Enter make a move, included); focus is not dropped to <body> when a row is played, the editor
 * saved or closed, the move list used, or Undo/Redo becomes disabled; Escape closes the editor;
 * the status line is a live region; ✎ names its move and the evaluation bar says its score; a
 * focused row shows an outline; the text on the White/Draw/Black bar and on the accent colour
 * reaches WCAG's 4.5:1 in the light and the dark theme; with forced colours (high contrast) the
 * current move, the bar's segments and the evaluation bar's fill still show.
 * Skipped, saying so, where /usr/bin/chromium is missing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { pageAddress } from './support/servePage.js';

// The page's globals, as the functions run inside the browser see them (this file compiles for Node).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any, getComputedStyle: any, location: { search: string };

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-a11y-'));
const TBK = join(tmp, 'sample.tbk');
/** Game a plays 2.Nf3, comes back and leaves by 2.Nc3; game b plays 2.Nc3 at both its visits. */
const REPEATS = join(tmp, 'repeats.tbk');
/** A hang bound for a step that waits for the page, not a speed. */
const WAIT_MS = 30_000;
let server: RunningServer;
let browser: Browser;

before(async () => {
  if (skip) return;
  const r = spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, '-o', TBK, '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const pgn = join(tmp, 'repeats.pgn');
  writeFileSync(pgn, '[Event "a"]\n[Result "0-1"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nc3 0-1\n\n[Event "b"]\n[Result "1-0"]\n\n1. e4 e5 2. Nc3 Nc6 3. Nb1 Nb8 4. Nc3 Nf6 1-0\n');
  const rr = spawnSync(process.execPath, [MAIN, 'book', 'make', pgn, '-o', REPEATS, '--quiet'], { encoding: 'utf8' });
  assert.equal(rr.status, 0, rr.stderr);
  server = await startServer({ books: [TBK, REPEATS], port: 0, host: '127.0.0.1', engineThreads: 1 });
  const puppeteer = (await import('puppeteer-core')).default;
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});
after(async () => {
  try {
    await browser?.close();
  } finally {
    try {
      await server?.close();
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
});

async function open(path: string, theme: 'light' | 'dark' = 'light'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width: 1300, height: 900 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
  await page.goto(pageAddress(server, path), { waitUntil: 'load' });
  await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
  // Rows of this position's table, and no other load under way that could redraw them.
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  return { page, errors };
}

/** What has the focus: an id, a row's move, a ✎ of a row's move, a move-list ply, or the tag. */
const focused = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const a = document.activeElement;
    if (a === null || a === document.body) return 'body';
    if (a.id !== '') return `#${a.id}`;
    const tr = a.closest('tr');
    if (a.tagName === 'TR') return `row ${a.dataset.uci}`;
    if (a.classList.contains('edit')) return `edit ${tr?.dataset.uci}`;
    if (a.dataset.ply !== undefined) return `ply ${a.dataset.ply}`;
    return a.tagName as string;
  });

/** Every node of the page's accessibility tree as "role name". */
async function named(page: Page): Promise<string[]> {
  const out: string[] = [];
  const walk = (n: { role: string; name?: string; children?: unknown[] }): void => {
    out.push(`${n.role} ${n.name ?? ''}`);
    for (const c of n.children ?? []) walk(c as typeof n);
  };
  walk((await page.accessibility.snapshot())!);
  return out;
}

const press = async (page: Page, key: 'Enter' | 'Escape' | 'Tab'): Promise<void> => page.keyboard.press(key);

test('every control is reached with Tab, Import PGN… included', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/');
  const reached = new Set<string>();
  for (let i = 0; i < 80; i++) {
    await press(page, 'Tab');
    const f = await focused(page);
    if (f === 'body') break;
    reached.add(f);
  }
  for (const id of ['#book', '#policy', '#theme', '#flip', '#add-move', '#import-file', '#export-bin', '#analyse', '#play', '#fen-load', '#pgn-load', '#link-copy']) assert.ok(reached.has(id), `${id} is reached with Tab (reached: ${[...reached].join(', ')})`);
  // A screen reader finds the import by its name.
  assert.ok((await named(page)).includes('button Import PGN…'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('focus is kept: a row played with Enter, the editor saved, closed or left with Escape, the move list, Undo and Redo', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?play=d2d4');
  const playIs = (p: string) => page.waitForFunction((x: string) => new URLSearchParams(location.search).get('play') === x, { timeout: WAIT_MS }, p);
  const rowOf = (uci: string) => page.waitForFunction((u: string) => document.querySelector(`#rows tr[data-uci="${u}"]`) !== null, { timeout: WAIT_MS }, uci);

  // Enter on a row plays it; the focus goes to the first row of the next position's table, so
  // Enter again plays on down the line.
  await page.focus('#rows tr[data-uci="g8f6"]');
  await press(page, 'Enter');
  await playIs('d2d4,g8f6');
  await rowOf('c2c4');
  await page.waitForFunction(() => document.activeElement?.closest?.('#rows') !== null && document.activeElement !== document.body, { timeout: WAIT_MS });
  assert.match(await focused(page), /^row /, 'a row of the new table has the focus');

  // Save with Enter in the editor: the focus returns to the ✎ of the move edited.
  await page.focus('#rows tr[data-uci="c2c4"] button.edit');
  await press(page, 'Enter');
  await page.waitForSelector('#editor:not([hidden])');
  await page.keyboard.type('42');
  await press(page, 'Enter');
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci="c2c4"] .user')?.textContent === '42', { timeout: WAIT_MS });
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Saved.', { timeout: WAIT_MS });
  assert.equal(await focused(page), 'edit c2c4', 'after Save');

  // Close, and Escape, return it there too; Escape closes the editor.
  await press(page, 'Enter');
  await page.waitForSelector('#editor:not([hidden])');
  await page.focus('#edit-cancel');
  await press(page, 'Enter');
  assert.equal(await focused(page), 'edit c2c4', 'after Close');
  await press(page, 'Enter');
  await page.waitForSelector('#editor:not([hidden])');
  await press(page, 'Escape');
  assert.equal(await page.$eval('#editor', (e) => (e as unknown as { hidden: boolean }).hidden), true, 'Escape closed the editor');
  assert.equal(await focused(page), 'edit c2c4', 'after Escape');

  // Undo with its button: it is then disabled, and the focus moves to Redo rather than <body>.
  await page.focus('#undo');
  await press(page, 'Enter');
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci="c2c4"] .user')?.textContent === '', { timeout: WAIT_MS });
  await page.waitForFunction(() => (document.getElementById('undo') as { disabled: boolean }).disabled, { timeout: WAIT_MS });
  assert.equal(await focused(page), '#redo', 'after Undo');
  await press(page, 'Enter');
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci="c2c4"] .user')?.textContent === '42', { timeout: WAIT_MS });
  await page.waitForFunction(() => (document.getElementById('redo') as { disabled: boolean }).disabled, { timeout: WAIT_MS });
  assert.equal(await focused(page), '#undo', 'after Redo');

  // The move list is drawn anew on a jump: the focus stays on the move jumped to.
  await page.focus('#moves button[data-ply="1"]');
  await press(page, 'Enter');
  await playIs('d2d4,g8f6');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('at') === '1', { timeout: WAIT_MS });
  assert.equal(await focused(page), 'ply 1', 'after a jump in the move list');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a screen reader hears the status line, which move ✎ edits, and the evaluation', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?play=e2e4');
  assert.equal(await page.$eval('#status', (e) => e.getAttribute('role') ?? e.getAttribute('aria-live')), 'status', 'the status line is announced');
  const names = await named(page);
  assert.ok(names.includes('button Edit the notes of c5'), 'each ✎ names its move');
  assert.ok(!names.includes('button ✎'));
  assert.ok(names.includes('image Evaluation: no analysis'), 'the evaluation bar has a name');
  await page.click('#analyse');
  await page.waitForFunction(() => /^Evaluation: [-+#0-9.]+/.test(document.getElementById('evalbar')?.getAttribute('aria-label') ?? ''), { timeout: WAIT_MS });
  await page.click('#analyse');
  assert.deepEqual(errors, []);
  await page.close();
});

/** WCAG contrast ratio of an element's text against what is behind it (opaque backgrounds). */
async function contrast(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (el) => {
    const rgb = (s: string): number[] => s.match(/[\d.]+/g)!.slice(0, 3).map(Number);
    const lum = (c: number[]): number => {
      const f = (v: number): number => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
    };
    let bg = 'rgba(0, 0, 0, 0)';
    for (let e = el; e !== null && /rgba\(.*, 0\)$/.test(bg); e = e.parentElement) bg = getComputedStyle(e).backgroundColor;
    const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(bg))].sort((x, y) => y - x);
    return (a! + 0.05) / (b! + 0.05);
  });
}

/** WCAG contrast ratio of two SVG elements' fills (a board coordinate and its square). */
async function fillContrast(page: Page, text: string, square: string): Promise<number> {
  return page.evaluate(
    (t: string, q: string) => {
      const rgb = (s: string): number[] => s.match(/[\d.]+/g)!.slice(0, 3).map(Number);
      const lum = (c: number[]): number => {
        const f = (v: number): number => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
      };
      const fill = (sel: string): number => lum(rgb(getComputedStyle(document.querySelector(sel)).fill));
      const [a, b] = [fill(t), fill(q)].sort((x, y) => y - x);
      return (a! + 0.05) / (b! + 0.05);
    },
    text,
    square,
  );
}

for (const theme of ['light', 'dark'] as const) {
  test(`${theme} theme: the board's coordinates reach 4.5:1 against their squares`, { skip, timeout: 120_000 }, async () => {
    const { page, errors } = await open('/', theme);
    for (const [text, square] of [
      ['.coordinates .coordinate.black', '.board .square.black'],
      ['.coordinates .coordinate.white', '.board .square.white'],
    ] as const) {
      const r = await fillContrast(page, text, square);
      assert.ok(r >= 4.5, `${text} on ${square}: ${r.toFixed(2)}:1`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`${theme} theme: the bar's percentages and text on the accent reach 4.5:1; a focused row shows an outline`, { skip, timeout: 120_000 }, async () => {
    const { page, errors } = await open('/?play=e2e4,c7c5', theme);
    for (const cls of ['w', 'd', 'b']) {
      await page.$eval(`#sum .wdb .${cls}`, (e) => (e.textContent = '33%'));
      const r = await contrast(page, `#sum .wdb .${cls}`);
      assert.ok(r >= 4.5, `${cls} share on the bar: ${r.toFixed(2)}:1`);
    }
    const cur = await contrast(page, '#moves .mv.cur');
    assert.ok(cur >= 4.5, `the current move in the move list: ${cur.toFixed(2)}:1`);
    await page.$eval('#analyse', (e) => e.classList.add('on'));
    const on = await contrast(page, '#analyse');
    assert.ok(on >= 4.5, `a pressed button (Stop): ${on.toFixed(2)}:1`);
    await page.$eval('#analyse', (e) => e.classList.remove('on'));
    // Tab onto a row: it shows a focus outline (not only the hover background).
    await page.focus('#analyse');
    await page.focus('#rows tr[data-uci]');
    await page.keyboard.down('Shift');
    await press(page, 'Tab');
    await page.keyboard.up('Shift');
    await press(page, 'Tab');
    const outline = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement);
      return `${document.activeElement.tagName} ${s.outlineStyle} ${s.outlineWidth}`;
    });
    assert.match(outline, /^TR (solid|auto) [2-9]/, `the focused row's outline: ${outline}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a move made on the board with the keyboard: Tab onto it, arrows to a square, Enter on the piece and on its destination', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/');
  for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.tagName)) !== 'svg'; i++) await press(page, 'Tab');
  assert.ok((await named(page)).includes('application Chessboard'), 'the board is reached with Tab and named');
  // From a1 (White's view): four files right and one rank up is e2; two ranks up is e4.
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'Enter', 'ArrowUp', 'ArrowUp', 'Enter'] as const) await page.keyboard.press(key);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('play') === 'e2e4', { timeout: WAIT_MS });
  // On the board the arrows move between squares; they do not step through the line.
  await page.keyboard.press('ArrowLeft');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(new URLSearchParams(new URL(page.url()).search).get('at'), null, 'ArrowLeft on the board did not go back a move');
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'svg', 'the board keeps the focus');
  assert.deepEqual(errors, []);
  await page.close();
});

test('forced colours (high contrast): the current move, the bar segments and the evaluation keep a mark', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?play=e2e4,c7c5');
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
  const style = (selector: string, prop: string): Promise<string> => page.$eval(selector, (e, p) => getComputedStyle(e)[p as 'color'] as string, prop);
  assert.notEqual(await style('#moves .mv.cur', 'outlineStyle'), 'none', 'the current move is outlined');
  assert.notEqual(await style('#sum .wdb .d', 'borderLeftStyle'), 'none', "the bar's segments are divided");
  assert.notEqual(await style('#evalfill', 'backgroundColor'), await style('#evalbar', 'backgroundColor'), "the evaluation bar's fill differs from the bar");
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone every small target is at least 24 px each way: small buttons, the links beside them, the moves of the list', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?play=e2e4,c7c5,g1f3');
  await page.setViewport({ width: 360, height: 740 });
  const sizes = await page.evaluate(() =>
    [...document.querySelectorAll('button.small, .small-link, #moves .mv')]
      .filter((e: { offsetParent: unknown }) => e.offsetParent !== null)
      .map((e: { id: string; className: string; textContent: string; getBoundingClientRect(): { width: number; height: number } }) => {
        const r = e.getBoundingClientRect();
        return { what: e.id || `${e.className} ${e.textContent.trim()}`, width: Math.round(r.width), height: Math.round(r.height) };
      }),
  );
  assert.ok(sizes.length >= 8, `targets seen: ${JSON.stringify(sizes)}`);
  assert.deepEqual(sizes.filter((s: { width: number; height: number }) => s.width < 24 || s.height < 24), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a move played only by games that came back to the position says "repeat", and how often, in words', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?book=repeats.tbk&play=e2e4,e7e5');
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  const cells = await page.$$eval('#rows tr[data-uci]', (rows) =>
    rows.map((r) => {
      const c = r.querySelector('td.stat');
      return [r.dataset.uci, c.querySelector('.tag')?.textContent ?? c.textContent.trim(), c.getAttribute('title') ?? ''];
    }),
  );
  // Each game counts once, under its last move: Nc3 has both games, Nf3 none, one repeat each.
  assert.deepEqual(cells, [
    ['b1c3', '2 100%', 'Played once more by games that came back to this position later (each game counts once here, under its last move).'],
    ['g1f3', 'repeat', 'Played once, only by games that came back to this position and left it by another move at their last visit: each game counts once here, under its last move.'],
  ]);
  const names = (await named(page)).join('\n');
  assert.match(names, /Played once, only by games that came back to this position/, 'a screen reader hears why Nf3 has no games');
  assert.ok(await contrast(page, '#rows tr[data-uci="g1f3"] .tag') >= 4.5, 'the tag is readable');
  assert.deepEqual(errors, []);
  await page.close();
});
