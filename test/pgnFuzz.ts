/**
 * PGN fuzzing shared by the brief test (test/pgnFuzz.test.ts) and the long run
 * (scripts/pgn-fuzz.mjs): real games are mutated (bytes flipped, PGN punctuation inserted,
 * ranges deleted or repeated, the text cut short) and followed by a known good game. Whatever
 * the mutation, the reader must not throw, must report every broken game with a sane location,
 * must still read the good game after it, and must see the same thing whatever the chunking.
 */
import assert from 'node:assert/strict';
import { readGames } from '../src/pgn/game.js';
import { read } from './pgnEvents.js';

export const SENTINEL_MOVES = ['e2e4', 'c7c5', 'g1f3', 'd7d6', 'd2d4', 'c5d4', 'f3d4', 'g8f6', 'b1c3', 'a7a6'];
const SENTINEL = '[Event "sentinel"]\n[Site "?"]\n[Result "1/2-1/2"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1/2-1/2\n';

/** Annotated seeds, so mutations also hit comments, NAGs, variations, set-ups and escapes. */
export const RICH_SEEDS = [
  '[Event "rich"]\n[White "Müller"]\n[Black "B"]\n[Result "1-0"]\n\n{Intro} 1. e4 {[%clk 0:03:00]} e5 $1 2. Nf3!? (2. Nc3 Nc6 (2... Nf6 3. f4) 3. f4) 2... Nc6 ; line\n% escape\n3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n',
  '[Event "setup"]\n[SetUp "1"]\n[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]\n\n1. O-O-O O-O 2. Rd7 Rf7 3. Rxf7 Kxf7 *\n',
  '[Event "960"]\n[Variant "Chess960"]\n[FEN "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9"]\n\n9. O-O Nc5 10. d4 -- 11. Z0 e6 0-1\n',
];

/** Deterministic pseudo-random numbers (xorshift32). */
export function rng(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const INSERTS = ['{', '}', '(', ')', '[', ']', '"', ';', '%', '$', '$12', '!', '?!', '\n', '\r', '\r\n', '\n\n', '1-0', '0-1', '1/2-1/2', '*', '--', 'Z0', 'e.p.', 'O-O', '0-0-0', '\\', '½-½', '[Event "x"]', '[%clk 0:00:01]', '12.', 'Nf3', 'exd6', 'e8=Q', '<', '>'];

/** One mutation of `text`. */
export function mutate(text: Uint8Array, rand: () => number): Uint8Array {
  const n = text.length;
  const at = Math.floor(rand() * (n + 1));
  const r = rand();
  if (r < 0.25) {
    const out = text.slice();
    if (n > 0) out[Math.min(at, n - 1)] = Math.floor(rand() * 256);
    return out;
  }
  if (r < 0.55) {
    const ins = new TextEncoder().encode(INSERTS[Math.floor(rand() * INSERTS.length)]!);
    return concat(text.subarray(0, at), ins, text.subarray(at));
  }
  if (r < 0.75) {
    const len = Math.floor(rand() * 40);
    return concat(text.subarray(0, at), text.subarray(Math.min(n, at + len)));
  }
  if (r < 0.9) {
    const len = Math.floor(rand() * 60);
    const from = Math.floor(rand() * n);
    return concat(text.subarray(0, at), text.subarray(from, Math.min(n, from + len)), text.subarray(at));
  }
  return text.subarray(0, at); // truncation
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

const KINDS = new Set(['illegal-move', 'ambiguous-move', 'unreadable-move', 'bad-token', 'bad-tag', 'bad-fen', 'unknown-variant', 'unmatched-parenthesis', 'missing-result', 'truncated', 'too-long']);

export interface FuzzCounts {
  inputs: number;
  errors: number;
  games: number;
}

/** Runs one fuzz case built from `seeds`; throws (AssertionError) when an invariant breaks. */
export function fuzzCase(seeds: readonly string[], rand: () => number, counts: FuzzCounts): void {
  const enc = new TextEncoder();
  let body: Uint8Array = enc.encode(Array.from({ length: 1 + Math.floor(rand() * 3) }, () => seeds[Math.floor(rand() * seeds.length)]!).join('\n'));
  const mutations = 1 + Math.floor(rand() * 4);
  for (let k = 0; k < mutations; k++) body = mutate(body, rand);
  const input = concat(body, enc.encode('\n\n' + SENTINEL));
  const lines = new TextDecoder('latin1').decode(input).split(/\r\n|\r|\n/).length;
  const hooks = rand() < 0.5 ? 'main' : 'all';
  const whole = read(input, { hooks });
  counts.inputs++;
  counts.errors += whole.errors.length;
  counts.games += whole.games.length;
  const last = whole.games.at(-1);
  const where = () => `input:\n${new TextDecoder('latin1').decode(input)}\nlog:\n${whole.log.join('\n')}`;
  if (last === undefined || last.tags.Event !== 'sentinel') assert.fail(`the good game after the mutated one was not read\n${where()}`);
  assert.deepEqual(last.moves, SENTINEL_MOVES, where());
  assert.equal(last.result, '1/2-1/2');
  for (const e of whole.errors) {
    if (!KINDS.has(e.kind) || e.line < 1 || e.line > lines || e.column < 1 || e.game < 1 || e.message === '') {
      assert.fail(`bad error report ${JSON.stringify(e)}\n${where()}`);
    }
  }
  const chunk = 1 + Math.floor(rand() * 9);
  const parts = read(input, { hooks, chunk });
  assert.deepEqual(parts.log, whole.log, `chunks of ${chunk} bytes differ\n${where()}`);
  if (rand() < 0.2) {
    const trees = readGames(input);
    assert.equal(trees.games.at(-1)?.moves.length, SENTINEL_MOVES.length);
  }
}
