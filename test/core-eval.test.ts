/**
 * The evaluation (the WebAssembly core's, src/wasm/eval) on its own properties: colour symmetry,
 * the trace that rebuilds it from weights and coefficients, the material + piece-square sum
 * kept incrementally, known endgames (KPK, KBNK, drawish material), the bishop pair, weights
 * pushed in from the one table (src/engine/evalParams.ts) and back, the king shelter and storm
 * by file, the pawn shapes and space (counted against chessops' attack tables); the checked
 * build (every array access bounds-checked) gives the release build's values on real games.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { attacks as opsAttacks, kingAttacks as opsKingAttacks, pawnAttacks as opsPawnAttacks } from 'chessops/attacks';
import { parseFen as opsParseFen } from 'chessops/fen';
import { SquareSet } from 'chessops/squareSet';
import { legalMoves } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { NPAIRS, P_BACKWARD_RANK, P_BISHOP_PAIR, P_CONNECTED_SQUARE, P_ISOLATED_FILE, P_KING_SHELTER_FILE, P_KING_STORM_FILE, P_OUTPOST_SHAPE, P_SPACE_CENTER, P_SPACE_RESTRICT_EMPTY, P_SPACE_RESTRICT_PIECE, P_STACKED_FILE, WEIGHTS, applyWeights, resetWeights, weightsFromJson, weightsToJson } from '../src/engine/evalParams.js';
import { exactOfSums } from '../src/tune/model.js';
import { WasmCore } from '../src/engine/wasm/core.js';
import { gamePhase } from '../src/engine/wdl.js';
import { loadWasmCore, traceCoreModule } from '../src/node/wasmCore.js';
import { positionFromFen } from '../src/notation/fen.js';
import { readPgn } from '../src/pgn/reader.js';

const DATA = new URL('../../../shared/data/', import.meta.url);
const fens = readFileSync(new URL('suites/wac_300.epd', DATA), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => l.split(' ').slice(0, 4).join(' ') + ' 0 1');

/** The same position with colours swapped and the board flipped. */
function mirror(fen: string): string {
  const [board, turn, castling, ep] = fen.split(' ');
  const swap = (s: string): string => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const rows = board!.split('/').reverse().map(swap);
  const c = castling === '-' ? '-' : [...swap(castling!)].sort().join('');
  const e = ep === '-' ? '-' : ep![0] + (ep![1] === '3' ? '6' : '3');
  return `${rows.join('/')} ${turn === 'w' ? 'b' : 'w'} ${c} ${e} 0 1`;
}

const core = loadWasmCore();
const evaluate = (fen: string, c: WasmCore = core): number => {
  c.setPosition(unwrap(positionFromFen(fen)), false);
  return c.evaluate();
};

/** A group of weights to read from a trace: its name, offset and size, and how to name an entry. */
type Group = readonly [name: string, at: number, size: number, key?: (k: number) => string];
const tracer = new WasmCore(traceCoreModule());
/** The trace's non-zero counts of these groups in a position (White minus Black), by `name key`. */
function groupCounts(fen: string, groups: readonly Group[]): Map<string, number> {
  tracer.setWeights(WEIGHTS);
  tracer.setPosition(unwrap(positionFromFen(fen)), false);
  const t = tracer.evaluateTrace();
  const out = new Map<string, number>();
  for (const [name, at, size, key = String] of groups) {
    for (let k = 0; k < size; k++) if (t.coef[at + k] !== 0) out.set(`${name} ${key(k)}`, t.coef[at + k]!);
  }
  return out;
}

test('the evaluation is colour-symmetric (300 WAC positions and their mirror images)', () => {
  for (const fen of fens) assert.equal(evaluate(fen), evaluate(mirror(fen)), fen);
});

test('the trace rebuilds the evaluation from weights and its four sums (src/tune/model.ts)', () => {
  const trace = new WasmCore(traceCoreModule());
  trace.setWeights(WEIGHTS);
  let checked = 0;
  let danger = 0;
  let complex = 0;
  const S = new Float64Array(8);
  for (const fen of fens) {
    trace.setPosition(unwrap(positionFromFen(fen)), false);
    const t = trace.evaluateTrace();
    if (t.special) continue;
    S.fill(0);
    for (let sum = 0; sum < 4; sum++) {
      for (let i = 0; i < NPAIRS; i++) {
        S[2 * sum] += WEIGHTS[2 * i]! * t.coef[sum * NPAIRS + i]!;
        S[2 * sum + 1] += WEIGHTS[2 * i + 1]! * t.coef[sum * NPAIRS + i]!;
      }
    }
    if (S[2]! > 0 || S[4]! > 0) danger++;
    if (S[7]! !== 0) complex++;
    // The scale the engine used is the one for the side the endgame half favours.
    const white = exactOfSums(S, t.phase, t.scale, t.scale);
    assert.equal(white, t.white, fen);
    assert.equal(fen.split(' ')[1] === 'w' ? t.white : 0 - t.white, evaluate(fen), fen);
    checked++;
  }
  assert.ok(checked > 250);
  assert.ok(danger > 20, `king danger in ${danger} positions`);
  assert.ok(complex > 200, `complexity in ${complex} positions`);
});

