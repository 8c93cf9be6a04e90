/**
 * Where tabiya's evaluation departs from another engine's: for labelled positions that carry
 * the other engine's evaluation (EPD `ce`, written by `tabiya tune label`), the mean of
 * tabiya's static evaluation put on the other engine's scale minus `ce`, White's point of view,
 * by simple features of the position (side to move, game phase, material imbalance, pawns,
 * bishop pair, where the kings stand). A bucket far from the overall mean is knowledge the
 * evaluation lacks or misweighs, or what a search adds to a static evaluation (the side to move).
 *
 *   node dist/scripts/eval-residuals.js FILE.epd[.gz]...
 *
 * Scales: K of each evaluation is fitted to the same positions' results (evalLabels.ts), and
 * tabiya's centipawns are multiplied by K_tabiya / K_label. Positions where either evaluation is
 * beyond ±400 are left out (there the sigmoid is flat and centipawns say little). Positions are
 * traced as they are (not resolved), in check or decided by a special endgame rule left out.
 */
import { Position } from '../src/core/position.js';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK, WHITE } from '../src/core/types.js';
import { positionFromFen } from '../src/notation/fen.js';
import { readText } from '../src/tune/dataset.js';
import { fitLabelScale } from '../src/tune/evalLabels.js';
import { parseLabeled } from '../src/tune/labels.js';
import { TRACED, TraceBuilder } from '../src/tune/traceStore.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: node dist/scripts/eval-residuals.js FILE.epd[.gz]...\n');
  process.exit(2);
}

const builder = new TraceBuilder();
const keys: string[][] = [];
const pos = new Position();
for (const file of files) {
  for (const line of readText(file).split('\n')) {
    const lab = parseLabeled(line.trim());
    if (!lab.ok || lab.value.ce === undefined) continue;
    if (!positionFromFen(lab.value.fen, pos).ok || pos.inCheck()) continue;
    if (builder.add(pos, lab.value.result, lab.value.ce) !== TRACED) continue;
    keys.push(features(pos));
  }
}
const store = builder.finish();
const label = fitLabelScale(store);
// tabiya's own scale: the same fit with its evaluations in the label column.
const saved = store.labelEval.slice();
for (let i = 0; i < store.n; i++) store.labelEval[i] = Math.max(-32000, Math.min(32000, store.white[i]!));
const own = fitLabelScale(store);
store.labelEval.set(saved);
const toLabel = own.K / label.K;

const buckets = new Map<string, { n: number; sum: number; sq: number }>();
let all = 0;
let allSum = 0;
for (let i = 0; i < store.n; i++) {
  const t = store.white[i]! * toLabel;
  const s = store.labelEval[i]!;
  if (Math.abs(t) > 400 || Math.abs(s) > 400) continue;
  const d = t - s;
  all++;
  allSum += d;
  for (const k of keys[i]!) {
    const b = buckets.get(k) ?? { n: 0, sum: 0, sq: 0 };
    b.n++;
    b.sum += d;
    b.sq += d * d;
    buckets.set(k, b);
  }
}
console.log(`${store.n} positions traced, ${all} within ±400; K tabiya ${own.K.toFixed(4)}, K label ${label.K.toFixed(4)}; overall mean ${(allSum / all).toFixed(1)} cp`);
console.log('bucket                          positions    tabiya − label (cp, ±2 s.e.)');
for (const [k, b] of [...buckets.entries()].filter(([, b]) => b.n >= 300).sort(([a], [b]) => a.localeCompare(b))) {
  const mean = b.sum / b.n;
  const se = Math.sqrt(Math.max(0, b.sq / b.n - mean * mean) / b.n);
  console.log(`${k.padEnd(30)} ${String(b.n).padStart(10)}    ${mean.toFixed(1).padStart(7)} ± ${(2 * se).toFixed(1)}`);
}

/** The buckets a position falls in. */
function features(p: Position): string[] {
  const count = (color: number, type: number): number => {
    let n = 0;
    for (let sq = 0; sq < 64; sq++) if (p.board[sq] === ((color << 3) | type)) n++;
    return n;
  };
  const diff = (type: number): number => count(0, type) - count(1, type);
  const minors = count(0, KNIGHT) + count(0, BISHOP) - count(1, KNIGHT) - count(1, BISHOP);
  const phase = Math.min(24, count(0, KNIGHT) + count(1, KNIGHT) + count(0, BISHOP) + count(1, BISHOP) + 2 * (count(0, ROOK) + count(1, ROOK)) + 4 * (count(0, QUEEN) + count(1, QUEEN)));
  const wing = (sq: number): string => ((sq & 7) <= 2 ? 'Q' : (sq & 7) >= 5 ? 'K' : 'C');
  const pair = (count(0, BISHOP) >= 2 ? 1 : 0) - (count(1, BISHOP) >= 2 ? 1 : 0);
  return [
    `to move ${p.turn === WHITE ? 'white' : 'black'}`,
    `phase ${Math.floor(phase / 4) * 4}-${Math.min(24, Math.floor(phase / 4) * 4 + 3)}`,
    `imbalance R${diff(ROOK)} minor${minors} Q${diff(QUEEN)}`,
    `pawns ${diff(PAWN) > 0 ? '+' : ''}${diff(PAWN)}`,
    `bishop pair ${pair > 0 ? '+' : ''}${pair}`,
    `kings ${wing(p.kingSq[0]!)}${wing(p.kingSq[1]!)} ${phase >= 12 ? 'mg' : 'eg'}`,
  ];
}
