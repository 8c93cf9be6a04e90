/**
 * A position that only one game of a `.tbk` reached: the explorer names the game (Lichess's
 * `game` of a move: result, ratings, month), `/api/game` gives its moves, checked against the
 * PGN it came from as chess.js reads it, and the page's *Follow the game* puts the rest of them
 * into the line, in Debian's Chromium; `book probe` names the same game and its continuation (skipped, saying so, where it is missing). A screenshot,
 * one-game.png, goes to $TABIYA_SHOTS (test/support/shots.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Chess } from 'chess.js';
import type { Browser, Page } from 'puppeteer-core';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { shotsDir } from './support/shots.js';

// The page's globals, as the functions run inside the browser see them (this file compiles for Node).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any, location: { search: string };

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
/** A hang bound for the page's steps, not a speed: nothing is judged by how much of it a step takes. */
const WAIT_MS = 30_000;
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-one-game-'));
const TBK = join(tmp, 'sample.tbk');
const BIN = join(tmp, 'sample.bin');
let server: RunningServer;

interface Game {
  id: string;
  winner: string | null;
  result: string;
  white: { name: null; rating: number | null };
  black: { name: null; rating: number | null };
  year: number | null;
  month: string | null;
}
interface Explorer {
  white: number;
  draws: number;
  black: number;
  moves: { uci: string; san: string; white: number; draws: number; black: number; game: Game | null }[];
}