test('material + PST kept incrementally equals the sum from scratch along random games; the phase is wdl.ts gamePhase', () => {
  let seed = 99;
  const rnd = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
  for (const fen of fens.slice(0, 40)) {
    const pos = unwrap(positionFromFen(fen));
    core.setPosition(pos, false);
    let psqt = core.psqtFromScratch();
    for (let ply = 0; ply < 60; ply++) {
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      const m = moves[rnd(moves.length)]!;
      psqt += core.psqtDelta(m);
      pos.play(m);
      core.setPosition(pos, false);
      assert.equal(psqt, core.psqtFromScratch(), `${fen} after ${ply + 1} plies`);
      assert.equal(core.evaluateWith(psqt), core.evaluate());
      assert.equal(core.materialPhase(), gamePhase(pos));
    }
  }
});

test('KPK: known wins and draws from the bitbase', () => {
  // [fen, white to move wins?]
  const cases: [string, boolean][] = [
    ['k7/8/8/8/8/8/P7/K7 w - - 0 1', false], // rook pawn, defender in the corner
    ['8/4P3/4K3/8/8/8/8/k7 w - - 0 1', true], // pawn on the 7th, escorted
    ['4k3/8/4K3/4P3/8/8/8/8 b - - 0 1', true], // king on the 6th in front of its pawn
    ['4k3/8/4K3/4P3/8/8/8/8 w - - 0 1', true],
    ['8/8/8/8/8/8/3kP3/7K b - - 0 1', false], // the pawn falls
    ['4k3/8/8/4P3/4K3/8/8/8 b - - 0 1', false], // Black reaches e7 first and keeps the opposition
    ['4k3/4P3/4K3/8/8/8/8/8 b - - 0 1', false], // stalemate
  ];
  for (const [fen, wins] of cases) assert.equal(evaluate(fen) === 0, !wins, `${fen}: a draw evaluates to 0, a win does not`);
});

test('KBNK drives the lone king to a corner of the bishop colour', () => {
  const right = evaluate('7k/8/5K2/8/8/8/8/4BN2 w - - 0 1'); // h8 is dark, bishop on e1 (dark)
  const wrong = evaluate('k7/8/2K5/8/8/8/8/4BN2 w - - 0 1'); // a8 is light
  const centre = evaluate('8/8/8/4k3/8/8/8/K3BN2 w - - 0 1');
  // From the wrong corner the king must be driven along the edge, so that is worth less than the centre.
  assert.ok(right > centre && centre > wrong, `${right} > ${centre} > ${wrong}`);
  assert.ok(centre > 5000, 'a known win');
});

test('drawish material is scaled towards zero', () => {
  const krkb = evaluate('8/8/3k4/8/2b5/8/3K4/6R1 w - - 0 1');
  const krk = evaluate('8/8/3k4/8/8/8/3K4/6R1 w - - 0 1');
  assert.ok(Math.abs(krkb) < 100 && krk > 5000, `KRKB ${krkb}, KRK ${krk}`);
  assert.equal(evaluate('8/8/3k4/8/8/8/3K4/5NN1 w - - 0 1'), 0, 'KNNK');
  const opposite = evaluate('4k3/8/4b3/1p6/1P1P1P2/2P5/3B4/4K3 w - - 0 1');
  const same = evaluate('4k3/8/3b4/1p6/1P1P1P2/2P5/3B4/4K3 w - - 0 1');
  assert.ok(Math.abs(opposite) < Math.abs(same), `opposite bishops ${opposite}, same colour ${same}`);
});

