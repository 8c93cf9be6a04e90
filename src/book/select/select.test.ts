import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RichMove } from '../rich/types.js';
import { avoidedMoves, choose, defaultPolicy, explainPolicy, parsePolicy, PolicyError, POLICY_OPTIONS, seededRandom, type BookPolicyConfig } from './index.js';

/** A rich move from fixed W/D/L, own W/D/L and a user value (-1 unset). */
function rm(move: number, fixed: [number, number, number], own: [number, number, number] = [0, 0, 0], userValue = -1, postBook = false, evalCp = 0): RichMove {
  return { move, wins: fixed[0], draws: fixed[1], losses: fixed[2], avgElo: 0, ratedGames: 0, dynWins: own[0], dynDraws: own[1], dynLosses: own[2], userValue, postBook, evalCp };
}

/** W/D/L (no draws) for `games` games at about `pct` Win%. */
const at = (games: number, pct: number): [number, number, number] => {
  const w = Math.round((games * pct) / 100);
  return [w, 0, games - w];
};

/**
 * Seed 001's example after 1.e4 (moves numbered 1..11 in the table's order). Fixed games and
 * Win% as printed; the 5-game and 2-game rows cannot hit the printed Win% exactly and land on
 * the same side of every limit (b6: 1 win of 5 = 20% < 33). c5/Nf6/d5/Nc6 are user-set (75, 0,
 * 15, 0), which is what the table's "127 games" rows are.
 */
const E5 = 1, C5 = 2, E6 = 3, C6 = 4, NF6 = 5, D5 = 6, D6 = 7, NC6 = 8, B6 = 9, G6 = 10, A6 = 11;
const TERRA_EXAMPLE: RichMove[] = [
  rm(E5, at(5783, 43), [3, 0, 2]),
  rm(C5, at(5230, 48), [0, 0, 0], 75),
  rm(E6, at(1329, 36), [0, 0, 1]),
  rm(C6, at(748, 26)),
  rm(NF6, at(276, 27), [0, 0, 0], 0),
  rm(D5, at(43, 29), [0, 0, 0], 15),
  rm(D6, at(21, 34)),
  rm(NC6, at(6, 48), [0, 0, 0], 0),
  rm(B6, at(5, 27)),
  rm(G6, [0, 0, 2]),
  rm(A6, [2, 0, 0]),
];
const EXAMPLE_SETTINGS = { policy: 'terra', RandomType: 1, BookLimit: 33, MinTerraGames: 3, TerraLimit: 40, MinBookGames: 4 };

/** A scripted `random` that fails the test if the procedure draws more or fewer numbers. */
function script(values: number[]): { random: () => number; done: () => void } {
  let k = 0;
  return {
    random: () => {
      assert.ok(k < values.length, `drew more than the ${values.length} scripted numbers`);
      return values[k++]!;
    },
    done: () => assert.equal(k, values.length, 'not every scripted number was drawn'),
  };
}

const prob = (rows: ReturnType<typeof explainPolicy>, move: number): number => rows.find((r) => r.move === move)!.probability;

test('Terra example: which moves are in play, their values and the group probability', () => {
  const rows = explainPolicy(parsePolicy(EXAMPLE_SETTINGS), TERRA_EXAMPLE);
  // Statistics group: e5 60 (own Win%), e6 63 = 100·1329/2107, d6 1 = max(1, 100·21/2107); sum 124.
  // User-set group: c5 75, d5 15; P = 1 − 0.25·0.85 = 0.7875 by seed 001's formula.
  const pUser = 1 - 0.25 * 0.85;
  const expected: [number, number][] = [
    [E5, ((1 - pUser) * 60) / 124],
    [C5, (pUser * 75) / 90],
    [E6, ((1 - pUser) * 63) / 124],
    [C6, 0],
    [NF6, 0],
    [D5, (pUser * 15) / 90],
    [D6, ((1 - pUser) * 1) / 124],
    [NC6, 0],
    [B6, 0],
    [G6, 0],
    [A6, 0],
  ];
  for (const [move, p] of expected) assert.ok(Math.abs(prob(rows, move) - p) < 1e-12, `move ${move}: ${prob(rows, move)} vs ${p}`);
  const reason = (m: number): string => rows.find((r) => r.move === m)!.reason;
  assert.match(reason(C6), /BookLimit 33/);
  assert.match(reason(B6), /BookLimit 33/);
  assert.match(reason(G6), /MinBookGames 4/);
  assert.match(reason(A6), /MinBookGames 4/);
  assert.match(reason(NF6), /never/);
  assert.match(reason(E6), /only 1 own game/);
  assert.match(reason(E6), /1329\/2107/);
  assert.match(reason(E5), /own Win% 60 over 5 games/);
  assert.deepEqual(avoidedMoves(parsePolicy(EXAMPLE_SETTINGS), TERRA_EXAMPLE), [NF6, NC6]);
});

