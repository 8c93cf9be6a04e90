/**
 * `tabiya book reach BOOK [--fen F] [--moves M] [--plies n] [--limit k] [--nearest] [--json]`:
 * the book positions reachable from a position within n plies, both sides moving, best first
 * (src/book/reach/: irreversibility pruning, cooperation and results at arrival), and the
 * nearest stored positions with their moves as hints when nothing is reachable (or always,
 * with --nearest). Works on a Polyglot .bin and on a .tbk of either version; see
 * docs/conversion.md.
 */
import { legalMoves } from '../../core/movegen.js';
import { makeUci } from '../../notation/uci.js';
import { makeFen } from '../../notation/fen.js';
import { makeSan } from '../../notation/san.js';
import { keyToHex } from '../../core/zobrist.js';
import type { Position } from '../../core/position.js';
import { openBookForReading } from '../../node/engineBook.js';
import { loadBook } from '../../book/node/openBook.js';
import { tbkNotNamedTbk, type PolyglotReader } from '../../book/polyglot/reader.js';
import { isRichBookFile } from '../../book/node/richFile.js';
import { MAX_REACH_PLIES, ReachSearch } from '../../book/reach/reach.js';
import type { ReachIndex, MovesOf } from '../../book/reach/reachIndex.js';
import { cachedReachIndex, type CachedIndex } from '../../book/node/reachCache.js';
import { nearestPositions } from '../../book/reach/nearest.js';
import { arrivalStats, scoreHits } from '../../book/reach/score.js';
import { MoveLikelihood } from '../../engine/moveLikelihood.js';
import { reachWalkOptions } from '../../engine/bookReturn.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { startProgress, type Progress } from '../../node/progress.js';
import { positionOf } from './bookProbe.js';