test('the bishop pair: a side with two bishops against one gets the pair weight', () => {
  const trace = new WasmCore(traceCoreModule());
  const traceOf = (fen: string): ReturnType<WasmCore['evaluateTrace']> => {
    trace.setPosition(unwrap(positionFromFen(fen)), false);
    return trace.evaluateTrace();
  };
  // Two bishops against one (a bishop short), and the same with colours swapped.
  const white = 'r1bqk2r/ppp2ppp/2n2n2/3pp3/3PP3/2NB1N2/PPP2PPP/R1BQK2R w KQkq - 0 1';
  [white, mirror(white)].forEach((fen, i) => {
    const sign = i === 0 ? 1 : -1;
    trace.setWeights(WEIGHTS);
    assert.equal(traceOf(fen).coef[P_BISHOP_PAIR], sign, fen);
    const before = traceOf(fen).white;
    try {
      WEIGHTS[2 * P_BISHOP_PAIR] += 100;
      WEIGHTS[2 * P_BISHOP_PAIR + 1] += 100;
      applyWeights();
      trace.setWeights(WEIGHTS);
      trace.clearPawnHash();
      // +100 in both halves moves the (tapered, unscaled) evaluation by 100 toward the side with the pair.
      assert.equal(traceOf(fen).white - before, 100 * sign, fen);
    } finally {
      resetWeights();
      trace.setWeights(WEIGHTS);
      trace.clearPawnHash();
    }
  });
  assert.equal(traceOf('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1').coef[P_BISHOP_PAIR], 0, 'both sides have the pair');
  assert.equal(traceOf('4k3/8/3b4/8/8/3B4/8/4K3 w - - 0 1').coef[P_BISHOP_PAIR], 0, 'neither side has the pair');
});

test('king shelter and storm by file: each side counts its king file and the two beside it, by ranks from the king', () => {
  const coefs = (fen: string): Map<string, number> => groupCounts(fen, [
    ['shelter', P_KING_SHELTER_FILE, 128, (k) => `${k >> 6} ${(k >> 3) & 7} ${k & 7}`],
    ['storm', P_KING_STORM_FILE, 64, (k) => `${k >> 5} ${(k >> 3) & 3} ${k & 7}`],
  ]);
  // White: Kg1, pawns f2 g3 h2, Black's g4 rammed against g3 (blocked). Black: Kb8, pawns a7 b7 c6.
  // Keys: shelter [on the king's file] [file] [ranks from the king]; storm [blocked] [file from the edge] [ranks].
  const fen = '1k6/pp6/2p5/8/6p1/6P1/5P1P/6K1 w - - 0 1';
  const expected = new Map<string, number>([
    ['shelter 0 5 1', 1], ['shelter 1 6 2', 1], ['shelter 0 7 1', 1], // f2, g3 (the king's file), h2
    ['shelter 0 0 1', -1], ['shelter 1 1 1', -1], ['shelter 0 2 2', -1], // a7, b7 (the king's file), c6
    ['storm 1 1 3', 1], // g4, three ranks up, blocked by g3
    ['storm 0 0 7', 1 - 1], ['storm 0 2 7', 1 - 1], // no enemy pawn on the h and f files, nor on a and c
    ['storm 0 1 7', -1], // none on b
  ].filter(([, v]) => v !== 0) as [string, number][]);
  assert.deepEqual(coefs(fen), expected);
  // Colours swapped: every count changes sign.
  assert.deepEqual(coefs(mirror(fen)), new Map([...expected].map(([k, v]) => [k, -v])));
  // A weight moves the evaluation by its value, tapered by the phase (a pawn ending: the endgame half).
  const before = evaluate(fen);
  try {
    WEIGHTS[2 * (P_KING_STORM_FILE + 32 + 8 + 3) + 1] -= 40;
    applyWeights();
    core.setWeights(WEIGHTS);
    core.clearPawnHash();
    assert.equal(evaluate(fen) - before, -40);
  } finally {
    resetWeights();
    core.setWeights(WEIGHTS);
    core.clearPawnHash();
  }
  assert.equal(evaluate(fen), before);
});

