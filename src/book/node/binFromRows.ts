/**
 * A Polyglot `.bin` from merged rows (a spilled build's runs, or a book's games replayed to
 * another max-ply): make-book's counters are the rows' raw counts, except in hot positions,
 * where a move passed COUNT_MAX games and make-book halved at moments that depend on the games'
 * order; those are held back, recomputed by replaying the games (halving.ts), and spliced into
 * the key-ordered output. Positions are few enough to keep hot ones in memory; everything else
 * streams through a scratch file.
 */
import { ENTRY_SIZE } from '../polyglot/format.js';
import type { MakeOptions } from '../polyglot/make.js';
import { COUNT_MAX } from '../polyglot/make.js';
import type { RowCursor } from '../rich/finish.js';
import { replayHalving, type GameSource } from '../rich/halving.js';
import { PolyglotEmitter, type PolyglotMove } from '../rich/polyglotOut.js';
import { RunRow } from '../rich/runs.js';
import type { WorkDir } from './workDir.js';
import { AtomicFileSync } from './atomicWrite.js';

interface HeldPosition {
  keyHi: number;
  keyLo: number;
  black: boolean;
  moves: PolyglotMove[];
  stamps: number[];
  maxPly: number;
}

/** Writes the `.bin` of `rows` to `sink` in order; returns the number of entries. */
export function binFromRows(rows: RowCursor, games: GameSource, opts: MakeOptions, work: WorkDir, sink: (bytes: Uint8Array) => void, counts: { unique: number } = { unique: 0 }): number {
  const plain = work.create('plain.bin');
  const emitter = new PolyglotEmitter(opts, (b) => plain.append(b));
  const hot: HeldPosition[] = [];
  const row = new RunRow();
  let have = rows.next(row);
  while (have) {
    const hi = row.keyHi;
    const lo = row.keyLo;
    const p: HeldPosition = { keyHi: hi, keyLo: lo, black: false, moves: [], stamps: [], maxPly: 0 };
    let isHot = false;
    while (have && row.keyHi === hi && row.keyLo === lo) {
      // Rows come by move then cell: add the cells of one move.
      let m = p.moves.length > 0 && p.moves[p.moves.length - 1]!.move === row.move ? p.moves[p.moves.length - 1]! : undefined;
      if (m === undefined) {
        m = { move: row.move, n: 0, sum: 0 };
        p.moves.push(m);
        p.stamps.push(row.stamp);
      }
      m.n += row.occurrences();
      m.sum += row.polyglotSum();
      if (row.weight >= 0) {
        m.weight = Math.min(0xffff, (m.weight ?? 0) + row.weight);
        m.learn = m.learn || row.learn;
      }
      const j = p.moves.length - 1;
      if (row.stamp < p.stamps[j]!) p.stamps[j] = row.stamp;
      if (row.maxPly > p.maxPly) p.maxPly = row.maxPly;
      p.black ||= row.black !== 0;
      if (m.n >= COUNT_MAX) isHot = true;
      have = rows.next(row);
    }
    // make-book's creation order: first seen first.
    const order = p.stamps.map((s, i) => [s, i] as const).sort((a, b) => a[0] - b[0]);
    p.moves = order.map(([, i]) => p.moves[i]!);
    counts.unique += p.moves.length;
    p.stamps = order.map(([s]) => s);
    if (isHot) hot.push(p);
    else emitter.position(hi, lo, p.black, p.moves);
  }
  emitter.flush();
  if (hot.length === 0) {
    const chunk = ENTRY_SIZE << 16;
    for (let o = 0; o < plain.size; o += chunk) sink(plain.read(o, chunk));
    return emitter.kept;
  }
  // The hot positions' counters, replayed; then both streams merged by key.
  const counters = replayHalving(
    hot.map((h) => ({ keyHi: h.keyHi, keyLo: h.keyLo, moves: h.moves.map((m, i) => ({ move: m.move, stamp: h.stamps[i]! })), maxPly: h.maxPly })),
    games,
  );
  const hotBytes: Uint8Array[] = [];
  const hotEmitter = new PolyglotEmitter(opts, (b) => hotBytes.push(b.slice()));
  hot.forEach((h, i) => {
    const c = counters[i]!;
    hotEmitter.position(
      h.keyHi,
      h.keyLo,
      h.black,
      h.moves.map((m, j) => ({ ...m, n: c.n[j]!, sum: c.sum[j]! })),
    );
  });
  hotEmitter.flush();
  const hotAll = Buffer.concat(hotBytes);
  let h = 0;
  const out: Uint8Array[] = [];
  let pending = 0;
  const flush = (): void => {
    if (out.length === 0) return;
    sink(Buffer.concat(out));
    out.length = 0;
    pending = 0;
  };
  const key = (b: Uint8Array, o: number): [number, number] => [((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0, ((b[o + 4]! << 24) | (b[o + 5]! << 16) | (b[o + 6]! << 8) | b[o + 7]!) >>> 0];
  const before = (a: [number, number], b: [number, number]): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  const chunk = ENTRY_SIZE << 16;
  for (let o = 0; o < plain.size; o += chunk) {
    const b = plain.read(o, chunk);
    for (let e = 0; e < b.length; e += ENTRY_SIZE) {
      const k = key(b, e);
      while (h < hotAll.length && before(key(hotAll, h), k)) {
        out.push(hotAll.subarray(h, h + ENTRY_SIZE));
        h += ENTRY_SIZE;
      }
      out.push(b.subarray(e, e + ENTRY_SIZE));
      if (++pending >= 65536) flush();
    }
  }
  if (h < hotAll.length) out.push(hotAll.subarray(h));
  flush();
  return emitter.kept + hotEmitter.kept;
}

/** Writes a `.bin` crash-safely (temporary file, rename) from `fill`, which hands its bytes to the sink; returns entries and bytes. */
export function writeBinAtomic(output: string, fill: (sink: (bytes: Uint8Array) => void) => number): { kept: number; bytes: number } {
  const out = new AtomicFileSync(output);
  let bytes = 0;
  try {
    const kept = fill((b) => {
      out.write(b);
      bytes += b.length;
    });
    out.commit();
    return { kept, bytes };
  } catch (e) {
    out.abort();
    throw e;
  }
}
