/**
 * Probe latency of a `.tbk` book read on disk (`openAnyRichBook`, as the engine and `book probe`
 * open it), against PolyglotReader on a `.bin` of the same games held in memory.
 *
 * Positions are taken from the book's own games (random games, plies 0-39), each probed once
 * per pass; a second set is one random legal move off those lines (mostly not in the book: the
 * probe an engine makes when it leaves its book). Three passes (docs/rich-books.md, "Speed"):
 *
 *   - cold, file evicted: the book's pages dropped from the OS page cache (`dd iflag=nocache
 *     count=0`, posix_fadvise DONTNEED on the file, which needs no root and leaves other files
 *     alone), a freshly opened book: every probe's reads go to the device;
 *   - cold, OS cache warm: the file read once beforehand, a freshly opened book: the first probe
 *     of each position, with the book's own caches empty;
 *   - warm: the same positions again on the same book, best of three.
 *
 * The object API (`probe`: an entry object a move) is measured in all three; the typed-array API
 * (`probeMoves` into a reused BookMoves: what the engine's walk of its book and the explorer's
 * replies use) again from a freshly opened book, cold with the OS cache warm and warm.
 *
 * Each pass gives the mean, median and 99th percentile of the wall time of a probe, `cpu`, the
 * processor time per probe (process.cpuUsage over the pass: on a machine busy with other jobs
 * the wall-time mean counts the probes during which the process waited for a core, the
 * processor time does not, nor, cold from the device, the wait for the disk), and `reads`, the
 * pages the probes read from the file per probe (the book's page cache missed them: a system
 * call each, the rest of a probe's pages come from the cache).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { generateLegal } from '../src/core/movegen.js';
import { Position } from '../src/core/position.js';
import { MAX_MOVES } from '../src/core/types.js';
import { PROBE_CACHE_BYTES, openAnyRichBook, type AnyRichBook } from '../src/book/node/openTbk.js';
import { FileReader } from '../src/book/node/tbkFile.js';
import { BookMoves } from '../src/book/rich/bookMoves.js';
import { PolyglotReader } from '../src/book/polyglot/reader.js';
import { replayCodes } from '../src/book/rich/games.js';
import { unwrap } from '../src/core/result.js';

const fmt = (x: number, d = 2): string => (Number.isNaN(x) ? 'n/a' : x.toFixed(d));

/** A deterministic generator (the same positions in every run). */
function lcg(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    return s >>> 0;
  };
}

/** `count` distinct positions of the book's games at plies 0-39, and as many one random move off them. */
function samplePositions(path: string, count: number): { line: Position[]; off: Position[] } {
  const book = openAnyRichBook(path);
  try {
    const v2 = book.v2;
    const games = v2?.gameReader(0);
    if (v2 === undefined || games === undefined || games.count === 0) throw new Error(`${path}: the probe benchmark takes its positions from a version 2 book's games`);
    const rnd = lcg(12345);
    const seen = new Set<string>();
    const line: Position[] = [];
    const off: Position[] = [];
    const buf = new Uint16Array(MAX_MOVES);
    for (let tries = 0; line.length < count && tries < count * 20; tries++) {
      const g = rnd() % games.count;
      const rec = games.record(g);
      const { bytes, offset } = games.codes(g);
      const pos = new Position();
      games.setStart(g, pos);
      const want = rnd() % 40;
      let at: Position | undefined;
      replayCodes(pos, bytes, offset, rec.codes, (p, _m, ply) => {
        if (ply < want) return true;
        at = p.clone();
        return false;
      });
      if (at === undefined) continue;
      const k = `${at.keyHi}:${at.keyLo}`;
      if (seen.has(k)) continue;
      seen.add(k);
      line.push(at);
      const n = generateLegal(at, buf, 0);
      if (n > 0) {
        const q = at.clone();
        q.play(buf[rnd() % n]!);
        const kq = `${q.keyHi}:${q.keyLo}`;
        if (!seen.has(kq)) {
          seen.add(kq);
          off.push(q);
        }
      }
    }
    return { line, off };
  } finally {
    book.close();
  }
}

/** Drops the file's pages from the OS page cache; says how it went. */
function evict(path: string): string {
  const r = spawnSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
  if (r.status !== 0) return 'NOT evicted (dd iflag=nocache failed)';
  const f = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', path], { encoding: 'utf8' });
  return f.status === 0 ? `evicted, ${f.stdout.trim()} bytes resident after` : 'evicted';
}

/** Reads the whole file once, so the OS holds it. */
function warmOs(path: string): void {
  const fd = openSync(path, 'r');
  const chunk = Buffer.allocUnsafe(1 << 22);
  try {
    for (let o = 0; readSync(fd, chunk, 0, chunk.length, o) > 0; o += chunk.length);
  } finally {
    closeSync(fd);
  }
}

interface Stats {
  mean: number;
  /** Processor time (user + system) per probe: what a busy machine's descheduling does not inflate. */
  cpu: number;
  median: number;
  p99: number;
  /** Pages read from the file per probe (NaN: not a file). */
  reads: number;
  moves: number;
}

/** Pages the book's page cache has read from its file so far. */
function pagesRead(book: AnyRichBook | undefined): number {
  const source = book?.v2?.source;
  return source instanceof FileReader ? source.cacheStats.misses : NaN;
}

