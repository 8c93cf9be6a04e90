/**
 * SAN round trip over every move of 2,000 real master games: each move as written in the file
 * (export format, re-written by pgn-extract) parses to a legal move, and printing that move
 * gives back exactly the same text. Long algebraic input of the same move parses to it too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Position } from '../src/core/position.js';
import { positionFromFen, STARTING_FEN } from '../src/notation/fen.js';
import { makeSan, parseSan } from '../src/notation/san.js';
import { makeUci } from '../src/notation/uci.js';
import { squareName } from '../src/core/types.js';

/** Movetext tokens per game; this file has no comments, NAGs or variations. */
function games(): string[][] {
  const text = gunzipSync(readFileSync(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url))).toString('utf8');
  const out: string[][] = [];
  let moves: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('[')) {
      if (moves.length) out.push(moves);
      moves = [];
      continue;
    }
    for (const tok of line.split(/\s+/)) {
      if (tok === '' || /^\d+\.+$/.test(tok) || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(tok)) continue;
      moves.push(tok.replace(/^\d+\.+/, ''));
    }
  }
  if (moves.length) out.push(moves);
  return out;
}

test('SAN round trip over every move of pgnmentor_players_sample2000', () => {
  const all = games();
  assert.equal(all.length, 2000);
  const pos = new Position();
  let moves = 0;
  for (const [g, tokens] of all.entries()) {
    positionFromFen(STARTING_FEN, pos);
    for (const san of tokens) {
      const r = parseSan(pos, san);
      assert.ok(r.ok, `game ${g + 1}: ${r.ok ? '' : r.error.message}`);
      assert.equal(makeSan(pos, r.value), san, `game ${g + 1}`);
      // The same move in long algebraic notation resolves to the same move.
      const from = squareName((r.value >>> 6) & 63);
      const uci = makeUci(r.value);
      const lan = parseSan(pos, `${from}${uci.slice(2, 4)}${uci.slice(4)}`);
      assert.ok(lan.ok && lan.value === r.value, `LAN of ${san} in game ${g + 1}`);
      pos.play(r.value);
      moves++;
    }
  }
  assert.ok(moves > 150_000, `${moves} moves`);
});
