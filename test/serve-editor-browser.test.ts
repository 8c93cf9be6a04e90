/**
 * The explorer page's editor and engine controls in Debian's Chromium (puppeteer-core, the
 * system browser, no download): an edit sends only the fields the user changed (a NAG the menu
 * does not list and a comment set from another tab are kept), the editor belongs to the
 * position it was opened on (it closes when the board moves on), Enter on a row's ✎ opens the
 * editor without playing the move, a Stop pressed while the engine still loads stops it, and
 * the evaluation bar turns with the board; Undo and Redo take edits back and make them again;
 * the table marks the repertoire's choices (chosen, never, forbidden, added by hand) in words as
 * well as looks, readable in both themes and on a phone; the link keeps the board's side.
 * Skipped, saying so, where /usr/bin/chromium is missing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { shotsDir } from './support/shots.js';

// The page's globals, as the functions run inside the browser see them (this file compiles for Node).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any, location: { search: string }, MutationObserver: any, getComputedStyle: any, window: { scrollY: number; innerHeight: number; scrollTo(o: { top: number; behavior: string }): void };

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-editor-'));
const TBK = join(tmp, 'sample.tbk');
/** A hang bound for a step that waits for the page, not a speed. */
const WAIT_MS = 30_000;
/** Screenshots of the table's marks and of a turned board, to look at. */
let server: RunningServer;
let browser: Browser;
let token = '';

before(async () => {
  if (skip) return;
  const r = spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, '-o', TBK, '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  server = await startServer({ books: [TBK], port: 0, host: '127.0.0.1', engineThreads: 1 });
  token = server.token;
  const puppeteer = (await import('puppeteer-core')).default;
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  // The address tabiya serve prints, with the token: the browser keeps the token for this
  // server, so the pages below, opened without it, edit (as a reload or a link would).
  const first = await browser.newPage();
  await first.goto(server.pageUrl, { waitUntil: 'load' });
  assert.equal(new URL(first.url()).searchParams.has('token'), false, 'the address bar loses the token');
  await first.close();
});

