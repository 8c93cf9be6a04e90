/**
 * `npm run bench -- reach [--book FILE] [--games N] [--after K] [--plies 2,4,6] [--anchor M]
 * [--recover-before PLY] [--min-games G] [--max-nodes N] [--runs R] [--json]`: board conversion on real
 * games (docs/conversion.md). The book's positions of at least G games are indexed (default 2
 * for a .tbk, else 1), and a search stops after N nodes (default 2,000,000).
 *
 * Games of the 2,000-game random sample of the 389k collection are replayed against a book
 * (default: the bundled data/tabiya.bin). Where a game leaves the book, the reach search runs
 * on each of its next K positions that are out of book, within each number of plies, and the
 * run reports, by plies since the game left the book: the share of positions from which some
 * book position can be reached, how long a search took (mean, median, 95th percentile, most;
 * wall time, and under `cpu` the processor time, the figure to quote from a shared machine)
 * and how many nodes it visited, and the share of positions from which some book position
 * passes every irreversibility test at any distance (conversion still possible at all); also
 * the share of out-of-book positions whose colour-reversed
 * position (board mirrored, colours and side to move swapped) is in the book.
 *
 * The index is built as `book reach` and the engine build it: with a version 2 `.tbk`, the stored
 * positions the walk from the start misses are recovered from the book's games where a game
 * reached them before ply RECOVER_BEFORE_PLY; `--recover-before PLY` moves that limit (0: none,
 * 10000: all), to measure what the recovered positions cost the search and what they find.
 *
 * Anchor: the same question answered without pruning, by enumerating every move sequence of up
 * to n plies and looking each position up in the book (what a search without the
 * irreversibility tests has to do), on the first M positions, for n = 2 and 4; the ratio is
 * anchor time / our time on those positions, wall and processor time. No other tool answers the
 * question, so the anchor is this same-run baseline.
 *
 * Every timed step runs R times (default 3) and the least time is kept: the walk that builds
 * the index and the read-back of the saved index, each search (its least wall and least
 * processor time of R; the search keeps nothing between runs), and the anchor's passes over its
 * positions, ours and the brute force in turns (the best pass of each).
 */
import { generateLegal } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { MAX_MOVES } from '../src/core/types.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { openBookForReading } from '../src/node/engineBook.js';
import { decodeReachIndex, encodeReachIndex } from '../src/book/reach/indexFile.js';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { RECOVER_BEFORE_PLY, ReachIndex } from '../src/book/reach/reachIndex.js';
import { ReachSearch } from '../src/book/reach/reach.js';
import { reachWalkOptions } from '../src/engine/bookReturn.js';
import { pgnGames, sanMoves } from '../test/support/gameText.js';
import { benchArgs } from './args.js';

const SAMPLE = new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url).pathname;
const BUNDLED = new URL('../../data/tabiya.bin', import.meta.url).pathname;