export interface BookReachCliOptions {
  fen?: string;
  moves?: string;
  plies?: string;
  limit?: string;
  nearest?: boolean;
  minGames?: string;
  maxNodes?: string;
  /** false with --no-cache. */
  cache?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** Distinct keys of a Polyglot book that the index does not hold. */
function unreachableKeys(book: PolyglotReader, index: ReachIndex): number {
  let n = 0;
  let lastHi = 0;
  let lastLo = 0;
  for (let i = 0; i < book.size; i++) {
    const e = book.entry(i);
    if (i > 0 && e.keyHi === lastHi && e.keyLo === lastLo) continue;
    lastHi = e.keyHi;
    lastLo = e.keyLo;
    if (index.find(e.keyHi | 0, e.keyLo | 0) < 0) n++;
  }
  return n;
}

/** SAN of a line played from `pos` (restored after). */
function sanLine(pos: Position, line: readonly number[]): string[] {
  const out: string[] = [];
  for (const m of line) {
    out.push(makeSan(pos, m));
    pos.play(m);
  }
  for (let i = 0; i < line.length; i++) pos.undo();
  return out;
}

/** `1. e4 e5 2. Nf3` numbering from a position's move number and side. */
export function numbered(pos: Position, san: readonly string[]): string {
  let n = pos.fullmoves;
  let white = pos.turn === 0;
  const parts: string[] = [];
  san.forEach((s, i) => {
    if (white) parts.push(`${n}.`);
    else if (i === 0) parts.push(`${n}...`);
    parts.push(s);
    if (!white) n++;
    white = !white;
  });
  return parts.join(' ');
}

export async function bookReachCommand(file: string, opts: BookReachCliOptions): Promise<void> {
  const pos = positionOf(opts.fen, opts.moves);
  const plies = intOption('--plies', opts.plies ?? '4', 1, MAX_REACH_PLIES)!;
  const limit = intOption('--limit', opts.limit ?? '10', 1, 1_000_000)!;
  const minGames = intOption('--min-games', opts.minGames, 1, 1_000_000_000);
  if (minGames !== undefined && !/\.tbk$/i.test(file)) throw new CliError('--min-games applies to .tbk books only (a .bin keeps weights, not games)', 2);
  const maxNodes = intOption('--max-nodes', opts.maxNodes ?? '5000000', 1, 1e12)!;
  // The book commands pick the format by the name (book info, probe, audit).
  if (!/\.tbk$/i.test(file) && isRichBookFile(file)) throw new CliError(tbkNotNamedTbk(file).message, 1);
  let book: ReturnType<typeof openBookForReading>;
  try {
    book = openBookForReading(file);
  } catch (e) {
    throw new CliError((e as Error).message, 1);
  }
  try {
    const movesOf: MovesOf = (p) => book.source.candidates(p);
    const rich = /\.tbk$/i.test(file) || book.source.probe !== undefined;
    const t0 = performance.now();
    let index: ReachIndex;
    let cached: CachedIndex;
    // The walk of a big book takes seconds to a minute; an index read from the cache shows nothing.
    let bar: Progress | undefined;
    const onProgress = (share: number, positions: number): void => {
      bar ??= startProgress({ label: 'book reach: indexing', total: 100, unit: '%', quiet: opts.quiet });
      bar.update(Math.round(share * 1000) / 10, `${positions} positions`);
    };
    try {
      // A .tbk keeps moves of single games; a line one game played is no book knowledge (docs/conversion.md).
      cached = cachedReachIndex(file, movesOf, { ...reachWalkOptions(book.source, minGames ?? (rich ? 2 : 1)), cache: opts.cache !== false, onProgress });
      index = cached.index;
    } catch (e) {
      // Book errors name the file already (a damaged entry read during the walk).
      const m = (e as Error).message;
      throw new CliError(m.includes(file) ? m : `${file}: ${m}`, 1);
    } finally {
      bar?.stop();
    }
    const indexMs = performance.now() - t0;
    // A .bin keeps keys only: what no book line from the start reaches cannot be set up (counted, not indexed).
    const notIndexed = rich ? undefined : unreachableKeys(await loadBook(file), index);
    if (index.size === 0) throw new CliError(`${file}: the book has no moves from the initial position: nothing to reach`, 1);
    const t1 = performance.now();
    // A deep search of a big book runs for seconds; one of fewer than 65,536 nodes shows nothing.
    let searching: Progress | undefined;
    let result: ReturnType<ReachSearch['run']>;
    try {
      result = new ReachSearch(index).run(pos, {
        plies,
        maxNodes,
        onProgress: (share, nodes) => {
          searching ??= startProgress({ label: 'book reach: searching', total: 100, unit: '%', quiet: opts.quiet });
          searching.update(Math.round(share * 1000) / 10, `${nodes} nodes`);
        },
      });
      searching?.update(100, `${result.nodes} nodes`);
    } finally {
      searching?.stop();
    }
    const searchMs = performance.now() - t1;
    // The index holds what the walk from the start (or a .tbk's games) reaches; a .bin key that no
    // book line leads to is not in it, but the book still plays from it, as `book probe` shows.
    const inBook = result.inBook || movesOf(pos).length > 0;
    const likelihood = new MoveLikelihood();
    const t2 = performance.now();
    const scored = scoreHits(index, pos, result.hits, movesOf, (p, m) => likelihood.of(p, m));
    const scoreMs = performance.now() - t2;
    const c960 = pos.chess960;
    const target = index.position(0);
    const reachable = scored.slice(0, limit).map((h) => {
      index.position(h.target, target);
      const san = sanLine(pos, h.moves);
      const s = arrivalStats(index, h.target);
      return {
        plies: h.plies,
        line: numbered(pos, san),
        san,
        uci: h.moves.map((m) => makeUci(m, c960)),
        fen: arrivalFen(pos, h.moves),
        key: keyToHex(target.keyHi, target.keyLo),
        ...(index.hasCounts ? { games: s.games, wins: s.wins, draws: s.draws, losses: s.losses } : {}),
        weight: s.weight,
        cooperation: round(h.cooperation, 4),
        result: round(h.result, 3),
        value: round(h.value, 4),
        bookMoves: movesOf(target)
          .slice()
          .sort((a, b) => b.weight - a.weight)
          .slice(0, 5)
          .map((m) => makeSan(target, m.move)),
      };
    });
    const wantNearest = opts.nearest === true || result.hits.length === 0;
    const t3 = performance.now();
    const nearest = wantNearest
      ? nearestPositions(index, pos, Math.min(limit, 5)).map((n) => {
          index.position(n.target, target);
          const here = new Set<string>();
          for (const m of legalMoves(pos)) here.add(makeUci(m, c960));
          const hints = movesOf(target)
            .slice()
            .sort((a, b) => b.weight - a.weight)
            .map((m) => {
              const uci = makeUci(m.move, c960);
              const games = m.wins === undefined ? undefined : m.wins + (m.draws ?? 0) + (m.losses ?? 0);
              return { san: makeSan(target, m.move), uci, weight: m.weight, ...(games !== undefined ? { games } : {}), legalHere: here.has(uci) };
            });
          return { fen: makeFen(target), key: keyToHex(target.keyHi, target.keyLo), distance: { material: n.material, pawns: n.pawns, pieces: n.pieces, other: n.other }, hints };
        })
      : undefined;
    const nearestMs = performance.now() - t3;
    const fen = makeFen(pos);
    const out: Record<string, unknown> = {
      fen,
      key: keyToHex(pos.keyHi, pos.keyLo),
      inBook,
      plies,
      index: {
        positions: index.size,
        fromGames: index.fromOtherRoots,
        ...(notIndexed !== undefined ? { notIndexed } : {}),
        groups: index.groups,
        ms: Math.round(indexMs),
        cached: cached.cached,
        ...(cached.file !== undefined ? { file: cached.file } : {}),
      },
      search: { candidates: result.candidates, nodes: result.nodes, complete: result.complete, ms: round(searchMs, 1), scoreMs: round(scoreMs, 1) },
      found: result.hits.length,
      reachable,
    };
    if (nearest) out.nearest = { ms: round(nearestMs, 1), positions: nearest };
    if (cached.note !== undefined) process.stderr.write(`note: ${cached.note}\n`);
    report(opts.json, out, () => {
      const lines = [`${fen}  (key ${keyToHex(pos.keyHi, pos.keyLo)})${inBook ? '  in book' : '  out of book'}`];
      const indexed = cached.cached ? `read from the cache in ${(indexMs / 1000).toFixed(2)} s` : `walked from the start in ${(indexMs / 1000).toFixed(1)} s`;
      const fromGames = index.fromOtherRoots > 0 ? ` (${index.fromOtherRoots} reached by no book line from the start, set up from the book's games)` : '';
      lines.push(
        `index: ${index.size} positions${fromGames} ${indexed}; search: ${result.candidates} candidates, ${result.nodes} nodes, ${searchMs.toFixed(0)} ms` +
          (result.complete ? '' : ` (stopped at --max-nodes ${maxNodes}: the list may miss positions)`),
      );
      if (notIndexed !== undefined && notIndexed > 0) {
        lines.push(`not indexed: ${notIndexed} keys of the book that no book line from the start reaches (a .bin keeps keys, not boards or games: such a position cannot be set up)`);
      }
      lines.push(`book positions reachable within ${count(plies, 'ply', 'plies')}: ${result.hits.length}${result.hits.length > reachable.length ? ` (best ${reachable.length} shown)` : ''}`);
      reachable.forEach((r, i) => {
        const stats = index.hasCounts ? `${count(r.games ?? 0, 'game', 'games')}, result ${r.result.toFixed(2)}` : `weight ${r.weight}`;
        lines.push(`${String(i + 1).padStart(3)}. ${r.line}   [${count(r.plies, 'ply', 'plies')}, opponent ${(100 * r.cooperation).toFixed(1)}%, ${stats}, value ${r.value.toFixed(3)}]`);
        lines.push(`     ${r.fen}  book: ${r.bookMoves.join(' ')}`);
      });
      if (nearest) {
        lines.push(result.hits.length === 0 ? 'nothing reachable; nearest stored positions (hints only):' : 'nearest stored positions:');
        nearest.forEach((n, i) => {
          const d = n.distance;
          lines.push(`${String(i + 1).padStart(3)}. ${n.fen}  (material ${d.material}, pawns ${d.pawns}, pieces ${d.pieces}, other ${d.other})`);
          lines.push(`     hints: ${n.hints.map((h) => `${h.san}${h.legalHere ? '' : '*'}`).join(' ') || '(none)'}`);
        });
        if (nearest.some((n) => n.hints.some((h) => !h.legalHere))) lines.push('     (* not legal here)');
      }
      return lines.join('\n');
    });
  } finally {
    book.close();
  }
}

const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The position a line reaches, as FEN, with the game's own move counters: the index keeps the
 * board of the first book line that met the position, whose counters are that line's.
 */
function arrivalFen(from: Position, moves: readonly number[]): string {
  const p = from.clone();
  for (const m of moves) p.play(m);
  return makeFen(p);
}

/** `1 ply`, `2 plies`: a line one move long is not read as several. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