test('Terra example, 1st case: Random(0,100) = 60 takes the user-set group; R = 45, d5 then c5 → c5', () => {
  // Draws: the die, R over the user sum (75 + 15 = 90; the seed writes 85), then the wheel order
  // (0.75 picks index 1 of [c5, d5] = d5 first; the last move needs no draw).
  const s = script([0.6, 45 / 90, 0.75]);
  assert.equal(choose(parsePolicy(EXAMPLE_SETTINGS), TERRA_EXAMPLE, s.random), C5);
  s.done();
});

test('Terra example, 2nd case: Random(0,100) = 70 takes the statistics group; R = 113, e6, d6, e5 → e5', () => {
  // The example's arithmetic gives P = 63.75 (UserGroupPercent reproduces it); its formula 78.75.
  const cfg = parsePolicy({ ...EXAMPLE_SETTINGS, UserGroupPercent: 63.75 });
  const s = script([0.7, 113 / 124, 0.5, 0.75]);
  assert.equal(choose(cfg, TERRA_EXAMPLE, s.random), E5);
  s.done();
  // Stopping one step earlier: R = 63.5 is passed by e6 alone (63 + 1 = 64 > 63.5 after d6).
  const s2 = script([0.7, 62 / 124, 0.5]);
  assert.equal(choose(cfg, TERRA_EXAMPLE, s2.random), E6);
  s2.done();
});

test("Terra's formula P = 1 − Π(100 − v)/100: a die of 70 still takes the user-set group, 80 does not", () => {
  const cfg = parsePolicy(EXAMPLE_SETTINGS);
  const user = script([0.7, 80 / 90, 0.75]);
  assert.equal(choose(cfg, TERRA_EXAMPLE, user.random), C5);
  user.done();
  const stats = script([0.8, 0.2, 0]);
  assert.equal(choose(cfg, TERRA_EXAMPLE, stats.random), E5);
  stats.done();
});

test('Terra: 100 = always, among several a uniform pick, regardless of RandomType', () => {
  for (const randomType of [0, 1, 2, 3]) {
    const moves = [...TERRA_EXAMPLE.slice(0, 3), rm(20, [1, 0, 9], [0, 0, 0], 100), rm(21, [0, 0, 1], [0, 0, 0], 100)];
    const rows = explainPolicy(parsePolicy({ ...EXAMPLE_SETTINGS, RandomType: randomType }), moves);
    assert.deepEqual(rows.map((r) => r.probability), [0, 0, 0, 0.5, 0.5]);
    assert.equal(choose(parsePolicy({ RandomType: randomType }), moves, script([0.7]).random), 21);
    assert.equal(choose(parsePolicy({ RandomType: randomType }), moves.slice(0, 4), script([]).random), 20);
  }
});

test('Terra: the user-set group probability and its edge cases', () => {
  const only = [rm(1, [0, 0, 0], [0, 0, 0], 15), rm(2, [0, 0, 3], [0, 0, 0], 0)];
  // Only the user-set group has moves: it is taken without a die.
  assert.deepEqual(explainPolicy(defaultPolicy(), only).map((r) => r.probability), [1, 0]);
  assert.equal(choose(defaultPolicy(), only, script([0.99]).random), 1);
  for (const [percent, pUser] of [[0, 0], [100, 1], [25, 0.25], [-1, 1 - 0.85 * 0.4]] as const) {
    const moves = [rm(1, [0, 0, 0], [0, 0, 0], 15), rm(2, [0, 0, 0], [0, 0, 0], 60), rm(3, [50, 0, 50])];
    const rows = explainPolicy(parsePolicy({ UserGroupPercent: percent }), moves);
    assert.ok(Math.abs(rows[0]!.probability - (pUser * 15) / 75) < 1e-12);
    assert.ok(Math.abs(rows[1]!.probability - (pUser * 60) / 75) < 1e-12);
    assert.ok(Math.abs(rows[2]!.probability - (1 - pUser)) < 1e-12);
  }
});

