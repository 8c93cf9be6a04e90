/**
 * The pieces of a version 2 book on their own: game codes replay real games move for move,
 * runs and position blocks give back what was written, notes round-trip, slots pick the valid
 * newer one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Position } from '../../core/position.js';
import { unwrap } from '../../core/result.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { parsePgn } from '../../pgn/parser.js';
import { Bytes, GAME_RECORD_SIZE, codeBytes, encodeMoves, putGameRecord, readGameRecord, replayCodes, type GameInfo } from './games.js';
import { PlyLog, MOVER_DRAW, MOVER_LOSS, MOVER_UNFINISHED, MOVER_WIN } from './plyLog.js';
import { RunReader, RunRow, RunWriter, compareRows } from './runs.js';
import { RunMerger } from './mergeRuns.js';
import { BlockIndex, BlockReader, PositionWriter, type StoredPosition } from './positions.js';
import { Notes } from './notes.js';
import { SECTION, decodeSlot, encodeSlot, encodeSuperblock, readSuperblock, tbkVersion, type Slot } from './container.js';

const sample = gunzipSync(readFileSync(new URL('../../../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url)));

/** The first `n` games of the sample as core moves. */
function sampleGames(n: number): Uint16Array[] {
  const games: Uint16Array[] = [];
  let cur: number[] = [];
  parsePgn(sample, {
    beginGame() {
      cur = [];
    },
    move(_pos, m) {
      cur.push(m);
      return true;
    },
    endGame() {
      if (games.length < n) games.push(Uint16Array.from(cur));
    },
  });
  return games;
}

