/**
 * `npm run bench -- replay [BOOK.tbk] [--passes P]`: what checking every replayed move costs.
 * Every game a `.tbk` stores is replayed from its start (the probe of a position seen in one
 * game, the Polyglot export of single games, make-book's halving and the recovery of boards
 * all replay them), four ways, in alternation, best of P passes (default 3), processor time:
 *
 *   - unchecked: the codes decoded and played, as replays were before they checked anything
 *     (the floor: a check can only add to it);
 *   - checked (ours): replayCodes, each move tested alone with isLegal before it is played;
 *   - generated (the baseline): the unchecked replay with each move looked up in the full list
 *     of legal moves, the obvious way to check it;
 *   - chessops (the anchor, an independent library doing the same job): each game's start set
 *     up (a clone of it), each move tested with its `isLegal` and played with `play`. The moves
 *     are decoded from the book before the timed passes, so the anchor pays for no decoding.
 *
 * Prints nanoseconds a ply for each, and the ratios checked / unchecked, generated / checked and
 * chessops / checked.
 * Without BOOK, a book of the bundled masters (data/masters-2550.pgn.gz) is built first in a
 * temporary directory.
 */
import { join } from 'node:path';
import { Chess as OpsChess } from 'chessops/chess';
import { parseFen as opsParseFen } from 'chessops/fen';
import type { Role } from 'chessops/types';
import { fileURLToPath } from 'node:url';
import { openAnyRichBook } from '../src/book/node/openTbk.js';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { codeAt, decodeMove, escapePromotion, replayCodes } from '../src/book/rich/games.js';
import type { GameReader } from '../src/book/rich/gameReader.js';
import { generateLegal } from '../src/core/movegen.js';
import { Position } from '../src/core/position.js';
import { KIND_MASK, PROMOTION, moveFrom, moveTo, promotionType } from '../src/core/move.js';
import { BISHOP, KNIGHT, MAX_MOVES, QUEEN, ROOK } from '../src/core/types.js';
import { makeFen } from '../src/notation/fen.js';
import { benchArgs } from './args.js';
import { removeTempDir, tempDir } from './cleanup.js';

const MASTERS = fileURLToPath(new URL('../../data/masters-2550.pgn.gz', import.meta.url));

type Visit = (pos: Position, move: number, ply: number) => boolean;

/** The replay as it was before it checked anything: decode and play, `visit` before each move. */
function unchecked(pos: Position, b: Uint8Array, o: number, codes: number, visit: Visit): number {
  let ply = 0;
  let promo = QUEEN;
  for (let i = 0; i < codes; i++) {
    const code = codeAt(b, o, i);
    const escape = escapePromotion(code);
    if (escape > 0) {
      promo = escape;
      continue;
    }
    const m = decodeMove(pos, code, promo);
    promo = QUEEN;
    if (!visit(pos, m, ply)) return ply;
    pos.play(m);
    ply++;
  }
  return ply;
}

const BUF = new Uint16Array(MAX_MOVES);
let missing = 0;
/** The anchor's check: the move among all the legal moves. */
const generated = (pos: Position, m: number): boolean => {
  const n = generateLegal(pos, BUF, 0);
  let i = 0;
  while (i < n && BUF[i] !== m) i++;
  if (i === n) missing++;
  return true;
};
const plain = (): boolean => true;

/** Every game for chessops: its start (set up once per distinct start) and its moves, as our codes. */
interface OpsGames {
  starts: OpsChess[];
  /** The end of each game's moves in `moves`. */
  ends: Uint32Array;
  moves: Uint16Array;
}

function forChessops(games: GameReader): OpsGames {
  const pos = new Position();
  const byFen = new Map<string, OpsChess>();
  const starts: OpsChess[] = [];
  const ends = new Uint32Array(games.count);
  let moves = new Uint16Array(1 << 20);
  let n = 0;
  const keep: Visit = (_pos, m) => {
    if (n === moves.length) {
      const grown = new Uint16Array(2 * n);
      grown.set(moves);
      moves = grown;
    }
    moves[n++] = m;
    return true;
  };
  for (let g = 0; g < games.count; g++) {
    games.setStart(g, pos);
    const fen = makeFen(pos);
    let start = byFen.get(fen);
    if (start === undefined) byFen.set(fen, (start = OpsChess.fromSetup(opsParseFen(fen).unwrap()).unwrap()));
    starts.push(start);
    const { bytes, offset } = games.codes(g);
    unchecked(pos, bytes, offset, games.record(g).codes, keep);
    ends[g] = n;
  }
  return { starts, ends, moves: moves.subarray(0, n) };
}