test('Terra: RandomType 0, 2 and 3, the avoid list from TerraLimit, MinTerraGames at its bound', () => {
  const moves = [rm(1, [40, 20, 40], [2, 0, 1]), rm(2, [500, 0, 400]), rm(3, [60, 0, 40]), rm(4, [100, 0, 0], [1, 1, 2])];
  const cfg = (randomType: number): BookPolicyConfig => parsePolicy({ RandomType: randomType, MinTerraGames: 3, TerraLimit: 40, BookLimit: 33, MinBookGames: 4 });
  // Move 1: 3 own games (= MinTerraGames) at 66.67% → value 67. Move 4: 4 own games at 37.5% ≤ 40 → avoid list.
  assert.deepEqual(avoidedMoves(cfg(1), moves), [4]);
  // RandomType 2: Win% values 67, 56 (500/900), 60.
  const r2 = explainPolicy(cfg(2), moves).map((r) => r.probability);
  const s2 = 67 + 56 + 60;
  assert.deepEqual(r2.map((p) => Math.round(p * 1e9)), [67 / s2, 56 / s2, 60 / s2, 0].map((p) => Math.round(p * 1e9)));
  // RandomType 0: best Win% value → move 1 (67). RandomType 3: best of own 67 vs frequency 90 (900/1000) and 10 → move 2.
  assert.deepEqual(explainPolicy(cfg(0), moves).map((r) => r.probability), [1, 0, 0, 0]);
  assert.deepEqual(explainPolicy(cfg(3), moves).map((r) => r.probability), [0, 1, 0, 0]);
  assert.equal(choose(cfg(3), moves, script([]).random), 2);
  // MinTerraGames 5: move 1 falls back to fixed statistics (50% Win%), move 4 too (100 games, 100%).
  const fallback = explainPolicy(parsePolicy({ RandomType: 0, MinTerraGames: 5 }), moves);
  assert.deepEqual(fallback.map((r) => r.probability), [0, 0, 0, 1]);
});

test('Terra: the PostBook answers only when the book has nothing to play', () => {
  const post = [rm(7, [0, 0, 0], [2, 1, 0], -1, true, 30), rm(8, [0, 0, 0], [3, 0, 0], -1, true, 10), rm(9, [0, 0, 0], [0, 1, 4], -1, true), rm(10, [0, 0, 0], [1, 0, 0], -1, true)];
  const rows = explainPolicy(defaultPolicy(), post);
  assert.deepEqual(rows.map((r) => r.probability), [0, 1, 0, 0]);
  assert.match(rows[2]!.reason, /avoid list/);
  assert.match(rows[3]!.reason, /ignored/);
  assert.equal(choose(defaultPolicy(), post, script([]).random), 8);
  assert.deepEqual(avoidedMoves(defaultPolicy(), post), [9]);
  assert.equal(choose(parsePolicy({ PostBook: false }), post, script([]).random), 0);
  const withBook = [rm(1, [10, 0, 0]), ...post];
  assert.deepEqual(explainPolicy(defaultPolicy(), withBook).map((r) => r.probability), [1, 0, 0, 0, 0]);
});

/** Weights 2W+D: 200, 101, 50, 1 (a 0.28% share), 0; plus a user-set "never". */
const WEIGHTED: RichMove[] = [rm(1, [100, 0, 10]), rm(2, [50, 1, 7]), rm(3, [20, 10, 30]), rm(4, [0, 1, 0]), rm(5, [0, 0, 9]), rm(6, [300, 0, 0], [0, 0, 0], 0)];

test('PolyGlot best and weighted: shares in 1/10000 over every entry, BookThreshold in per mille', () => {
  // Σw = 1000·(200+101+50+1+0+600) = 952000; shares trunc(10000·w/Σw): 2100, 1060, 525, 10, 0, 6302.
  const weighted = explainPolicy(parsePolicy({ policy: 'weighted' }), WEIGHTED);
  const sum = 2100 + 1060 + 525;
  assert.deepEqual(weighted.map((r) => r.probability), [2100 / sum, 1060 / sum, 525 / sum, 0, 0, 0]);
  assert.match(weighted[3]!.reason, /not above BookThreshold 5‰/);
  assert.match(weighted[5]!.reason, /never/);
  // BookThreshold 0 admits the 0.1% move.
  assert.ok(prob(explainPolicy(parsePolicy({ policy: 'polyglot-weighted', BookTreshold: 0 }), WEIGHTED), 4) > 0);
  // BookThreshold 60: only share 2100 (> 600) and 1060 remain.
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'weighted', BookTreshold: 60 }), WEIGHTED).map((r) => r.inPlay), [true, true, false, false, false, false]);
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'best' }), WEIGHTED).map((r) => r.probability), [1, 0, 0, 0, 0, 0]);
  // The reservoir pick draws once per candidate: rand_int(2100) < 2100 → 1; rand_int(3160) < 1060 at 0.3 → 2; rand_int(3685) < 525 at 0.2? 737 ≥ 525 → stays 2.
  assert.equal(choose(parsePolicy({ policy: 'weighted' }), WEIGHTED, script([0.9, 0.3, 0.2]).random), 2);
  // Without user values, the user-set "never" move is an ordinary heavy entry.
  assert.equal(choose(parsePolicy({ policy: 'best', BookUserValues: false }), WEIGHTED, script([]).random), 6);
});

