/**
 * `npm run bench -- replay [BOOK.tbk] [--passes P]`: what checking every replayed move costs.
 * Every game a `.tbk` stores is replayed from its start (the probe of a position seen in one
 * game, the Polyglot export of single games, make-book's halving and the recovery of boards
 * all replay them), three ways, in alternation, best of P passes (default 3), processor time:
 *
 *   - unchecked: the codes decoded and played, as replays were before they checked anything
 *     (the floor: a check can only add to it);
 *   - checked (ours): replayCodes, each move tested alone with isLegal before it is played;
 *   - generated (the anchor): the unchecked replay with each move looked up in the full list of
 *     legal moves, the obvious way to check it.
 *
 * Prints nanoseconds a ply for each, and the ratios checked / unchecked and generated / checked.
 * Without BOOK, a book of the bundled masters (data/masters-2550.pgn.gz) is built first in a
 * temporary directory.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAnyRichBook } from '../src/book/node/openTbk.js';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { codeAt, decodeMove, escapePromotion, replayCodes } from '../src/book/rich/games.js';
import type { GameReader } from '../src/book/rich/gameReader.js';
import { generateLegal } from '../src/core/movegen.js';
import { Position } from '../src/core/position.js';
import { MAX_MOVES, QUEEN } from '../src/core/types.js';
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
    const best = { unchecked: Infinity, checked: Infinity, generated: Infinity };
    let plies = 0;
    for (let p = 0; p < passes; p++) {
      for (const how of ['unchecked', 'checked', 'generated'] as const) {
        const [s, n] = pass(games, how);
        best[how] = Math.min(best[how], s);
        plies = n;
      }
    }
    book.close();
    if (missing > 0) throw new Error(`${missing} replayed moves are not legal moves`);
    const ns = (s: number): string => ((s * 1e9) / plies).toFixed(1);
    console.log(`${file}: ${games.count} games, ${plies} plies, best of ${passes} passes, processor time`);
    console.log(`unchecked (floor)      ${best.unchecked.toFixed(3)} s  ${ns(best.unchecked)} ns a ply`);
    console.log(`checked (ours)         ${best.checked.toFixed(3)} s  ${ns(best.checked)} ns a ply  (${(best.checked / best.unchecked).toFixed(2)}x the unchecked replay)`);
    console.log(`generated (anchor)     ${best.generated.toFixed(3)} s  ${ns(best.generated)} ns a ply  (${(best.generated / best.checked).toFixed(2)}x ours)`);
  } finally {
    if (dir !== undefined) removeTempDir(dir);
  }
}