test('pawn shapes: isolated and stacked pawns by file, backward ones by rank, connected ones by square', () => {
  const coefs = (fen: string): Map<string, number> => groupCounts(fen, [
    ['isolated', P_ISOLATED_FILE, 8],
    ['stacked', P_STACKED_FILE, 16],
    ['backward', P_BACKWARD_RANK, 16],
    ['connected', P_CONNECTED_SQUARE, 32],
  ]);
  // White: a2 and h2 isolated; c2 and c3 stacked, each able to unstack (a black pawn stops them
  // and d4 stands beside); c3 backward on an open file (b5 attacks its stop square c4, and no
  // pawn behind it on b or d); d4 defended by c3. Black: b5 isolated; g6 defended by f7.
  const fen = '6k1/5p2/6p1/1p6/3P4/2P5/P1P4P/6K1 w - - 0 1';
  const expected = new Map<string, number>([
    ['isolated 0', 1], ['isolated 7', 1], ['isolated 1', -1],
    ['stacked 10', 2], // [may unstack] * 8 + file c
    ['backward 10', 1], // [open] * 8 + relative rank 2
    ['connected 15', 1], ['connected 9', -1], // rank * 4 + file from the edge: d4 (3, 3), g6 (2, 1)
  ]);
  assert.deepEqual(coefs(fen), expected);
  // Colours swapped: every count changes sign.
  assert.deepEqual(coefs(mirror(fen)), new Map([...expected].map(([k, v]) => [k, -v])));
  // Without d4 and with Black's only stopper c6 on their own file, the stacked pair cannot unstack.
  assert.equal(coefs('6k1/5p2/2p3p1/8/8/2P5/P1P4P/6K1 w - - 0 1').get('stacked 2'), 2);
  // A weight moves the evaluation by its value times the count (a pawn ending: the endgame half).
  const before = evaluate(fen);
  try {
    WEIGHTS[2 * (P_STACKED_FILE + 10) + 1] -= 30;
    applyWeights();
    core.setWeights(WEIGHTS);
    core.clearPawnHash();
    assert.equal(evaluate(fen) - before, -60);
  } finally {
    resetWeights();
    core.setWeights(WEIGHTS);
    core.clearPawnHash();
  }
  assert.equal(evaluate(fen), before);
});

test('outposts by piece, edge file and defence: knights and bishops on ranks 4 to 6 out of the enemy pawns\' reach', () => {
  const coefs = (fen: string): Map<string, number> => groupCounts(fen, [['outpost', P_OUTPOST_SHAPE, 8]]);
  // Keys: [bishop] * 4 + [a or h file] * 2 + [defended]. White's Nd5 is defended by e4, Ba5 on
  // the edge is not; Black's Nc4 is not defended. A white pawn on b2 could still reach b3 and
  // attack c4: that knight is then no outpost.
  const fen = '6k1/6pp/8/B2N4/2n1P3/8/8/6K1 w - - 0 1';
  const expected = new Map([['outpost 1', 1], ['outpost 6', 1], ['outpost 0', -1]]);
  assert.deepEqual(coefs(fen), expected);
  assert.deepEqual(coefs(mirror(fen)), new Map([...expected].map(([k, v]) => [k, -v])));
  assert.deepEqual(coefs('6k1/6pp/8/B2N4/2n1P3/8/1P6/6K1 w - - 0 1'), new Map([['outpost 1', 1], ['outpost 6', 1]]));
});

/**
 * Space counts computed with chessops' attack tables (an independent implementation): each
 * side's attacked squares and those it attacks twice (its pawns one source, its king one, each
 * piece one), the squares where the enemy has the upper hand and the centre it holds.
 */
function spaceByChessops(fen: string): [number, number, number] {
  const board = opsParseFen(fen).unwrap().board;
  const CENTER_BIG = new SquareSet(0x3c3c0000, 0x00003c3c);
  const side = (color: 'white' | 'black'): { all: SquareSet; two: SquareSet; pawns: SquareSet; own: SquareSet } => {
    let pawns = SquareSet.empty();
    for (const sq of board.pieces(color, 'pawn')) pawns = pawns.union(opsPawnAttacks(color, sq));
    const sources = [pawns, opsKingAttacks(board.kingOf(color)!)];
    for (const role of ['knight', 'bishop', 'rook', 'queen'] as const) {
      for (const sq of board.pieces(color, role)) sources.push(opsAttacks({ color, role }, sq, board.occupied));
    }
    let all = SquareSet.empty();
    let two = SquareSet.empty();
    for (const a of sources) {
      two = two.union(all.intersect(a));
      all = all.union(a);
    }
    return { all, two, pawns, own: board[color] };
  };
  const w = side('white');
  const b = side('black');
  const pieces = board.knight.union(board.bishop).size() + 2 * board.rook.union(board.queen).size();
  const counts = (us: typeof w, them: typeof w): [number, number, number] => {
    const uncontrolled = them.two.intersect(us.all).diff(us.two).diff(us.pawns);
    const centre = pieces > 12 ? us.all.union(us.own).diff(them.all).intersect(CENTER_BIG).size() : 0;
    return [uncontrolled.intersect(board.occupied).size(), uncontrolled.diff(board.occupied).size(), centre];
  };
  const [wp, we, wc] = counts(w, b);
  const [bp, be, bc] = counts(b, w);
  return [wp - bp, we - be, wc - bc];
}