test('PolyGlot BookLearn scales weights by (2W+D+4)/(2L+D+4) of the own games', () => {
  const moves = [rm(1, [10, 0, 0], [0, 0, 6]), rm(2, [5, 0, 0], [3, 0, 0])];
  // w1 = 20000·4/16 = 5000, w2 = 10000·10/4 = 25000 → shares 1666, 8333.
  const rows = explainPolicy(parsePolicy({ policy: 'weighted', BookLearnWeights: true }), moves);
  assert.deepEqual(rows.map((r) => r.probability), [1666 / 9999, 8333 / 9999]);
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'best', BookLearnWeights: true }), moves).map((r) => r.probability), [0, 1]);
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'best' }), moves).map((r) => r.probability), [1, 0]);
});

test('GNU Chess best, worst and random on raw weights; uniform', () => {
  const ties = [rm(1, [1, 1, 0]), rm(2, [5, 0, 0]), rm(3, [1, 1, 5]), rm(4, [5, 0, 0]), rm(5, [0, 0, 4])];
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'gnu-best' }), ties).map((r) => r.probability), [0, 1, 0, 0, 0]);
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'worst' }), ties).map((r) => r.probability), [1, 0, 0, 0, 0]);
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'gnu-random' }), ties).map((r) => r.probability), [3 / 26, 10 / 26, 3 / 26, 10 / 26, 0]);
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'uniform' }), ties).map((r) => r.probability), [0.25, 0.25, 0.25, 0.25, 0]);
  assert.equal(choose(parsePolicy({ policy: 'worst' }), ties, script([]).random), 1);
  // Moves are taken in export order (weight descending, ties in book order): 2, 4, 1, 3.
  assert.equal(choose(parsePolicy({ policy: 'uniform' }), ties, script([0.6]).random), 1);
  // firstSeen (make-book's creation order) decides ties as the exported .bin orders them.
  const seen = ties.map((m, i) => ({ ...m, firstSeen: 10 - i }));
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'gnu-best' }), seen).map((r) => r.probability), [0, 0, 0, 1, 0]);
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'gnu-worst' }), seen).map((r) => r.probability), [0, 0, 1, 0, 0]);
  assert.equal(choose(parsePolicy({ policy: 'gnu-random' }), [], script([]).random), 0);
  assert.equal(choose(parsePolicy({ policy: 'gnu-best' }), [rm(9, [0, 0, 3])], script([]).random), 0);
});

test('moves with a weight and no games (a Polyglot import): stored weights rule the weight policies, Terra reads them as frequency', () => {
  const imported = [{ ...rm(1, [0, 0, 0]), weight: 30 }, { ...rm(2, [0, 0, 0]), weight: 10 }, { ...rm(3, [0, 0, 0]), weight: 0 }];
  assert.deepEqual(explainPolicy(defaultPolicy(), imported).map((r) => r.probability), [0.75, 0.25, 0]);
  assert.match(explainPolicy(defaultPolicy(), imported)[0]!.reason, /weight 30 only/);
  // RandomType 2 values by Win%, unknown here: counted as even, so the two are alike.
  assert.deepEqual(explainPolicy(parsePolicy({ RandomType: 2 }), imported).map((r) => r.probability), [0.5, 0.5, 0]);
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'gnu-random' }), imported).map((r) => r.probability), [0.75, 0.25, 0]);
  // A make-book weight (halved) wins over 2·wins + draws; a stored 0 beside real games does not.
  const halved = [{ ...rm(1, [40000, 0, 0]), weight: 16384 }, { ...rm(2, [3, 2, 0]), weight: 0 }];
  assert.deepEqual(explainPolicy(parsePolicy({ policy: 'gnu-random' }), halved).map((r) => r.probability), [16384 / 16392, 8 / 16392]);
});

