import { test } from 'node:test';
import assert from 'node:assert/strict';
import { positionFromFen, STARTING_FEN } from '../../notation/fen.js';
import { parseUci } from '../../notation/uci.js';
import { keyToHex } from '../../core/zobrist.js';
import type { Position } from '../../core/position.js';
import { walkBook, type AuditBookMove } from './walk.js';

/** A book of UCI lines from the start: every move of every line, 5 games each. */
function bookOf(lines: string[]): (pos: Position) => AuditBookMove[] {
  const byKey = new Map<string, string[]>();
  for (const line of lines) {
    const pos = start();
    for (const uci of line.split(' ')) {
      const key = keyToHex(pos.keyHi, pos.keyLo);
      const list = byKey.get(key) ?? [];
      if (!list.includes(uci)) list.push(uci);
      byKey.set(key, list);
      pos.play((parseUci(pos, uci) as { value: number }).value);
    }
  }
  return (pos) => (byKey.get(keyToHex(pos.keyHi, pos.keyLo)) ?? []).map((u) => ({ move: (parseUci(pos, u) as { value: number }).value, games: 5, weight: 10 }));
}

function start(): Position {
  const r = positionFromFen(STARTING_FEN);
  if (!r.ok) throw r.error;
  return r.value;
}

test('the walk visits each position once (transpositions meet), breadth first, with a shortest line', () => {
  // 1.d4 Nf6 2.c4 e6 and 1.c4 e6 2.d4 Nf6 reach the same position.
  const probe = bookOf(['d2d4 g8f6 c2c4 e7e6 b1c3', 'c2c4 e7e6 d2d4 g8f6 g1f3']);
  const { positions } = walkBook([start()], probe, { maxPly: 100 });
  const keys = positions.map((p) => p.key);
  assert.equal(new Set(keys).size, keys.length, 'no position twice');
  assert.deepEqual(positions.map((p) => p.ply), [...positions.map((p) => p.ply)].sort((a, b) => a - b), 'breadth first');
  const meeting = positions.find((p) => p.moves.some((m) => m.uci === 'b1c3'))!;
  // Both continuations of the meeting position are checked there, once.
  assert.deepEqual(meeting.moves.map((m) => m.uci).sort(), ['b1c3', 'g1f3']);
  assert.equal(meeting.line.length, 4);
  assert.equal(positions.length, 1 + 2 + 2 + 2 + 1);
  // --max-ply: only positions before that ply.
  assert.deepEqual(walkBook([start()], probe, { maxPly: 2 }).positions.map((p) => p.ply), [0, 1, 1]);
});