const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
  const r = await fetch(server.url + path.replace(/^\//, ''));
  return { status: r.status, body: (await r.json()) as T };
};

/** From the start, the most played move each time, until a move that only one game played from a position it alone reached. */
async function lineToOneGame(): Promise<{ play: string[]; game: Game }> {
  const play: string[] = [];
  for (;;) {
    const { body } = await get<Explorer>(`/api/explorer?book=sample.tbk&play=${play.join(',')}`);
    const first = body.moves[0];
    assert.ok(first !== undefined, `no book move after ${play.join(' ')}`);
    if (first.game !== null && body.white + body.draws + body.black <= 1) return { play, game: first.game };
    play.push(first.uci);
  }
}

before(async () => {
  for (const out of [TBK, BIN]) {
    const r = spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, '-o', out, '--quiet'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  server = await startServer({ books: [TBK, BIN], port: 0, host: '127.0.0.1', engineThreads: 1 });
});
after(async () => {
  try {
    if (server !== undefined) await server.close();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('the one game of a position: what the explorer says of it, and its moves, are those of the PGN game (chess.js)', async () => {
  const { play, game } = await lineToOneGame();
  assert.ok(play.length > 4, 'the walk went into the book');
  const { status, body } = await get<Game & { fen: string; moves: string[]; sans: string[]; ply: number | null }>(`/api/game?book=sample.tbk&id=${game.id}&play=${play.join(',')}`);
  assert.equal(status, 200);
  assert.deepEqual({ ...body, fen: undefined, moves: undefined, sans: undefined, ply: undefined }, { ...game, fen: undefined, moves: undefined, sans: undefined, ply: undefined });
  assert.equal(body.fen, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  // The game stands in the position after the line at the line's own ply (no transposition on this walk).
  assert.equal(body.ply, play.length);
  assert.deepEqual(body.moves.slice(0, play.length), play);
  // The PGN game it came from, found by its tags and read by chess.js: the same moves, result, ratings and month.
  const texts = gunzipSync(readFileSync(SAMPLE_GZ)).toString('latin1').split(/\n(?=\[Event )/);
  const tag = (t: string, name: string): string | undefined => new RegExp(`^\\[${name} "([^"]*)"\\]`, 'm').exec(t)?.[1];
  const matches = texts.filter((t) => {
    if (tag(t, 'Result') !== body.result || Number(tag(t, 'WhiteElo')) !== body.white.rating || Number(tag(t, 'BlackElo')) !== body.black.rating) return false;
    if (body.month !== null && !tag(t, 'Date')!.startsWith(body.month.replace('-', '.'))) return false;
    const c = new Chess();
    c.loadPgn(t);
    return c.history({ verbose: true }).map((m) => m.lan).join(' ') === body.moves.join(' ');
  });
  assert.equal(matches.length, 1, 'exactly one game of the PGN is that game');
  const c = new Chess();
  c.loadPgn(matches[0]!);
  assert.deepEqual(body.sans, c.history());
  assert.equal(game.winner, body.result === '1-0' ? 'white' : body.result === '0-1' ? 'black' : null);
  assert.equal(game.year, Number(tag(matches[0]!, 'Date')!.slice(0, 4)));

  // book probe names the same game and goes on along it.
  const probed = spawnSync(process.execPath, [MAIN, 'book', 'probe', TBK, '--moves', body.sans.slice(0, play.length).join(' '), '--json'], { encoding: 'utf8' });
  assert.equal(probed.status, 0, probed.stderr);
  const probeGame = (JSON.parse(probed.stdout) as { moves: { game: (Game & { continuation: string[] }) | null }[] }).moves[0]!.game!;
  assert.deepEqual({ ...probeGame, continuation: undefined }, { ...game, continuation: undefined });
  assert.deepEqual(probeGame.continuation, body.moves.slice(play.length));
  const text = spawnSync(process.execPath, [MAIN, 'book', 'probe', TBK, '--moves', body.sans.slice(0, play.length).join(' ')], { encoding: 'utf8' }).stdout;
  assert.match(text, new RegExp(`one game reached this position: game ${game.id} of the book \\(${body.result.replace(/[/]/g, '\\/')}, `));
  // Games are numbered from 1, as the book's errors count them: there is no game 0.
  assert.equal((await get('/api/game?book=sample.tbk&id=0')).status, 400);
  // A position the game never reached: no ply to follow it from. A game the book does not keep, and a .bin, are refused.
  const other = await get<{ ply: number | null }>(`/api/game?book=sample.tbk&id=${game.id}&play=g1f3,g8f6,g2g3`);
  assert.equal(other.body.ply, null);
  const none = await get<{ error: string }>('/api/game?book=sample.tbk&id=999999');
  assert.equal(none.status, 404);
  assert.match(none.body.error, /keeps no game 999999/);
  const bin = await get<{ error: string }>(`/api/game?book=sample.bin&id=${game.id}`);
  assert.equal(bin.status, 404);
  assert.match(bin.body.error, /a Polyglot \.bin keeps no games/);
  // Positions that many games reached name none, but for their moves that one game played.
  const start = await get<Explorer>('/api/explorer?book=sample.tbk');
  assert.ok(start.body.moves.every((m) => (m.game !== null) === (m.white + m.draws + m.black === 1)));
});

/**
 * The first `plies` moves of each PGN game as chess.js plays them from the SAN of the movetext
 * (the sample has no comments, variations or [FEN]): each game's FENs (without the move counters)
 * before each move, its moves in UCI and its result. Reading only the opening keeps this quick.
 */
function pgnOpenings(plies: number): { fens: string[]; moves: string[]; result: string }[] {
  const texts = gunzipSync(readFileSync(SAMPLE_GZ)).toString('latin1').split(/\n(?=\[Event )/);
  return texts.map((t) => {
    const movetext = t.replace(/^\[.*$/gm, '').replace(/\$\d+/g, ' ');
    const sans = movetext.split(/\s+/).filter((w) => w !== '' && !/^\d+\.+$/.test(w) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(w)).map((w) => w.replace(/^\d+\.+/, ''));
    const c = new Chess();
    const fens: string[] = [];
    const moves: string[] = [];
    for (const san of sans.slice(0, plies)) {
      fens.push(c.fen().split(' ').slice(0, 4).join(' '));
      moves.push(c.move(san).lan);
    }
    return { fens, moves, result: /^\[Result "([^"]*)"\]/m.exec(t)?.[1] ?? '*' };
  });
}

test('a move that one game played from a position many games reached names that game, the one the PGN (chess.js) has play it there', async () => {
  const games = pgnOpenings(16);
  // Along the most played line, the first positions with moves of one game.
  const play: string[] = [];
  let checked = 0;
  for (let depth = 0; depth < 6 && checked < 4; depth++) {
    const { body } = await get<Explorer>(`/api/explorer?book=sample.tbk&play=${play.join(',')}`);
    assert.ok(body.white + body.draws + body.black > 1, 'a position many games reached');
    const fen = new Chess();
    for (const m of play) fen.move(m);
    const here = fen.fen().split(' ').slice(0, 4).join(' ');
    for (const m of body.moves.filter((x) => x.white + x.draws + x.black === 1)) {
      // The oracle: the games that play this move from this position, by any move order.
      const players = games.flatMap((g, i) => (g.fens.some((f, k) => f === here && g.moves[k] === m.uci) ? [i] : []));
      assert.equal(players.length, 1, `${m.san} after ${play.join(' ')}: one game of the PGN plays it`);
      assert.ok(m.game !== null, `${m.san} after ${play.join(' ')} names its game`);
      // The book numbers its games from 1 in the order read: the PGN's game players[0] + 1.
      assert.equal(m.game.id, String(players[0]! + 1), 'the game named is the PGN game that plays the move');
      const g = games[players[0]!]!;
      assert.equal(m.game.result, g.result);
      const whole = await get<{ moves: string[]; ply: number | null }>(`/api/game?book=sample.tbk&id=${m.game.id}&play=${play.join(',')}`);
      assert.deepEqual(whole.body.moves.slice(0, g.moves.length), g.moves);
      assert.equal(whole.body.moves[whole.body.ply!], m.uci, 'and it plays the move where it stands in the position');
      if (checked === 0) {
        const text = spawnSync(process.execPath, [MAIN, 'book', 'probe', TBK, '--moves', play.join(' ')], { encoding: 'utf8' }).stdout;
        assert.match(text, new RegExp(`^${m.san.replace(/[+]/g, '\\+')}: one game played it: game ${m.game.id} of the book \\(`, 'm'));
      }
      checked++;
    }
    play.push(body.moves[0]!.uci);
  }
  assert.ok(checked > 0, 'moves of one game were found and checked');
});

const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;

/** Runs `use` on a page of Debian's Chromium, with the page's uncaught errors; closes the browser. */
async function withPage(use: (page: Page, errors: string[]) => Promise<void>): Promise<void> {
  const puppeteer = (await import('puppeteer-core')).default;
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setViewport({ width: 1300, height: 900 });
    await use(page, errors);
  } finally {
    await browser?.close();
  }
}

test('the page: a position one game reached names it, and Follow the game puts its moves into the line', { skip, timeout: 180_000 }, async () => {
  const { play, game } = await lineToOneGame();
  const { body } = await get<{ moves: string[] }>(`/api/game?book=sample.tbk&id=${game.id}`);
  await withPage(async (page, errors) => {
    // One position before: many games, no game named.
    await page.goto(`${server.url}?book=sample.tbk&play=${play.slice(0, -1).join(',')}`, { waitUntil: 'load' });
    await page.waitForSelector('#explorer[aria-busy="false"] #rows tr[data-uci]', { timeout: WAIT_MS });
    assert.equal(await page.$eval('#one-game', (e) => (e as unknown as { hidden: boolean }).hidden), true);
    // The last move of the walk, clicked in the table, reaches the position of one game.
    await page.click(`#rows tr[data-uci="${play.at(-1)!}"]`);
    await page.waitForSelector('#one-game:not([hidden])', { timeout: WAIT_MS });
    const text = await page.$eval('#one-game-text', (e) => e.textContent!);
    const rating = (r: number | null): string => (r === null ? 'unrated' : String(r));
    assert.ok(text.includes(`White ${rating(game.white.rating)}`) && text.includes(`Black ${rating(game.black.rating)}`), text);
    assert.ok(text.includes({ '1-0': '1–0', '0-1': '0–1', '1/2-1/2': '½–½' }[game.result] ?? 'unfinished'), text);
    if (game.month !== null) assert.ok(text.includes(game.month), text);
    await page.click('#follow-game');
    // The line now runs to the game's end, and the board stays where it was.
    await page.waitForFunction((p) => new URLSearchParams(location.search).get('play') === p, { timeout: WAIT_MS }, body.moves.join(','));
    assert.equal(new URL(page.url()).searchParams.get('at'), String(play.length));
    assert.equal(await page.$$eval('#moves .mv', (b) => b.length), body.moves.length);
    await page.waitForFunction(() => document.querySelector('#one-game-text')?.textContent?.includes('Its moves follow in the line'), { timeout: WAIT_MS });
    assert.equal(await page.$eval('#follow-game', (e) => (e as unknown as { hidden: boolean }).hidden), true);
    await page.screenshot({ path: join(shotsDir(), 'one-game.png') });
    // → steps into the game.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((n) => new URLSearchParams(location.search).get('at') === n, { timeout: WAIT_MS }, String(play.length + 1));
    assert.deepEqual(errors, []);
  });
});

test('the page: a move one game played from a position many games reached has its count as a link to the game, which puts that game into the line', { skip, timeout: 180_000 }, async () => {
  const start = await get<Explorer>('/api/explorer?book=sample.tbk');
  const move = start.body.moves.find((m) => m.game !== null);
  assert.ok(move !== undefined, 'the start position has a move of one game');
  const { body } = await get<{ moves: string[]; ply: number }>(`/api/game?book=sample.tbk&id=${move.game!.id}&play=`);
  assert.equal(body.ply, 0);
  await withPage(async (page, errors) => {
    await page.goto(`${server.url}?book=sample.tbk`, { waitUntil: 'load' });
    await page.waitForSelector('#explorer[aria-busy="false"] #rows tr[data-uci]', { timeout: WAIT_MS });
    // Many games reached the start: no game box, and links only in the rows of one-game moves.
    assert.equal(await page.$eval('#one-game', (e) => (e as unknown as { hidden: boolean }).hidden), true);
    const linked = await page.$$eval('#rows tr[data-uci]', (rows) => rows.filter((r) => r.querySelector('.game-link') !== null).map((r) => r.dataset.uci));
    assert.deepEqual(linked, start.body.moves.filter((m) => m.game !== null).map((m) => m.uci));
    await page.click(`#rows tr[data-uci="${move.uci}"] .game-link`);
    // The line is the game's, and the board stays at the start.
    await page.waitForFunction((p) => new URLSearchParams(location.search).get('play') === p, { timeout: WAIT_MS }, body.moves.join(','));
    assert.equal(new URL(page.url()).searchParams.get('at'), '0');
    assert.deepEqual(errors, []);
  });
});