const EMPIRICAL: [string, Record<string, string | number | boolean>, RichMove[]][] = [
  ['terra RandomType 1', EXAMPLE_SETTINGS, TERRA_EXAMPLE],
  ['terra RandomType 2, UserGroupPercent 30', { ...EXAMPLE_SETTINGS, RandomType: 2, UserGroupPercent: 30 }, TERRA_EXAMPLE],
  ['terra RandomType 0', { ...EXAMPLE_SETTINGS, RandomType: 0 }, TERRA_EXAMPLE],
  ['polyglot-weighted', { policy: 'polyglot-weighted' }, WEIGHTED],
  ['gnu-random', { policy: 'gnu-random' }, WEIGHTED],
  ['uniform', { policy: 'uniform' }, WEIGHTED],
  ['always (two 100s)', {}, [rm(1, [9, 0, 0], [0, 0, 0], 100), rm(2, [0, 0, 1], [0, 0, 0], 100), rm(3, [50, 0, 0])]],
];

for (const [name, opts, moves] of EMPIRICAL) {
  test(`choose's frequencies over 40000 seeded draws match explainPolicy: ${name}`, () => {
    const cfg = parsePolicy(opts);
    const rows = explainPolicy(cfg, moves);
    const random = seededRandom(12345);
    const n = 40000;
    const counts = new Map<number, number>();
    for (let k = 0; k < n; k++) {
      const m = choose(cfg, moves, random);
      counts.set(m, (counts.get(m) ?? 0) + 1);
    }
    for (const r of rows) {
      const f = (counts.get(r.move) ?? 0) / n;
      // Five standard deviations of a binomial proportion; a move out of play must never appear.
      const tol = 5 * Math.sqrt((r.probability * (1 - r.probability)) / n) + 1e-9;
      assert.ok(Math.abs(f - r.probability) <= tol, `${name}: move ${r.move} drawn ${f}, explained ${r.probability}`);
    }
    assert.ok(!counts.has(0));
  });
}

test('choose is deterministic under a seeded generator', () => {
  const run = (seed: number): number[] => {
    const random = seededRandom(seed);
    return Array.from({ length: 60 }, () => choose(parsePolicy(EXAMPLE_SETTINGS), TERRA_EXAMPLE, random));
  };
  assert.deepEqual(run(7), run(7));
  assert.notDeepEqual(run(7), run(8));
});

test('parsePolicy: names in any spelling, aliases, and clear errors for bad values', () => {
  const c = parsePolicy({ 'book-limit': '20', MINBOOKGAMES: 7, random_type: '2', policy: 'Worst', 'post-book': 'off', fen: 'ignored', moves: undefined });
  assert.equal(c.bookLimit, 20);
  assert.equal(c.minBookGames, 7);
  assert.equal(c.randomType, 2);
  assert.equal(c.policy, 'gnu-worst');
  assert.equal(c.postBook, false);
  assert.deepEqual(parsePolicy({}), defaultPolicy());
  const bad: [Record<string, string | number | boolean>, RegExp][] = [
    [{ BookLimit: 'lots' }, /BookLimit: "lots" is not a number \(0\.\.100\)/],
    [{ BookLimit: 101 }, /BookLimit: 101 is out of range/],
    [{ RandomType: 1.5 }, /RandomType: 1.5 is not a whole number/],
    [{ RandomType: 4 }, /RandomType: 4 is out of range \(0\.\.3\)/],
    [{ policy: 'fastest' }, /BookPolicy: "fastest" is not a policy/],
    [{ PostBook: 'maybe' }, /PostBook: "maybe" is not a boolean/],
    [{ UserGroupPercent: -0.5 }, /UserGroupPercent: -0.5 must be -1/],
    [{ MinTerraGames: 0 }, /MinTerraGames: 0 is out of range/],
  ];
  for (const [opts, re] of bad) {
    assert.throws(() => parsePolicy(opts), (e: unknown) => e instanceof PolicyError && re.test(e.message), JSON.stringify(opts));
  }
  // Every option's default round-trips through its own name.
  for (const o of POLICY_OPTIONS) assert.deepEqual(parsePolicy({ [o.name]: String(defaultPolicy()[o.key]) }), defaultPolicy());
});