test('a page opened without the token (another account of the machine) shows the book and cannot edit it', { skip }, async () => {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}?play=e2e4`, { waitUntil: 'load' });
    await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
    await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
    assert.equal(await page.$eval('#explorer', (t) => t.classList.contains('can-edit')), false);
    assert.equal(await page.$eval('#add-move', (b) => (b as unknown as { hidden: boolean }).hidden), true);
    assert.equal(await page.$eval('#import-label', (b) => (b as unknown as { hidden: boolean }).hidden), true);
    assert.match(await page.$eval('#bookinfo', (e) => e.textContent ?? ''), /read-only here: open the address tabiya serve printed to edit/);
    // Hidden is not shown, also on a phone, where the small controls are made bigger to touch.
    for (const width of [1300, 375]) {
      await page.setViewport({ width, height: 800 });
      const shown = await page.$$eval('#add-move, #undo, #redo, #import-label, #one-game, #editor', (els) => els.filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.id));
      assert.deepEqual(shown, [], `at ${width} px`);
    }
    // Opened with the token in the same context, it edits.
    await page.goto(server.pageUrl, { waitUntil: 'load' });
    await page.waitForSelector('#explorer.can-edit', { timeout: WAIT_MS });
  } finally {
    await context.close();
  }
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

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width: 1300, height: 900 });
  await page.goto(server.url + path.replace(/^\//, ''), { waitUntil: 'load' });
  await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  return { page, errors };
}

/** Notes of one move as `book probe --json` reads them from the file. */
function notes(moves: string, uci: string): { userValue: number | null; nag: number | null; comment: string | null; forbidden: boolean } | undefined {
  const r = spawnSync(process.execPath, [MAIN, 'book', 'probe', TBK, '--moves', moves, '--json'], { encoding: 'utf8' });
  const m = (JSON.parse(r.stdout) as { moves: { uci: string; userValue: number | null; nag: number | null; comment: string | null; forbidden: boolean }[] }).moves.find((x) => x.uci === uci);
  return m === undefined ? undefined : { userValue: m.userValue, nag: m.nag, comment: m.comment, forbidden: m.forbidden };
}

async function setNotes(body: object): Promise<void> {
  const r = await fetch(`${server.url}api/move`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-tabiya-token': token }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, await r.text());
}

test('an edit on the page sends only what the user changed: a NAG the menu lacks and a comment set meanwhile elsewhere are kept', { skip, timeout: 120_000 }, async () => {
  await setNotes({ play: 'e2e4,c7c5', move: 'b1c3', nag: 10 });
  const { page, errors } = await open('/?play=e2e4,c7c5');
  // $10 is shown as its printed symbol, =, with the number in its title.
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci="b1c3"] td:nth-child(10)')?.textContent === '=', { timeout: WAIT_MS });
  assert.equal(await page.$eval('#rows tr[data-uci="b1c3"] td:nth-child(10)', (e) => e.getAttribute('title')), '$10');
  await page.click('#rows tr[data-uci="b1c3"] button.edit');
  await page.waitForSelector('#editor:not([hidden])');
  assert.equal(await page.$eval('#edit-nag', (e) => (e as unknown as { value: string }).value), '10', 'the editor shows the NAG it cannot list');
  // Another tab (or a script) comments the move while this editor is open.
  await setNotes({ play: 'e2e4,c7c5', move: 'b1c3', comment: 'from another tab' });
  await page.type('#edit-user', '60');
  await page.click('#edit-save');
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci="b1c3"] .user')?.textContent === '60', { timeout: WAIT_MS });
  assert.deepEqual(notes('e2e4 c7c5', 'b1c3'), { userValue: 60, nag: 10, comment: 'from another tab', forbidden: false });
  // "+ Add a move" naming a move the book has changes only what is filled in.
  await page.click('#add-move');
  await page.type('#edit-move', 'Nc3');
  await page.type('#edit-comment', 'closed Sicilian');
  await page.click('#edit-save');
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci="b1c3"] .comment')?.textContent === 'closed Sicilian', { timeout: WAIT_MS });
  assert.deepEqual(notes('e2e4 c7c5', 'b1c3'), { userValue: 60, nag: 10, comment: 'closed Sicilian', forbidden: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the editor belongs to its position: it closes when the board moves on; Enter on ✎ opens it and plays nothing', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?play=d2d4,d7d5&at=0');
  await page.focus('#rows tr[data-uci="e2e4"] button.edit');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#editor:not([hidden])');
  assert.equal(new URLSearchParams(new URL(page.url()).search).get('at'), '0', 'Enter on ✎ played no move');
  assert.equal(await page.$eval('#edit-title', (e) => e.textContent), 'Notes of e4');
  await page.type('#edit-user', '90');
  // The move list jumps to 1.d4 d5, where 2.e4 is legal too: the editor must not write there.
  await page.click('#moves button[data-ply="2"]');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('at'), { timeout: WAIT_MS });
  assert.equal(await page.$eval('#editor', (e) => (e as unknown as { hidden: boolean }).hidden), true, 'the editor closed');
  assert.equal(notes('d2d4 d7d5', 'e2e4'), undefined, 'no note was added to 2.e4');
  // Enter on the row itself still plays its move. The start position's table has a c4 row too:
  // wait for the table of 1.d4 d5, or the row focused may be one the table is about to replace.
  await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
  await page.focus('#rows tr[data-uci="c2c4"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('play') === 'd2d4,d7d5,c2c4', { timeout: WAIT_MS });
  // So does Space, as on a button.
  await page.waitForSelector('#rows tr[data-uci="e7e6"]', { timeout: WAIT_MS });
  await page.focus('#rows tr[data-uci="e7e6"]');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('play') === 'd2d4,d7d5,c2c4,e7e6', { timeout: WAIT_MS });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Stop pressed while the engine still loads stops it; the evaluation bar turns with the board', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?play=e2e4');
  let infos = 0;
  await page.exposeFunction('countInfo', () => infos++);
  await page.evaluate(() => {
    document.getElementById('analyse').click();
    document.getElementById('analyse').click();
    // From here on the info line must not change (the stop itself emptied it).
    new MutationObserver(() => (globalThis as unknown as { countInfo: () => void }).countInfo()).observe(document.getElementById('engineinfo'), { childList: true, characterData: true, subtree: true });
  });
  // Long enough for the engine to load and report several depths, were it searching.
  await new Promise((r) => setTimeout(r, 4000));
  assert.equal(infos, 0, 'the engine reported nothing after the stop');
  assert.equal(await page.$eval('#analyse', (e) => e.textContent), 'Analyse');
  assert.match(await page.$eval('#pvs li', (e) => e.textContent!), /^Analyse/, 'no line and no "Searching…" after the stop');
  assert.equal(await page.$eval('#evalbar', (e) => e.classList.contains('flipped')), false);
  const repertoire = (): Promise<[string, string]> => page.$eval('#export-rep-pgn', (e) => [e.textContent!, (e as unknown as { href: string }).href] as [string, string]);
  const [whiteText, whiteHref] = await repertoire();
  assert.equal(whiteText, 'White repertoire .pgn');
  assert.match(whiteHref, /\/api\/export\?format=pgn&side=white&book=/);
  await page.keyboard.press('f');
  assert.equal(await page.$eval('#evalbar', (e) => e.classList.contains('flipped')), true, "White's end of the bar is beside White's side of the turned board");
  const [blackText, blackHref] = await repertoire();
  assert.equal(blackText, 'Black repertoire .pgn', 'the repertoire export is for the side at the bottom');
  assert.equal(blackHref, whiteHref.replace('side=white', 'side=black'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('undo and redo: a note edit, an added move and a removal are taken back and made again; a new edit ends the redo', { skip, timeout: 120_000 }, async () => {
  await setNotes({ play: 'e2e4,e7e5', move: 'g1f3', comment: 'main line' });
  const { page, errors } = await open('/?play=e2e4,e7e5');
  const statusText = (): Promise<string> => page.$eval('#status', (e) => e.textContent!);
  const disabled = (id: string): Promise<boolean> => page.$eval(`#${id}`, (e) => (e as unknown as { disabled: boolean }).disabled);
  const userValue = (uci: string, v: string) => page.waitForFunction((u: string, x: string) => document.querySelector(`#rows tr[data-uci="${u}"] .user`)?.textContent === x, { timeout: WAIT_MS }, uci, v);
  const row = (uci: string, present: boolean) => page.waitForFunction((u: string, p: boolean) => (document.querySelector(`#rows tr[data-uci="${u}"]`) !== null) === p, { timeout: WAIT_MS }, uci, present);
  assert.equal(await disabled('undo'), true, 'nothing to undo yet');
  await page.keyboard.down('Control');
  await page.keyboard.press('z');
  await page.keyboard.up('Control');
  assert.equal(await statusText(), 'Nothing to undo.');

  // A user value set on the page; Ctrl+Z takes it back and leaves the comment, Redo sets it again.
  await page.click('#rows tr[data-uci="g1f3"] button.edit');
  await page.waitForSelector('#editor:not([hidden])');
  await page.type('#edit-user', '77');
  await page.click('#edit-save');
  await userValue('g1f3', '77');
  assert.equal(await disabled('undo'), false);
  assert.equal(await page.$eval('#undo', (e) => e.getAttribute('title')), 'Undo the notes of Nf3 after 1. e4 e5 (Ctrl+Z)');
  await page.focus('#rows tr[data-uci="g1f3"]');
  await page.keyboard.down('Control');
  await page.keyboard.press('z');
  await page.keyboard.up('Control');
  await userValue('g1f3', '');
  assert.equal(await statusText(), 'Undone: the notes of Nf3 after 1. e4 e5.');
  assert.deepEqual(notes('e2e4 e7e5', 'g1f3'), { userValue: null, nag: null, comment: 'main line', forbidden: false });
  assert.equal(await disabled('redo'), false);
  await page.click('#redo');
  await userValue('g1f3', '77');
  assert.deepEqual(notes('e2e4 e7e5', 'g1f3'), { userValue: 77, nag: null, comment: 'main line', forbidden: false });

  // A move the book lacks, added with a comment: undo removes it, redo adds it back.
  await page.click('#add-move');
  await page.type('#edit-move', 'a3');
  await page.type('#edit-comment', 'a waiting move');
  await page.click('#edit-save');
  await row('a2a3', true);
  await page.click('#undo');
  await row('a2a3', false);
  assert.equal(notes('e2e4 e7e5', 'a2a3'), undefined, 'undo removed the added move from the book');
  await page.click('#redo');
  await row('a2a3', true);
  assert.deepEqual(notes('e2e4 e7e5', 'a2a3'), { userValue: null, nag: null, comment: 'a waiting move', forbidden: false });

  // Removing it, then undoing the removal, brings it back with its note.
  await page.click('#rows tr[data-uci="a2a3"] button.edit');
  await page.waitForSelector('#editor:not([hidden])');
  await page.click('#edit-remove');
  await row('a2a3', false);
  await page.click('#undo');
  await row('a2a3', true);
  assert.deepEqual(notes('e2e4 e7e5', 'a2a3'), { userValue: null, nag: null, comment: 'a waiting move', forbidden: false });

  // Undo twice more, back through the addition and the user value, then a new edit: no redo left.
  await page.click('#undo');
  await row('a2a3', false);
  await page.click('#undo');
  await userValue('g1f3', '');
  assert.equal(notes('e2e4 e7e5', 'a2a3'), undefined);
  assert.equal(await disabled('redo'), false);
  await page.click('#rows tr[data-uci="g1f3"] button.edit');
  await page.waitForSelector('#editor:not([hidden])');
  await page.select('#edit-nag', '1');
  await page.click('#edit-save');
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Saved.', { timeout: WAIT_MS });
  assert.equal(await disabled('redo'), true, 'a new edit ends what could be redone');
  assert.deepEqual(notes('e2e4 e7e5', 'g1f3'), { userValue: null, nag: 1, comment: 'main line', forbidden: false });
  assert.deepEqual(errors, []);
  await page.close();
});