/** The colour-reversed FEN: ranks mirrored, colours of pieces, side to move and castling swapped. */
export function reversedFen(fen: string): string {
  const [board, turn, castling, ep, half, full] = fen.split(' ');
  const swap = (s: string): string => s.replace(/[a-zA-Z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
  const ranks = board!.split('/').reverse().map(swap).join('/');
  const cast = castling === '-' ? '-' : [...swap(castling!)].sort((a, b) => 'KQkq'.indexOf(a) - 'KQkq'.indexOf(b)).join('');
  const epSq = ep === '-' ? '-' : ep![0]! + String(9 - Number(ep![1]));
  return [ranks, turn === 'w' ? 'b' : 'w', cast, epSq, half, full].join(' ');
}

/** Brute force: every sequence of 1..n plies, each position looked up; returns book positions found. */
function enumerate(index: ReachIndex, pos: Position, n: number): number {
  const buf = new Uint16Array(MAX_MOVES * (n + 1));
  const found = new Set<number>();
  const go = (depth: number): void => {
    const end = generateLegal(pos, buf, depth * MAX_MOVES);
    for (let k = depth * MAX_MOVES; k < end; k++) {
      pos.play(buf[k]!);
      const t = index.find(pos.keyHi, pos.keyLo);
      if (t >= 0) found.add(t);
      if (depth + 1 < n) go(depth + 1);
      pos.undo();
    }
  };
  go(0);
  return found.size;
}

interface Bucket {
  positions: number;
  reachable: number;
  /** Some book position passes every irreversibility test with no limit on plies. */
  possible: number;
  ms: number[];
  /** Processor time of each search (process.cpuUsage), which the load of a shared machine inflates far less than wall time. */
  cpuMs: number[];
  nodes: number;
  incomplete: number;
}

const NONE = new Int32Array(0);

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

export async function main(args: string[]): Promise<void> {
  const o = benchArgs('reach', args, {
    usage: '[--book FILE] [--games N] [--after K] [--plies 2,4,6] [--anchor M] [--recover-before PLY] [--min-games G] [--max-nodes N] [--runs R] [--json]',
    options: {
      book: { kind: 'string', default: BUNDLED, arg: 'FILE', defaultText: 'the bundled data/tabiya.bin', help: 'the book (.bin or .tbk)' },
      games: { kind: 'int', default: 300, min: 1, help: 'games of the 2,000-game sample to replay' },
      after: { kind: 'int', default: 12, min: 1, arg: 'K', help: 'search the first K out-of-book positions after a game leaves the book' },
      plies: { kind: 'list', default: [2, 4, 6], min: 1, arg: 'N,N', help: 'search within each number of plies' },
      anchor: { kind: 'int', default: 20, min: 0, arg: 'M', help: 'positions for the brute-force anchor, 0 for none' },
      'recover-before': { kind: 'int', default: RECOVER_BEFORE_PLY, min: 0, arg: 'PLY', help: 'recover the .tbk positions games reached before this ply; 0 for none, 10000 for all' },
      'min-games': { kind: 'int', min: 1, arg: 'G', defaultText: '2 for a .tbk, else 1', help: 'book positions of at least G games' },
      'max-nodes': { kind: 'int', default: 2_000_000, min: 1, help: 'nodes a search may visit' },
      runs: { kind: 'int', default: 3, min: 1, arg: 'R', help: 'runs of each timed step; the least time is kept' },
      json: { kind: 'flag', help: 'print the figures as one JSON object' },
    },
  });
  const { book: file, games: nGames, after, plies: pliesList, anchor: anchorN, 'max-nodes': maxNodes, 'recover-before': recoverBefore, runs } = o.values;
  const minGames = o.values['min-games'] ?? (/\.tbk$/i.test(file) ? 2 : 1);
  const book = openBookForReading(file);
  let index: ReachIndex | undefined;
  let indexMs = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    index = ReachIndex.build((p) => book.source.candidates(p), reachWalkOptions(book.source, minGames, recoverBefore));
    indexMs = Math.min(indexMs, performance.now() - t0);
  }
  if (index === undefined) throw new Error('no run');
  // The saved index read back (what book reach and the engine do from the second run on), against the walk.
  const saved = encodeReachIndex(index, 'bench', fastCrc32);
  let readMs = Infinity;
  for (let r = 0; r < runs; r++) {
    const t1 = performance.now();
    const restored = decodeReachIndex(saved, 'bench', fastCrc32);
    readMs = Math.min(readMs, performance.now() - t1);
    if (!restored.ok) throw new Error(`the saved index does not read back: ${restored.why}`);
  }
  const search = new ReachSearch(index);
  const byOffset = new Map<string, Map<string, Bucket>>();
  const bucketOf = (k: number): string => (k < 4 ? String(k) : k < 8 ? '4-7' : '8+');
  let outOfBook = 0;
  let reversedInBook = 0;
  let selfReturns = 0;
  const anchorPositions: Position[] = [];
  const leftAt: number[] = [];
  for (const g of pgnGames(SAMPLE, 0, nGames)) {
    const pos = unwrap(positionFromFen(STARTING_FEN));
    let left = -1;
    let ply = 0;
    for (const san of sanMoves(g)) {
      const inBook = index.find(pos.keyHi, pos.keyLo) >= 0;
      if (!inBook && left < 0) {
        left = ply;
        leftAt.push(ply);
      }
      if (left >= 0 && inBook) selfReturns++;
      if (left >= 0 && !inBook && ply - left < after) {
        outOfBook++;
        const rev = unwrap(positionFromFen(reversedFen(makeFen(pos))));
        if (index.find(rev.keyHi, rev.keyLo) >= 0) reversedInBook++;
        if (anchorPositions.length < anchorN) anchorPositions.push(pos.clone());
        for (const n of pliesList) {
          let ms = Infinity;
          let cpuMs = Infinity;
          let r: ReturnType<ReachSearch['run']> | undefined;
          for (let k = 0; k < runs; k++) {
            const c = process.cpuUsage();
            const t = performance.now();
            r = search.run(pos, { plies: n, maxNodes });
            ms = Math.min(ms, performance.now() - t);
            const cpu = process.cpuUsage(c);
            cpuMs = Math.min(cpuMs, (cpu.user + cpu.system) / 1000);
          }
          if (r === undefined) throw new Error('no run');
          const key = `${n}`;
          let m = byOffset.get(key);
          if (m === undefined) byOffset.set(key, (m = new Map()));
          const b = bucketOf(ply - left);
          let bucket = m.get(b);
          if (bucket === undefined) m.set(b, (bucket = { positions: 0, reachable: 0, possible: 0, ms: [], cpuMs: [], nodes: 0, incomplete: 0 }));
          bucket.positions++;
          if (index.candidates(pos, 1000, NONE) > 0) bucket.possible++;
          if (r.hits.length > 0) bucket.reachable++;
          bucket.ms.push(ms);
          bucket.cpuMs.push(cpuMs);
          bucket.nodes += r.nodes;
          if (!r.complete) bucket.incomplete++;
        }
      }
      const m = parseSan(pos, san);
      if (!m.ok) break;
      pos.play(m.value);
      ply++;
    }
  }
  // Anchor against ours on the same positions: R passes of each in turns, the best pass of each.
  const anchor: Record<string, { oursMs: number; anchorMs: number; ratio: number; oursCpuMs: number; anchorCpuMs: number; cpuRatio: number; same: boolean }> = {};
  const cpuNow = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  for (const n of [2, 4]) {
    let ours = Infinity;
    let theirs = Infinity;
    let oursCpu = Infinity;
    let theirsCpu = Infinity;
    let same = true;
    const hits: number[] = [];
    for (let k = 0; k < runs; k++) {
      let t = performance.now();
      let c = cpuNow();
      for (const p of anchorPositions) hits.push(search.run(p, { plies: n, maxNodes: 1e9 }).hits.length);
      ours = Math.min(ours, performance.now() - t);
      oursCpu = Math.min(oursCpu, cpuNow() - c);
      t = performance.now();
      c = cpuNow();
      const found = anchorPositions.map((p) => enumerate(index, p, n));
      theirs = Math.min(theirs, performance.now() - t);
      theirsCpu = Math.min(theirsCpu, cpuNow() - c);
      if (found.some((f, i) => f !== hits[i])) same = false;
      hits.length = 0;
    }
    anchor[n] = {
      oursMs: round(ours),
      anchorMs: round(theirs),
      ratio: round(theirs / Math.max(ours, 1e-3)),
      oursCpuMs: round(oursCpu),
      anchorCpuMs: round(theirsCpu),
      cpuRatio: round(theirsCpu / Math.max(oursCpu, 1e-3)),
      same,
    };
  }
  const table: Record<string, Record<string, unknown>> = {};
  for (const [n, m] of byOffset) {
    table[n] = {};
    for (const [b, x] of [...m].sort((p, q) => p[0].localeCompare(q[0]))) {
      table[n]![b] = {
        positions: x.positions,
        reachableShare: round(x.reachable / x.positions),
        possibleShare: round(x.possible / x.positions),
        meanMs: round(x.ms.reduce((s, v) => s + v, 0) / x.ms.length),
        medianMs: round(percentile(x.ms, 0.5)),
        p95Ms: round(percentile(x.ms, 0.95)),
        maxMs: round(Math.max(...x.ms)),
        cpu: {
          meanMs: round(x.cpuMs.reduce((s, v) => s + v, 0) / x.cpuMs.length),
          medianMs: round(percentile(x.cpuMs, 0.5)),
          p95Ms: round(percentile(x.cpuMs, 0.95)),
          maxMs: round(Math.max(...x.cpuMs)),
        },
        meanNodes: Math.round(x.nodes / x.positions),
        incomplete: x.incomplete,
      };
    }
  }
  const out = {
    book: file,
    index: { positions: index.size, fromGames: index.fromOtherRoots, recoverBefore, groups: index.groups, ms: Math.round(indexMs), minGames, savedBytes: saved.length, readMs: Math.round(readMs) },
    games: nGames,
    runs,
    leftBookAtPly: { median: percentile(leftAt, 0.5), mean: round(leftAt.reduce((s, v) => s + v, 0) / Math.max(1, leftAt.length)) },
    outOfBookPositions: outOfBook,
    gameReturnedByItself: selfReturns,
    reversedInBookShare: round(reversedInBook / Math.max(1, outOfBook)),
    byPliesSinceLeaving: table,
    anchor,
  };
  if (o.values.json) {
    process.stdout.write(JSON.stringify(out) + '\n');
    return;
  }
  process.stdout.write(`book ${file}: ${index.size} positions indexed in ${(indexMs / 1000).toFixed(2)} s, best of ${runs} (min games ${minGames}; ${index.fromOtherRoots} recovered from the games before ply ${recoverBefore})\n`);
  process.stdout.write(`saved index (${(saved.length / 1e6).toFixed(1)} MB) read back in ${(readMs / 1000).toFixed(2)} s, best of ${runs}: ${(indexMs / Math.max(readMs, 1e-3)).toFixed(1)}× faster than the walk\n`);
  process.stdout.write(`${nGames} games; left the book at ply ${out.leftBookAtPly.median} (median); ${outOfBook} out-of-book positions searched (the first ${after} after leaving), each search's least wall and processor time of ${runs} runs\n`);
  process.stdout.write(`colour-reversed position in the book: ${(100 * out.reversedInBookShare).toFixed(1)}%; positions where the game itself came back into the book: ${selfReturns}\n`);
  for (const [n, m] of Object.entries(table)) {
    process.stdout.write(`within ${n} plies (by plies since leaving the book):\n`);
    for (const [b, x] of Object.entries(m)) process.stdout.write(`  ${b.padEnd(4)} ${JSON.stringify(x)}\n`);
  }
  for (const [n, a] of Object.entries(anchor)) {
    process.stdout.write(
      `anchor, ${n} plies on ${anchorPositions.length} positions, best pass of ${runs}: ours ${a.oursMs} ms wall (${a.oursCpuMs} processor), brute force ${a.anchorMs} ms (${a.anchorCpuMs}), ratio ${a.ratio}x wall, ${a.cpuRatio}x processor${a.same ? '' : ' (DIFFERENT COUNTS)'}\n`,
    );
  }
}

const round = (x: number): number => Math.round(x * 1000) / 1000;