test('space: the counts of every WAC position and its mirror image are those of chessops\' attack maps, and the weights act through them', () => {
  const trace = new WasmCore(traceCoreModule());
  trace.setWeights(WEIGHTS);
  const traced = (fen: string): number[] => {
    trace.setPosition(unwrap(positionFromFen(fen)), false);
    const t = trace.evaluateTrace();
    return [t.coef[P_SPACE_RESTRICT_PIECE]!, t.coef[P_SPACE_RESTRICT_EMPTY]!, t.coef[P_SPACE_CENTER]!];
  };
  const seen = [0, 0, 0];
  for (const fen of fens.flatMap((f) => [f, mirror(f)])) {
    const expected = spaceByChessops(fen);
    assert.deepEqual(traced(fen), expected, fen);
    expected.forEach((v, i) => (seen[i] += v !== 0 ? 1 : 0));
  }
  assert.ok(seen.every((n) => n > 100), `non-zero counts: ${seen.join(', ')}`);
  // With weights, the evaluation moves by them: rebuilt from the trace exactly as the engine sums it.
  const fen = fens[0]!;
  const before = evaluate(fen);
  try {
    for (const [k, mg, eg] of [[P_SPACE_RESTRICT_PIECE, -9, -4], [P_SPACE_RESTRICT_EMPTY, -5, -2], [P_SPACE_CENTER, 6, 1]] as const) {
      WEIGHTS[2 * k] = mg;
      WEIGHTS[2 * k + 1] = eg;
    }
    applyWeights();
    core.setWeights(WEIGHTS);
    trace.setWeights(WEIGHTS);
    trace.setPosition(unwrap(positionFromFen(fen)), false);
    const t = trace.evaluateTrace();
    const S = new Float64Array(8);
    for (let sum = 0; sum < 4; sum++) {
      for (let i = 0; i < NPAIRS; i++) {
        S[2 * sum] += WEIGHTS[2 * i]! * t.coef[sum * NPAIRS + i]!;
        S[2 * sum + 1] += WEIGHTS[2 * i + 1]! * t.coef[sum * NPAIRS + i]!;
      }
    }
    assert.equal(exactOfSums(S, t.phase, t.scale, t.scale), t.white);
    assert.equal(fen.split(' ')[1] === 'w' ? t.white : -t.white, evaluate(fen));
    assert.notEqual(evaluate(fen), before, 'the space weights change this evaluation');
  } finally {
    resetWeights();
    core.setWeights(WEIGHTS);
  }
  assert.equal(evaluate(fen), before);
});

test('other weights pushed in from the table change most evaluations, and the defaults bring them back', () => {
  const c = loadWasmCore();
  const positions = fens.map((f) => unwrap(positionFromFen(f)));
  const before = positions.map((p) => (c.setPosition(p, false), c.evaluate()));
  // Other weights: every value of the defaults moved by up to ±20%.
  const json = weightsToJson();
  let seed = 5;
  for (const v of Object.values(json)) for (const pair of v) for (const h of [0, 1]) pair[h] = Math.round(pair[h]! * (0.8 + ((seed = (seed * 16807) % 2147483647) % 400) / 1000));
  try {
    weightsFromJson(json);
    c.setWeights(WEIGHTS);
    c.clearPawnHash(); // it holds pawn scores made with the old weights, as the engine knows (newGame)
    const changed = positions.filter((p, i) => (c.setPosition(p, false), c.evaluate() !== before[i])).length;
    assert.ok(changed > positions.length / 2, `other weights change most evaluations (${changed})`);
  } finally {
    resetWeights();
  }
  c.setWeights(WEIGHTS);
  c.clearPawnHash();
  positions.forEach((p, i) => {
    c.setPosition(p, false);
    assert.equal(c.evaluate(), before[i]);
  });
  assert.throws(() => c.setWeights(new Int32Array(3)), /expected \d+ weights, got 3/);
});

test('checked build: the release build values on 40 real games, without a bad index', async () => {
  const checked = loadWasmCore(true);
  let games = 0;
  let positions = 0;
  const same = (pos: Position): void => {
    core.setPosition(pos, false);
    checked.setPosition(pos, false);
    assert.equal(checked.evaluate(), core.evaluate(), `game ${games + 1} ply ${pos.ply}`);
    positions++;
  };
  await readPgn(new URL('games/pgnmentor_players_sample2000.pgn.gz', DATA).pathname, {
    endTags: () => games < 40,
    move: (pos) => same(pos),
    endGame: () => void games++,
  });
  assert.ok(games >= 40 && positions > 2000, `${games} games, ${positions} positions`);
});