/** WCAG contrast ratio of an element's text against the first opaque background behind it. */
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

test("the table shows the repertoire's choices: chosen moves stand out, never and forbidden ones are struck, moves added by hand say so; readable in both themes and on a phone", { skip, timeout: 180_000 }, async () => {
  // After 1.c4: e5 always, Nf6 at 40, c5 never, e6 forbidden; a6 (chosen) and b5 (never) are in no game.
  await setNotes({ play: 'c2c4', move: 'e7e5', userValue: 100 });
  await setNotes({ play: 'c2c4', move: 'g8f6', userValue: 40 });
  await setNotes({ play: 'c2c4', move: 'c7c5', userValue: 0 });
  await setNotes({ play: 'c2c4', move: 'e7e6', forbidden: true });
  await setNotes({ play: 'c2c4', move: 'a7a6', userValue: 60, comment: 'my own idea' });
  await setNotes({ play: 'c2c4', move: 'b7b5', userValue: 0 });
  const api = (await (await fetch(`${server.url}api/explorer?play=c2c4`)).json()) as { moves: { uci: string; byHand: boolean }[] };
  assert.deepEqual(api.moves.filter((m) => m.byHand).map((m) => m.uci).sort(), ['a7a6', 'b7b5'], 'the API says which moves only notes hold');

  const expected: Record<string, { cls: string[]; mark: string; title: string; user: string }> = {
    e7e5: { cls: ['chosen'], mark: '★', title: 'Chosen: user value 100, always played.', user: '100' },
    g8f6: { cls: ['chosen'], mark: '★', title: 'Chosen: user value 40 of 100 (100 is always).', user: '40' },
    c7c5: { cls: ['never'], mark: '⊘', title: 'Set to never (user value 0): the book does not play it.', user: '0' },
    e7e6: { cls: ['forbidden'], mark: '✕', title: 'Forbidden: the book never plays it.', user: '' },
    a7a6: { cls: ['by-hand', 'chosen'], mark: '★', title: 'Chosen: user value 60 of 100 (100 is always). Added by hand: no game in the book played it.', user: '60' },
    b7b5: { cls: ['by-hand', 'never'], mark: '⊘', title: 'Set to never (user value 0): the book does not play it. Added by hand: no game in the book played it.', user: '0' },
    g7g6: { cls: [], mark: '', title: '', user: '' },
  };
  for (const theme of ['light', 'dark'] as const) {
    for (const [width, height] of [
      [1300, 900],
      [800, 1000],
      [375, 812],
    ] as const) {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: theme }]);
      await page.setViewport({ width, height });
      await page.goto(`${server.url}?play=c2c4`, { waitUntil: 'load' });
      await page.waitForSelector('#rows tr[data-uci="a7a6"]', { timeout: WAIT_MS });
      // No row under the pointer: its hover colour would stand for the row's own.
      await page.mouse.move(0, 0);
      for (const [uci, e] of Object.entries(expected)) {
        const seen = await page.$eval(`#rows tr[data-uci="${uci}"]`, (r) => ({
          cls: [...r.classList].sort() as string[],
          mark: r.querySelector('.mark').textContent as string,
          title: (r.querySelector('td.san').getAttribute('title') ?? '') as string,
          said: (r.querySelector('td.san .offscreen')?.textContent ?? '') as string,
          tag: (r.querySelector('.tag')?.textContent ?? '') as string,
          games: r.children[1].textContent as string,
          user: r.querySelector('.user').textContent as string,
          struck: getComputedStyle(r.querySelector('.mv-san')).textDecorationLine as string,
          weight: Number(getComputedStyle(r.querySelector('.mv-san')).fontWeight),
        }));
        assert.deepEqual(seen.cls, e.cls, `${uci}: its row's classes`);
        assert.equal(seen.mark, e.mark, `${uci}: its mark`);
        assert.equal(seen.title, e.title, `${uci}: the title says why`);
        // A screen reader hears the same words after the move (the marks themselves are hidden from it).
        assert.equal(seen.said, e.title === '' ? '' : `, ${e.title[0]!.toLowerCase()}${e.title.slice(1, -1)}`, `${uci}: the words a screen reader hears`);
        assert.equal(seen.tag, e.cls.includes('by-hand') ? 'by hand' : '', `${uci}: the by-hand tag`);
        if (e.cls.includes('by-hand')) assert.equal(seen.games, 'by hand', `${uci}: "by hand" where the others give their games`);
        assert.equal(seen.user, e.user, `${uci}: its user value`);
        assert.equal(seen.struck, e.cls.includes('never') || e.cls.includes('forbidden') ? 'line-through' : 'none', `${uci}: struck through or not`);
        if (e.cls.includes('chosen')) assert.ok(seen.weight >= 700, `${uci}: a chosen move is bold (${seen.weight})`);
      }
      // Dimmed, not faded out: every mark and text stays at WCAG's 4.5:1 against its row.
      for (const sel of ['tr[data-uci="e7e5"] .mark', 'tr[data-uci="e7e5"] .user', 'tr[data-uci="e7e5"] .mv-san', 'tr[data-uci="c7c5"] .mv-san', 'tr[data-uci="c7c5"] .mark', 'tr[data-uci="e7e6"] .mv-san', 'tr[data-uci="e7e6"] .mark', 'tr[data-uci="a7a6"] .tag']) {
        const r = await contrast(page, `#rows ${sel}`);
        assert.ok(r >= 4.5, `${theme}: ${sel} reaches 4.5:1 (${r.toFixed(2)})`);
      }
      // On a phone the table scrolls inside its panel: the page itself never scrolls sideways;
      // from 800 px every column shows, the marks and tags taking no more room than there is.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= (globalThis as unknown as { innerWidth: number }).innerWidth + 1), `${theme} ${width}: the page fits its width`);
      if (width >= 800) assert.ok(await page.evaluate(() => document.querySelector('.table-wrap').scrollWidth <= document.querySelector('.table-wrap').clientWidth), `${theme} ${width}: the table fits its panel`);
      // The screenshot shows every row (the table otherwise keeps its height and scrolls).
      await page.evaluate(() => (document.querySelector('.table-wrap').style.height = 'auto'));
      await (await page.$('.side-col .panel'))!.screenshot({ path: join(shotsDir(), `marks-${theme}-${width}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
});

test("the board's orientation is kept in the link: a reload or a shared link opens the board as it was turned", { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?play=c2c4');
  const param = (): Promise<string | null> => page.evaluate(() => new URLSearchParams(location.search).get('orientation'));
  // a1 at the bottom left of the board (White below) or at the top right (Black below).
  const whiteBelow = (want: boolean) =>
    page.waitForFunction(
      (w: boolean) => {
        const a1 = document.querySelector('#board rect[data-square="a1"]');
        const a8 = document.querySelector('#board rect[data-square="a8"]');
        return a1 !== null && a8 !== null && Number(a1.getAttribute('y')) > Number(a8.getAttribute('y')) === w;
      },
      { timeout: WAIT_MS },
      want,
    );
  const blackSide = async (): Promise<[boolean, string]> => [await page.$eval('#evalbar', (e) => e.classList.contains('flipped')), await page.$eval('#export-rep-pgn', (e) => e.textContent!)];
  await whiteBelow(true);
  assert.equal(await param(), null, 'White below is the default, left out of the link');
  await page.click('#flip');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('orientation') === 'black', { timeout: WAIT_MS });
  await whiteBelow(false);
  assert.equal(new URLSearchParams(new URL(page.url()).search).get('play'), 'c2c4', 'the line stays in the link');
  // Moving on keeps the side in the link.
  await page.click('#rows tr[data-uci="e7e5"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('play') === 'c2c4,e7e5', { timeout: WAIT_MS });
  assert.equal(await param(), 'black');
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
  await whiteBelow(false);
  assert.deepEqual(await blackSide(), [true, 'Black repertoire .pgn'], 'the reloaded page is turned, the evaluation bar and the repertoire export with it');
  await page.screenshot({ path: join(shotsDir(), 'orientation-black.png') });
  // Flipped twice in a row, faster than the board turns (the second flip comes while the board
  // still has the side it had): back where it was, in the link too.
  await page.evaluate(() => {
    document.getElementById('flip').click();
    document.getElementById('flip').click();
  });
  await whiteBelow(false);
  assert.equal(await param(), 'black');
  assert.deepEqual(await blackSide(), [true, 'Black repertoire .pgn']);
  await page.keyboard.press('f');
  await whiteBelow(true);
  assert.equal(await param(), null);
  assert.deepEqual(await blackSide(), [false, 'White repertoire .pgn']);
  // The Lichess analysis board's own name for it, ?color=black, opens turned as well.
  await page.goto(`${server.url}?play=c2c4&color=black`, { waitUntil: 'load' });
  await page.waitForSelector('#rows tr[data-uci]', { timeout: WAIT_MS });
  await whiteBelow(false);
  assert.equal(await param(), 'black');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the editor says what it needs: Save with nothing changed closes it, a move added without a note is asked for one, Remove is offered only for a move no game played', { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await open('/?play=d2d4,d7d5');
  const statusText = (): Promise<string> => page.$eval('#status', (e) => e.textContent!);
  const hidden = (id: string): Promise<boolean> => page.$eval(`#${id}`, (e) => (e as unknown as { hidden: boolean }).hidden);
  const first = await page.$eval('#rows tr[data-uci]', (e) => e.getAttribute('data-uci')!);

  // Opened and saved as it was: a close, not the API's "nothing to change: give userValue, …".
  await page.click(`#rows tr[data-uci="${first}"] button.edit`);
  await page.waitForSelector('#editor:not([hidden])');
  assert.equal(await hidden('edit-remove'), true, 'a move played in games cannot be removed: Remove is not offered');
  await page.click('#edit-save');
  await page.waitForSelector('#editor[hidden]', { timeout: WAIT_MS });
  assert.equal(await statusText(), 'Nothing changed.');
  assert.equal(await page.$eval('#status', (e) => e.classList.contains('error')), false);

  // A move the book lacks, with no note: the editor stays open and says what to give it, in its own words.
  await page.click('#add-move');
  await page.type('#edit-move', 'h3');
  await page.click('#edit-save');
  await page.waitForFunction(() => document.getElementById('status')?.classList.contains('error'), { timeout: WAIT_MS });
  assert.equal(await statusText(), 'h3 is added with its notes: give it a user value, a NAG, a comment or the forbidden mark.');
  assert.equal(await hidden('editor'), false);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'edit-user');
  await page.type('#edit-user', '20');
  await page.click('#edit-save');
  await page.waitForSelector('#rows tr[data-uci="h2h3"]', { timeout: WAIT_MS });
  assert.deepEqual(notes('d2d4 d7d5', 'h2h3'), { userValue: 20, nag: null, comment: null, forbidden: false });

  // A move the server refuses: its words on the status line, and gone when the editor opens
  // on another move (they would read as that edit's answer).
  await page.click('#add-move');
  await page.type('#edit-move', 'Qh5');
  await page.type('#edit-user', '10');
  await page.click('#edit-save');
  await page.waitForFunction(() => /^Not saved: move: illegal move "Qh5"/.test(document.getElementById('status')?.textContent), { timeout: WAIT_MS });
  assert.equal(await page.$eval('#status', (e) => e.classList.contains('error')), true);
  await page.click('#edit-cancel');

  // The move added by hand can be removed: Remove is offered there.
  await page.click('#rows tr[data-uci="h2h3"] button.edit');
  await page.waitForSelector('#editor:not([hidden])');
  assert.equal((await statusText()).trim(), '');
  assert.equal(await page.$eval('#status', (e) => e.classList.contains('error')), false);
  assert.equal(await hidden('edit-remove'), false);
  await page.click('#edit-remove');
  await page.waitForFunction(() => document.querySelector('#rows tr[data-uci="h2h3"]') === null, { timeout: WAIT_MS });
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone the move stays in view when the table scrolls sideways, in its row colours; the link keeps its commas', { skip, timeout: 120_000 }, async () => {
  await setNotes({ play: 'g1f3', move: 'd7d5', userValue: 100 });
  const { page, errors } = await open('/?play=g1f3');
  await page.click('#rows tr[data-uci="d7d5"]');
  await page.waitForFunction(() => location.search.includes('d7d5'), { timeout: WAIT_MS });
  // A comma may stand in a query (RFC 3986, 3.4): the link a user copies reads as the docs write it.
  assert.equal(await page.evaluate(() => location.search), '?play=g1f3,d7d5');
  await page.click('#back');
  await page.waitForFunction(() => location.search === '?play=g1f3,d7d5&at=1', { timeout: WAIT_MS });
  await page.waitForSelector('#explorer[aria-busy="false"] #rows tr[data-uci="d7d5"]', { timeout: WAIT_MS });

  await page.setViewport({ width: 375, height: 800 });
  const wrap = await page.$('.table-wrap');
  await page.$eval('.table-wrap', (e) => (e.scrollLeft = e.scrollWidth));
  const seen = await page.evaluate(() => {
    // The page scrolled (vertically) so that the row is on the screen: elementFromPoint sees
    // only what is in the viewport, and at 375 x 800 the table may start below it.
    const row = document.querySelector('#rows tr[data-uci="d7d5"]').getBoundingClientRect();
    window.scrollTo({ top: window.scrollY + row.top - window.innerHeight / 2, behavior: 'instant' });
    const w = document.querySelector('.table-wrap').getBoundingClientRect();
    const inView = (el: { getBoundingClientRect(): { left: number; right: number } }): boolean => {
      const r = el.getBoundingClientRect();
      return r.left >= w.left - 0.5 && r.right <= w.right + 0.5;
    };
    const cell = (sel: string) => document.querySelector(sel);
    const san = cell('#rows tr[data-uci="d7d5"] td:first-child');
    // What is painted at the middle of the move's cell: the cell itself (or its text), not a cell scrolled under it.
    const r = san.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
      scrolled: document.querySelector('.table-wrap').scrollLeft > 0,
      san: inView(san),
      head: inView(cell('#explorer thead th:first-child')),
      sum: inView(cell('#sum td:first-child')),
      edit: inView(cell('#rows tr[data-uci="d7d5"] button.edit')),
      onTop: san.contains(top),
      rowBg: getComputedStyle(san.parentElement).backgroundColor,
      cellBg: getComputedStyle(san).backgroundColor,
    };
  });
  await wrap!.screenshot({ path: join(shotsDir(), 'table-scrolled-375.png') });
  assert.deepEqual({ ...seen, rowBg: undefined, cellBg: undefined }, { scrolled: true, san: true, head: true, sum: true, edit: true, onTop: true, rowBg: undefined, cellBg: undefined });
  assert.equal(seen.cellBg, seen.rowBg, "the move's cell has its row's colour (a chosen move's tint)");
  assert.notEqual(seen.cellBg, 'rgba(0, 0, 0, 0)', 'an opaque cell: what scrolls under it does not show through');
  assert.deepEqual(errors, []);
  await page.close();
});