/** A tiny seeded generator. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s = (s ^ (s >>> 12)) >>> 0;
    return s / 0x100000000;
  };
}

test('game codes: 2000 real games replay to the same moves, 1.5 bytes a move', () => {
  const games = sampleGames(2000);
  const codes = new Bytes();
  const records = new Uint8Array(games.length * GAME_RECORD_SIZE);
  let moves = 0;
  for (let g = 0; g < games.length; g++) {
    const at = codes.length;
    const n = encodeMoves(games[g]!, 0, games[g]!.length, codes);
    assert.equal(codes.length - at, codeBytes(n));
    const info: GameInfo = { result: g % 4, whiteElo: 2000 + g, blackElo: 60000 + (g % 100), month: 24000 + g, speed: g % 8, fen: g % 2 === 0 };
    putGameRecord(records, g * GAME_RECORD_SIZE, at + 2 ** 33 * (g % 3), n, info);
    moves += games[g]!.length;
  }
  assert.ok(codes.length < moves * 1.51, `${codes.length} bytes for ${moves} moves`);
  const pos = new Position();
  for (let g = 0; g < games.length; g++) {
    const rec = readGameRecord(records, g * GAME_RECORD_SIZE);
    assert.equal(rec.whiteElo, 2000 + g);
    assert.equal(rec.blackElo, 60000 + (g % 100));
    assert.equal(rec.month, 24000 + g);
    assert.equal(rec.result, g % 4);
    assert.equal(rec.speed, g % 8);
    assert.equal(rec.fen, g % 2 === 0);
    unwrap(positionFromFen(STARTING_FEN, pos));
    const got: number[] = [];
    const plies = replayCodes(pos, codes.data, rec.movesOffset - 2 ** 33 * (g % 3), rec.codes, (_p, m) => {
      got.push(m);
      return true;
    });
    assert.equal(plies, games[g]!.length);
    assert.deepEqual(got, [...games[g]!]);
  }
});

test('game codes: under-promotions, en passant and castling of both sides', () => {
  const pgn = '[FEN "4k2r/1P6/8/8/5pP1/8/8/R3K3 b Qk g3 0 1"]\n\n1... fxg3 2. b8=N O-O 3. O-O-O g2 4. Nc6 g1=R 5. Rxg1 *\n';
  const moves: number[] = [];
  let start: Position | undefined;
  parsePgn(pgn, {
    move(pos, m) {
      start ??= pos.clone();
      moves.push(m);
      return true;
    },
    error(e) {
      assert.fail(e.message);
    },
  });
  assert.equal(moves.length, 8);
  const codes = new Bytes();
  const n = encodeMoves(Uint16Array.from(moves), 0, moves.length, codes);
  const pos = start!.clone();
  const got: number[] = [];
  replayCodes(pos, codes.data, 0, n, (_p, m) => (got.push(m), true));
  assert.deepEqual(got, moves);
});

test('runs: rows written in order read back identical, and merging adds equal rows', () => {
  const rand = rng(7);
  const make = (count: number, salt: number): RunRow[] => {
    const rows: RunRow[] = [];
    for (let i = 0; i < count; i++) {
      const r = new RunRow();
      r.keyHi = Math.floor(rand() * 64) * 0x4000000 + (salt & 1);
      r.keyLo = Math.floor(rand() * 0x100000000);
      if (i % 5 === 0 && rows.length > 0) {
        r.keyHi = rows[rows.length - 1]!.keyHi;
        r.keyLo = rows[rows.length - 1]!.keyLo;
      }
      r.move = Math.floor(rand() * 65536);
      r.cell = Math.floor(rand() * 4) * 100;
      r.black = Math.floor(rand() * 2);
      const single = rand() < 0.7;
      if (single) {
        const res = Math.floor(rand() * 4);
        r.wins = res === 0 ? 1 : 0;
        r.draws = res === 1 ? 1 : 0;
        r.losses = res === 2 ? 1 : 0;
        r.unfinished = res === 3 ? 1 : 0;
        r.rated = rand() < 0.5 ? 1 : 0;
        r.ratingSum = r.rated ? 1000 + Math.floor(rand() * 2000) : 0;
        r.stamp = Math.floor(rand() * 1e6) * 65536 + Math.floor(rand() * 300);
        r.maxPly = r.stamp % 65536;
      } else {
        r.wins = Math.floor(rand() * 100000);
        r.draws = Math.floor(rand() * 5);
        r.losses = Math.floor(rand() * 3);
        r.unfinished = 0;
        r.rated = r.wins;
        r.ratingSum = r.wins * 5501;
        r.stamp = Math.floor(rand() * 2 ** 37) * 65536 + 7;
        r.maxPly = 500;
      }
      rows.push(r);
    }
    rows.sort(compareRows);
    // Equal (key, move, cell) would be one row in a real run.
    return rows.filter((r, i) => i === 0 || compareRows(rows[i - 1]!, r) !== 0);
  };
  const a = make(20000, 0);
  const b = make(15000, 1);
  const write = (rows: RunRow[]): Uint8Array => {
    const parts: Uint8Array[] = [];
    const w = new RunWriter((x) => parts.push(x.slice()));
    for (const r of rows) w.write(r);
    w.drain();
    return Buffer.concat(parts);
  };
  const ba = write(a);
  const bb = write(b);
  assert.ok(ba.length < a.length * 20, `${ba.length / a.length} bytes a row`);
  const reader = (bytes: Uint8Array): RunReader => new RunReader((o, n) => bytes.subarray(o, o + n), 0, bytes.length, 'test');
  const back: RunRow[] = [];
  const ra = reader(ba);
  for (let r = new RunRow(); ra.next(r); r = new RunRow()) back.push(r);
  assert.deepEqual(back, a);
  // Merge with b's rows duplicated into a third run: counts double, stamps keep the earliest.
  const merged = new RunMerger([
    { reader: reader(ba), gameOffset: 0 },
    { reader: reader(bb), gameOffset: 0 },
    { reader: reader(bb), gameOffset: 5 },
  ]);
  const out: RunRow[] = [];
  for (let r = new RunRow(); merged.next(r); r = new RunRow()) out.push(r);
  for (let i = 1; i < out.length; i++) assert.ok(compareRows(out[i - 1]!, out[i]!) < 0, 'merged rows ascend');
  const bKeys = new Map(b.map((r) => [`${r.keyHi}:${r.keyLo}:${r.move}:${r.cell}`, r]));
  let doubled = 0;
  for (const r of out) {
    const o = bKeys.get(`${r.keyHi}:${r.keyLo}:${r.move}:${r.cell}`);
    if (o !== undefined && !a.some((x) => compareRows(x, r) === 0)) {
      assert.equal(r.wins, 2 * o.wins);
      assert.equal(r.stamp, o.stamp);
      doubled++;
    }
  }
  assert.ok(doubled > 10000);
});

test('a damaged run is an error, not garbage or a hang', () => {
  const w: Uint8Array[] = [];
  const writer = new RunWriter((x) => w.push(x.slice()));
  const r = new RunRow();
  r.wins = 5;
  r.stamp = 3;
  writer.write(r);
  writer.drain();
  const bytes = Buffer.concat(w);
  const cut = bytes.subarray(0, bytes.length - 1);
  const reader = new RunReader((o, n) => cut.subarray(o, o + n), 0, cut.length, 'cut.run');
  assert.throws(() => reader.next(new RunRow()), /cut\.run: damaged run/);
});

test('ply log: counts, capacity and run order', () => {
  const t = new PlyLog(7);
  assert.ok(t.count(5, 1, 0, 100, 0, MOVER_WIN, 2500, 0, 4));
  assert.ok(t.count(-1, -2, 1, 7, 9, MOVER_UNFINISHED, 0, 3, 1));
  assert.ok(t.count(5, 1, 0, 100, 0, MOVER_DRAW, 0, 1, 0));
  assert.ok(t.count(5, 0, 0, 100, 0, MOVER_WIN, 0, 3, 2));
  assert.ok(t.count(5, 1, 0, 100, 0, MOVER_LOSS, 2400, 2, 3));
  assert.ok(t.count(5, 1, 0, 99, 0, MOVER_WIN, 0, 4, 2));
  assert.ok(t.count(5, 1, 0, 100, 1, MOVER_WIN, 0, 4, 6));
  assert.equal(t.count(6, 1, 0, 99, 0, MOVER_WIN, 0, 4, 2), false, 'full');
  t.sort();
  const rows: RunRow[] = [];
  for (let i = 0; i < t.size; ) {
    const r = new RunRow();
    i = t.rowAt(i, r);
    rows.push(r);
  }
  assert.deepEqual(
    rows.map((r) => [r.keyHi, r.move, r.cell]),
    [
      [0, 100, 0],
      [1, 99, 0],
      [1, 100, 0],
      [1, 100, 1],
      [0xfffffffe, 7, 9],
    ],
  );
  const r = rows[2]!;
  assert.deepEqual([r.wins, r.draws, r.losses, r.rated, r.ratingSum, r.stamp, r.maxPly], [1, 1, 1, 2, 4900, 4, 4], 'summed; the first occurrence is game 0 ply 4');
  assert.equal(rows[4]!.black, 1);
  assert.equal(rows[4]!.unfinished, 1);
  t.clear();
  assert.equal(t.size, 0);
  assert.ok(t.count(6, 1, 0, 99, 0, MOVER_WIN, 0, 4, 2));
});

test('ply log: the sort agrees with a comparison sort on many records, popular keys included', () => {
  const rand = rng(5);
  const n = 200000;
  const t = new PlyLog(n);
  const recs: [number, number, number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    // A few hot keys (long groups), many keys sharing top bits, and spread keys.
    const kind = rand();
    const hi = kind < 0.2 ? 0x12345678 : kind < 0.5 ? (0xabc00000 | Math.floor(rand() * 64)) >>> 0 : Math.floor(rand() * 2 ** 32);
    const lo = kind < 0.2 ? 42 : Math.floor(rand() * 2 ** 32);
    const move = Math.floor(rand() * (kind < 0.2 ? 20 : 4000));
    const cell = Math.floor(rand() * 3);
    recs.push([hi, lo, move, cell, i]);
    t.count(lo | 0, hi | 0, 0, move, cell, MOVER_WIN, 0, i, 1);
  }
  recs.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3] - y[3] || x[4] - y[4]);
  const want: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = recs[i]!;
    const p = recs[i - 1];
    if (p !== undefined && p[0] === x[0] && p[1] === x[1] && p[2] === x[2] && p[3] === x[3]) continue;
    want.push(`${x[0]} ${x[1]} ${x[2]} ${x[3]} ${x[4] * 65536 + 1}`);
  }
  t.sort();
  const got: string[] = [];
  const row = new RunRow();
  let games = 0;
  for (let i = 0; i < t.size; ) {
    i = t.rowAt(i, row);
    games += row.wins;
    got.push(`${row.keyHi} ${row.keyLo} ${row.move} ${row.cell} ${row.stamp}`);
  }
  assert.equal(games, n);
  assert.deepEqual(got, want);
});

test('ply log: the in-place sort keeps every record and orders them, at sizes across its thresholds', () => {
  const rand = rng(23);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const results = [MOVER_WIN, MOVER_DRAW, MOVER_LOSS, MOVER_UNFINISHED];
  // Keys spread over the first radix pass's buckets; all in one bucket of it, so the second pass
  // splits them and groups of equal top bits go by insertion or, past 24 records, by comparison;
  // a handful of keys, so that rows sum many records (equal records included).
  const shapes: Record<string, () => [number, number]> = {
    spread: () => [Math.floor(rand() * 2 ** 32), Math.floor(rand() * 2 ** 32)],
    oneBucket: () => [(0xd5500000 | (Math.floor(rand() * 6) << 10) | Math.floor(rand() * 3)) >>> 0, Math.floor(rand() * 4) * 0x40000001],
    fewKeys: () => pick([[0, 0], [0xffffffff, 1], [0x80000000, 0xffffffff], [0x12345678, 5]] as [number, number][]),
  };
  const word = (x: number) => x >>> 0;
  for (const n of [0, 1, 2, 3, 24, 25, 26, 100, 2047, 2049, 5000, 40000]) {
    for (const [name, key] of Object.entries(shapes)) {
      const t = new PlyLog(n);
      const want = new Map<string, number[]>();
      for (let i = 0; i < n; i++) {
        const [hi, lo] = key();
        const black = hi & 1;
        const move = name === 'fewKeys' ? pick([1, 2, 0xffff]) : Math.floor(rand() * 65536);
        const cell = pick([0, 0, 1, 300000, 0x80000001]);
        const res = pick(results);
        const elo = rand() < 0.3 ? 0 : 1000 + Math.floor(rand() * 2000);
        const game = Math.floor(i / 7);
        const ply = Math.floor(rand() * 300);
        assert.ok(t.count(lo | 0, hi | 0, black, move, cell | 0, res, elo, game, ply));
        const k = `${hi} ${lo} ${move} ${word(cell)}`;
        const w = want.get(k) ?? [black, 0, 0, 0, 0, 0, 0, 0, Infinity];
        w[1 + results.indexOf(res)]!++;
        if (elo > 0) {
          w[5]!++;
          w[6]! += elo;
        }
        w[7] = Math.max(w[7]!, ply);
        w[8] = Math.min(w[8]!, game * 65536 + ply);
        want.set(k, w);
      }
      const before = t.records();
      t.sort();
      const after = t.view();
      const label = `${name}, ${n} records`;
      // The same records (all six words), in order of (key, move, cell) as unsigned numbers.
      const asRows = (a: Int32Array) => Array.from({ length: a.length / 6 }, (_, r) => Array.from(a.subarray(r * 6, r * 6 + 6)).join(' ')).sort();
      assert.deepEqual(asRows(after), asRows(before), `${label}: a permutation`);
      for (let r = 1; r < n; r++) {
        const x = [word(after[r * 6 - 5]!), word(after[r * 6 - 6]!), after[r * 6 - 4]! & 0xffff, word(after[r * 6 - 3]!)];
        const y = [word(after[r * 6 + 1]!), word(after[r * 6]!), after[r * 6 + 2]! & 0xffff, word(after[r * 6 + 3]!)];
        const c = x.findIndex((v, i) => v !== y[i]);
        assert.ok(c === -1 || x[c]! < y[c]!, `${label}: record ${r} out of order`);
      }
      // A row sums its records and keeps their earliest stamp whatever order the sort left them in.
      const row = new RunRow();
      for (let i = 0; i < t.size; ) {
        i = t.rowAt(i, row);
        const k = `${row.keyHi} ${row.keyLo} ${row.move} ${row.cell}`;
        assert.deepEqual([row.black, row.wins, row.draws, row.losses, row.unfinished, row.rated, row.ratingSum, row.maxPly, row.stamp], want.get(k), `${label}: row ${k}`);
        want.delete(k);
      }
      assert.equal(want.size, 0, `${label}: every row read once`);
    }
  }
});

test('position blocks: written positions read back through the index', () => {
  const rand = rng(11);
  const positions: StoredPosition[] = [];
  let hi = 0;
  for (let i = 0; i < 5000; i++) {
    hi += 1 + Math.floor(rand() * 100000);
    const moves = [];
    const k = 1 + Math.floor(rand() * 6);
    for (let j = 0; j < k; j++) {
      const cells = rand() < 0.3 ? [0, 17, 300000].map((cell) => ({ cell, wins: 1, draws: 0, losses: 2, unfinished: 0, rated: 1, ratingSum: 2000 })) : undefined;
      moves.push({ move: Math.floor(rand() * 65536), cell: 0, wins: Math.floor(rand() * 3), draws: Math.floor(rand() * 1e6), losses: 0, unfinished: 1, rated: 3, ratingSum: 7501, ...(cells ? { cells } : {}), ...(j === 0 && i % 7 === 0 ? { weight: 77, learn: 12345 } : {}) });
    }
    positions.push({ keyHi: hi % 0x100000000, keyLo: Math.floor(rand() * 0x100000000), black: rand() < 0.5, maxPly: Math.floor(rand() * 300), moves });
  }
  positions.sort((a, b) => (a.keyHi !== b.keyHi ? a.keyHi - b.keyHi : a.keyLo - b.keyLo));
  const parts: Uint8Array[] = [];
  const w = new PositionWriter((b) => parts.push(b.slice()));
  for (const p of positions) w.write(p);
  const index = new BlockIndex(w.finish());
  const body = Buffer.concat(parts);
  assert.equal(index.validate(body.length), undefined);
  assert.ok(index.count > 10);
  for (const p of positions) {
    const i = index.find(p.keyHi, p.keyLo);
    assert.ok(i >= 0);
    const r = new BlockReader(body.subarray(index.offset[i]!, index.offset[i]! + index.length[i]!), index.firstHi[i]!, index.firstLo[i]!, 'test');
    let found: StoredPosition | undefined;
    while (!r.done) {
      const q = r.next();
      if (q.keyHi === p.keyHi && q.keyLo === p.keyLo) found = q;
    }
    assert.deepEqual(found, p);
  }
  assert.equal(index.find(0, 0), -1);
});

test('notes round-trip, and damaged notes are refused', () => {
  const n = new Notes();
  const a = n.edit(0xffffffff, 1, 300, true);
  a.userValue = 75;
  a.nag = 3;
  a.comment = 'the main line, très bien';
  a.dynWins = 3;
  a.dynLosses = 200;
  const b = n.edit(5, 6, 1, false);
  b.postBook = true;
  b.evalCp = -35;
  b.evalCount = 4;
  b.forbidden = true;
  b.learn = 0xdeadbeef;
  b.audit = { loss: 250, best: 1234, depth: 12, refutation: 'd8g5 e5f7 g5g2' };
  n.edit(5, 6, 2, false); // empty: not written
  const bytes = n.encode();
  const back = Notes.decode(bytes, 'x.tbk');
  assert.deepEqual(back.all(), n.all());
  assert.equal(back.size, 2);
  assert.throws(() => Notes.decode(bytes.subarray(0, bytes.length - 3), 'x.tbk'), /x\.tbk: damaged notes/);
  const bad = bytes.slice();
  bad[0] = 9;
  assert.throws(() => Notes.decode(bad, 'x.tbk'), /x\.tbk: damaged notes/);
});

test('superblock: the valid slot with the higher sequence wins; damage is named', () => {
  const slot = (seq: number): Slot => ({
    seq,
    fileLength: 10000,
    fields: { flags: 1, games: 2 ** 40 + 5, maxPly: 30, minGames: 0, learnedGames: 2, changes: 3, created: 4, modified: 5, splits: 7 },
    sections: [{ id: SECTION.GAMES, crc: 0xffffffff, offset: 4096, length: 5904 }],
  });
  const sb = encodeSuperblock(slot(1));
  assert.equal(tbkVersion(sb), 2);
  const r = readSuperblock(sb, 10000);
  assert.ok(typeof r !== 'string');
  assert.deepEqual(r.slot, slot(1));
  assert.equal(r.which, 'A');
  sb.set(encodeSlot(slot(2)), 1088);
  const r2 = readSuperblock(sb, 10000);
  assert.ok(typeof r2 !== 'string' && r2.which === 'B' && r2.slot.seq === 2);
  sb[1088 + 100] ^= 1; // torn write of slot B
  const r3 = readSuperblock(sb, 10000);
  assert.ok(typeof r3 !== 'string' && r3.which === 'A');
  assert.match(readSuperblock(sb, 9000) as string, /truncated/);
  sb[64 + 5] ^= 1;
  assert.match(readSuperblock(sb, 10000) as string, /no valid slot/);
  assert.equal(typeof decodeSlot(new Uint8Array(1024)), 'string');
  assert.equal(tbkVersion(new TextEncoder().encode('[Event "x"]\n')), undefined);
});