test('MinAvgElo: moves of weaker or unrated games are out for every policy; user-set, PostBook and imported moves are not judged', () => {
  const rated = (m: RichMove, avgElo: number, ratedGames: number): RichMove => ({ ...m, avgElo, ratedGames });
  const moves: RichMove[] = [
    rated(rm(1, [30, 10, 10]), 2610, 50),
    rated(rm(2, [60, 20, 20]), 2250, 100),
    rm(3, [8, 2, 0]), // games without ratings
    rated(rm(4, [1, 0, 5], [0, 0, 0], 75), 1900, 6),
    { ...rm(5, [0, 0, 0]), weight: 40 }, // known only by an imported weight
    rated(rm(6, [20, 5, 5]), 2400, 30),
  ];
  for (const policy of ['polyglot-weighted', 'gnu-random', 'uniform', 'terra']) {
    const off = explainPolicy(parsePolicy({ policy, BookUserValues: 'off' }), moves);
    const on = explainPolicy(parsePolicy({ policy, BookUserValues: 'off', 'min-avg-elo': 2400 }), moves);
    assert.equal(prob(on, 2), 0, policy);
    assert.equal(prob(on, 3), 0, policy);
    assert.match(on.find((r) => r.move === 2)!.reason, /average Elo 2250 < MinAvgElo 2400/);
    assert.match(on.find((r) => r.move === 3)!.reason, /no rated games/);
    if (policy !== 'terra') assert.equal(prob(on, 4), 0, `${policy}: with user values off, the 1900 move is judged by its Elo`);
    assert.ok(prob(off, 2) > 0, `${policy}: the filter is what removes move 2`);
    assert.ok(prob(on, 1) > 0 && prob(on, 6) > 0, `${policy}: 2610 and 2400 pass`);
    assert.ok(Math.abs(on.reduce((s, r) => s + r.probability, 0) - 1) < 1e-9, policy);
    // choose follows the explanation: a filtered move is never drawn.
    const random = seededRandom(3);
    const cfg = parsePolicy({ policy, BookUserValues: 'off', MinAvgElo: 2400 });
    for (let k = 0; k < 2000; k++) assert.ok(![2, 3].includes(choose(cfg, moves, random)), policy);
  }
  // Hand-set values outrank the filter: the 1900-rated move set to 75 stays in Terra's user group.
  const terra = explainPolicy(parsePolicy({ policy: 'terra', MinAvgElo: 2400 }), moves);
  assert.ok(prob(terra, 4) > 0);
  assert.equal(prob(explainPolicy(parsePolicy({ policy: 'polyglot-weighted', MinAvgElo: 2400 }), moves), 5) > 0, true);
  // Everything filtered: out of book.
  assert.equal(choose(parsePolicy({ policy: 'uniform', MinAvgElo: 3000 }), moves.slice(0, 3)), 0);
});

test('a forbidden move (book audit) is out of play for every policy, whatever its statistics or user value, and on the avoid list', () => {
  const best = { ...rm(1, [900, 50, 50]), forbidden: true };
  const always = { ...rm(2, [10, 0, 0], [0, 0, 0], 100), forbidden: true };
  const other = rm(3, [5, 5, 5]);
  const moves: RichMove[] = [best, always, other];
  for (const policy of ['terra', 'polyglot-best', 'polyglot-weighted', 'gnu-best', 'gnu-worst', 'gnu-random', 'uniform']) {
    const config = parsePolicy({ policy, BookLimit: 0, MinBookGames: 0 });
    const rows = explainPolicy(config, moves);
    assert.deepEqual(rows.map((r) => r.probability > 0), [false, false, true], policy);
    assert.match(rows[0]!.reason, /forbidden/, policy);
    const random = seededRandom(5);
    for (let i = 0; i < 50; i++) assert.equal(choose(config, moves, random), 3, policy);
    assert.deepEqual(avoidedMoves(config, moves).filter((m) => m !== 3).sort(), [1, 2], policy);
  }
  // Nothing but forbidden moves: out of book.
  assert.equal(choose(defaultPolicy(), [best, always], seededRandom(1)), 0);
});

test('--explain says "1 game", not "1 games", for a move under MinBookGames', () => {
  const rows = explainPolicy(parsePolicy({ policy: 'terra' }), [rm(1, [10, 0, 0]), rm(2, [1, 0, 0]), rm(3, [2, 0, 0])]);
  assert.equal(rows[1]!.reason, '1 game < MinBookGames 4');
  assert.equal(rows[2]!.reason, '2 games < MinBookGames 4');
});