/** Times one probe per position (µs each). */
function timed(positions: readonly Position[], probe: (p: Position) => number, book?: AnyRichBook): Stats {
  const t = new Float64Array(positions.length);
  let moves = 0;
  let sum = 0;
  const r0 = pagesRead(book);
  const c0 = process.cpuUsage();
  for (let i = 0; i < positions.length; i++) {
    const t0 = performance.now();
    moves += probe(positions[i]!);
    t[i] = (performance.now() - t0) * 1000;
    sum += t[i]!;
  }
  const c = process.cpuUsage(c0);
  t.sort();
  const reads = (pagesRead(book) - r0) / t.length;
  return { mean: sum / t.length, cpu: (c.user + c.system) / t.length, median: t[t.length >> 1]!, p99: t[Math.floor(t.length * 0.99)]!, reads, moves };
}

const show = (s: Stats): string => `${fmt(s.mean).padStart(8)} ${fmt(s.median).padStart(8)} ${fmt(s.p99).padStart(8)} ${fmt(s.cpu).padStart(7)} ${fmt(s.reads).padStart(6)}`;

/** Warm passes: the best of three of each set. */
function warmPasses(line: readonly Position[], off: readonly Position[], probe: (p: Position) => number, book: AnyRichBook): [Stats, Stats] {
  let warm = timed(line, probe, book);
  let warmOff = timed(off, probe, book);
  for (let r = 0; r < 2; r++) {
    const w = timed(line, probe, book);
    if (w.mean < warm.mean) warm = w;
    const wo = timed(off, probe, book);
    if (wo.mean < warmOff.mean) warmOff = wo;
  }
  return [warm, warmOff];
}

/** Measures and prints the probe latency of `tbk` (and of `bin` in memory when given). */
export function probeLatency(tbk: string, bin: string | undefined, probes: number, cacheBytes?: number): void {
  const { line, off } = samplePositions(tbk, probes);
  const both = [...line, ...off];
  const size = statSync(tbk).size;

  const how = evict(tbk);
  let t0 = performance.now();
  let book = openAnyRichBook(tbk, { cacheBytes });
  const openCold = performance.now() - t0;
  const probe = (p: Position): number => book.probe(p).length;
  const coldDisk = timed(line, probe, book);
  const coldDiskOff = timed(off, probe, book);
  book.close();

  warmOs(tbk);
  t0 = performance.now();
  book = openAnyRichBook(tbk, { cacheBytes });
  const openWarm = performance.now() - t0;
  const coldBook = timed(line, probe, book);
  const coldBookOff = timed(off, probe, book);
  const [warm, warmOff] = warmPasses(line, off, probe, book);
  book.close();

  // The typed-array API, from a book opened afresh.
  book = openAnyRichBook(tbk, { cacheBytes });
  const moves = new BookMoves();
  const typed = (p: Position): number => book.probeMoves!(p, moves);
  const coldTyped = timed(line, typed, book);
  const coldTypedOff = timed(off, typed, book);
  const [warmTyped, warmTypedOff] = warmPasses(line, off, typed, book);
  book.close();

  let poly: Stats | undefined;
  if (bin !== undefined) {
    const reader = unwrap(PolyglotReader.from(new Uint8Array(readFileSync(bin)), bin));
    for (let r = 0; r < 3; r++) {
      const s = timed(both, (p) => reader.moves(p, { minWeight: 0 }).length);
      if (poly === undefined || s.mean < poly.mean) poly = s;
    }
  }

  const cache = cacheBytes ?? PROBE_CACHE_BYTES;
  console.log(`probe, µs per position, ${(size / 2 ** 20).toFixed(0)} MiB book on disk (${tbk}), page cache ${(cache / 2 ** 20).toFixed(0)} MiB: ${line.length} positions of its games (plies 0-39), ${off.length} one random move off them`);
  console.log(`cpu: processor µs per probe; reads: pages read from the file per probe (the rest from the book's page cache); goal: under 20 µs (mean and median), cold with the OS cache warm and warm`);
  const head = (s: string): string => `${s.padStart(8)} ${'median'.padStart(8)} ${'p99'.padStart(8)} ${'cpu'.padStart(7)} ${'reads'.padStart(6)}`;
  console.log(`${'pass'.padEnd(50)} ${head('mean')}   ${head('off mean')}  moves found`);
  const row = (name: string, a: Stats, b: Stats): void => console.log(`${name.padEnd(50)} ${show(a)}   ${show(b)}  ${a.moves}+${b.moves}`);
  row(`.tbk probe, cold, file evicted (open ${fmt(openCold, 1)} ms)`, coldDisk, coldDiskOff);
  row(`.tbk probe, cold, OS cache warm (open ${fmt(openWarm, 1)} ms)`, coldBook, coldBookOff);
  row('.tbk probe, warm (best of 3)', warm, warmOff);
  row('.tbk probeMoves (typed arrays), cold, OS cache warm', coldTyped, coldTypedOff);
  row('.tbk probeMoves (typed arrays), warm (best of 3)', warmTyped, warmTypedOff);
  if (poly !== undefined) console.log(`${'.bin in memory (PolyglotReader, both sets)'.padEnd(50)} ${show(poly)}   ${''.padStart(43)}  ${poly.moves}`);
  const all = (s: Stats, o: Stats): number => (s.mean * line.length + o.mean * off.length) / both.length;
  console.log(
    `eviction: ${how}; ratios against the .bin in memory, both sets: warm ${fmt(poly ? all(warm, warmOff) / poly.mean : NaN)}, ` +
      `cold with the OS cache warm ${fmt(poly ? all(coldBook, coldBookOff) / poly.mean : NaN)}, cold from the device ${fmt(poly ? all(coldDisk, coldDiskOff) / poly.mean : NaN)}`,
  );
}