test('analysing into a stalemate or a mate: the search of the move before ends and the bar gives the result, not its score', { skip, timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width: 1300, height: 900 });
  // Qb5-b6 stalemates the king on a8; 1.f3 e5 2.g4 Qh4 mates.
  for (const [fen, play, text, height, label] of [
    ['k7/8/8/1Q6/8/8/8/7K w - - 0 1', 'b5b6', '½-½', '50%', 'Evaluation: stalemate, a draw'],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'f2f3,e7e5,g2g4,d8h4', '0-1', '0%', 'Evaluation: checkmate, Black wins'],
  ] as const) {
    const moves = play.split(',');
    await page.goto(`${server.url}?fen=${encodeURIComponent(fen)}&play=${play}&at=${moves.length - 1}`, { waitUntil: 'load' });
    await page.waitForSelector('#explorer[aria-busy="false"]', { timeout: WAIT_MS });
    await page.click('#analyse');
    await page.waitForFunction(() => document.getElementById('evaltext')?.textContent !== '', { timeout: WAIT_MS });
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => /^(Stalemate|Checkmate)$/.test(document.getElementById('engineinfo')?.textContent ?? ''), { timeout: WAIT_MS });
    const bar = await page.evaluate(() => [document.getElementById('evaltext').textContent, document.getElementById('evalfill').style.height, document.getElementById('evalbar').getAttribute('aria-label')]);
    assert.deepEqual(bar, [text, height, label], fen);
    await page.click('#analyse');
  }
  assert.deepEqual(errors, []);
  await page.close();
});
