/**
 * make-book's halving recomputed from a book's games (src/book/rich/halving.ts): the replay
 * that stops each game once no hot position can follow gives the counters the build stored,
 * the games replayed in slices (as on several threads) give the same counters, and the pawn
 * measure the stop relies on never grows along real games.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { FileReader } from '../src/book/node/tbkFile.js';
import type { HotPosition } from '../src/book/rich/finish.js';
import { replayGame } from '../src/book/rich/games.js';
import { countHalving, halvingEvents, pawnDistance, replayHalving } from '../src/book/rich/halving.js';
import { TbkBook } from '../src/book/rich/tbkBook.js';
import { Position } from '../src/core/position.js';

const MASTERS_GZ = fileURLToPath(new URL('../../data/masters-2550.pgn.gz', import.meta.url));
const MAX_PLY = 30;

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-halving-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

async function mastersBook(): Promise<TbkBook> {
  const path = join(tmp, 'masters.tbk');
  await buildTbk(path, { inputs: [MASTERS_GZ], maxPly: MAX_PLY, tmpDir: tmp });
  const r = TbkBook.open(new FileReader(path), path, fastCrc32);
  if (!r.ok) throw r.error;
  return r.value;
}

test('the replay, whole or in slices, gives the counters the build stored for every hot position', async () => {
  const book = await mastersBook();
  const stored = book.halvedPositions();
  assert.ok(stored.length >= 3, `${stored.length} hot positions`);
  // The hot positions as the build found them, with the highest ply the book keeps as their last.
  const hot: HotPosition[] = stored.map((h) => ({ keyHi: h.keyHi, keyLo: h.keyLo, moves: [...h.moves].map((move) => ({ move, stamp: 0 })), maxPly: MAX_PLY - 1 }));
  const games = book.gameReader(1 << 16)!;
  const whole = replayHalving(hot, games);
  const cut = [0, 1, 777, Math.floor(games.count / 2), games.count];
  const slices = cut.slice(1).map((to, i) => halvingEvents(hot, games, cut[i]!, to));
  const sliced = countHalving(hot, slices);
  let halvedSomewhere = false;
  stored.forEach((h, i) => {
    assert.deepEqual([...whole[i]!.n], [...h.n], `n of hot position ${i}`);
    assert.deepEqual([...whole[i]!.sum], [...h.sum], `sum of hot position ${i}`);
    assert.deepEqual([...sliced[i]!.n], [...h.n]);
    assert.deepEqual([...sliced[i]!.sum], [...h.sum]);
    // Below COUNT_MAX games a move's n is its game count; a halved one is smaller.
    const played = slices.reduce((s, sl) => s + sl[i]!.length, 0);
    if (h.n.reduce((a, b) => a + b, 0) < played) halvedSomewhere = true;
  });
  assert.ok(halvedSomewhere, 'some counters were halved');
});

test('pawnDistance starts at 96 and never grows along the games', async () => {
  const book = await mastersBook();
  const games = book.gameReader(1 << 16)!;
  const pos = new Position();
  let plies = 0;
  let drops = 0;
  for (let g = 0; g < Math.min(games.count, 3000); g++) {
    let last = -1;
    const rec = games.record(g);
    replayGame(games, g, rec, pos, (p) => {
      const d = pawnDistance(p);
      if (last < 0 && !rec.fen) assert.equal(d, 96, `game ${g} starts with 96 steps`);
      if (last >= 0) assert.ok(d <= last, `game ${g} ply ${plies}: ${last} -> ${d}`);
      if (last >= 0 && d < last) drops++;
      last = d;
      plies++;
      return true;
    });
  }
  assert.ok(plies > 50_000 && drops > plies / 10, `${plies} plies, ${drops} drops`);
});