const OPS_ROLE: Record<number, Role> = { [KNIGHT]: 'knight', [BISHOP]: 'bishop', [ROOK]: 'rook', [QUEEN]: 'queen' };
let opsIllegal = 0;

/** Processor seconds for chessops to replay every game, each move checked; returns [seconds, plies]. */
function chessopsPass(c: OpsGames): [number, number] {
  let plies = 0;
  let at = 0;
  const t = process.cpuUsage();
  for (let g = 0; g < c.starts.length; g++) {
    const pos = c.starts[g]!.clone();
    // Castling is king-takes-rook in both (chessops's own encoding), so the squares carry over.
    for (const end = c.ends[g]!; at < end; at++) {
      const m = c.moves[at]!;
      const move = { from: moveFrom(m), to: moveTo(m), promotion: (m & KIND_MASK) === PROMOTION ? OPS_ROLE[promotionType(m)] : undefined };
      if (!pos.isLegal(move)) {
        opsIllegal++;
        at = end;
        break;
      }
      pos.play(move);
      plies++;
    }
  }
  const u = process.cpuUsage(t);
  return [(u.user + u.system) / 1e6, plies];
}

/** Processor seconds to replay every game one way; returns [seconds, plies]. */
function pass(games: GameReader, how: 'unchecked' | 'checked' | 'generated'): [number, number] {
  const pos = new Position();
  let plies = 0;
  const t = process.cpuUsage();
  for (let g = 0; g < games.count; g++) {
    const rec = games.record(g);
    games.setStart(g, pos);
    const { bytes, offset } = games.codes(g);
    if (how === 'checked') plies += replayCodes(pos, bytes, offset, rec.codes, plain);
    else plies += unchecked(pos, bytes, offset, rec.codes, how === 'generated' ? generated : plain);
  }
  const u = process.cpuUsage(t);
  return [(u.user + u.system) / 1e6, plies];
}

export async function main(args: string[]): Promise<void> {
  const a = benchArgs('replay', args, {
    usage: '[BOOK.tbk] [--passes P]',
    options: { passes: { kind: 'int', default: 3, min: 1, arg: 'P', help: 'passes of each replay; the best is kept' } },
    positionals: { max: 1, names: 'BOOK.tbk' },
  });
  const { passes } = a.values;
  let file = a.positionals[0];
  let dir: string | undefined;
  if (file === undefined) {
    dir = tempDir('tabiya-bench-replay-');
    file = join(dir, 'masters.tbk');
    process.stderr.write(`building ${file} from ${MASTERS}...\n`);
    await buildTbk(file, { inputs: [MASTERS], tmpDir: dir });
  }
  try {
    const book = openAnyRichBook(file);
    const games = book.v2?.gameReader(1 << 20);
    if (games === undefined) throw new Error(`${file}: a version 2 .tbk that keeps its games is needed`);
    const ops = forChessops(games);
    const best = { unchecked: Infinity, checked: Infinity, generated: Infinity, chessops: Infinity };
    let plies = 0;
    let opsPlies = 0;
    for (let p = 0; p < passes; p++) {
      for (const how of ['unchecked', 'checked', 'generated'] as const) {
        const [s, n] = pass(games, how);
        best[how] = Math.min(best[how], s);
        plies = n;
      }
      const [s, n] = chessopsPass(ops);
      best.chessops = Math.min(best.chessops, s);
      opsPlies = n;
    }
    book.close();
    if (missing > 0) throw new Error(`${missing} replayed moves are not legal moves`);
    if (opsIllegal > 0 || opsPlies !== plies) throw new Error(`chessops replayed ${opsPlies} plies of ${plies} (${opsIllegal} moves it found illegal)`);
    const ns = (s: number): string => ((s * 1e9) / plies).toFixed(1);
    console.log(`${file}: ${games.count} games, ${plies} plies, best of ${passes} passes, processor time`);
    console.log(`unchecked (floor)      ${best.unchecked.toFixed(3)} s  ${ns(best.unchecked)} ns a ply`);
    console.log(`checked (ours)         ${best.checked.toFixed(3)} s  ${ns(best.checked)} ns a ply  (${(best.checked / best.unchecked).toFixed(2)}x the unchecked replay)`);
    console.log(`generated (baseline)   ${best.generated.toFixed(3)} s  ${ns(best.generated)} ns a ply  (${(best.generated / best.checked).toFixed(2)}x ours)`);
    console.log(`chessops (anchor)      ${best.chessops.toFixed(3)} s  ${ns(best.chessops)} ns a ply  (${(best.chessops / best.checked).toFixed(2)}x ours)`);
  } finally {
    if (dir !== undefined) removeTempDir(dir);
  }
}
