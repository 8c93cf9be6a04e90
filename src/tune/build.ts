/**
 * From labelled lines to traces: parse each line, make the position quiet with the engine's
 * quiescence search (resolve.ts), and trace the quiet leaf. Lines that cannot be used are
 * counted by reason; unreadable ones are also reported with their line number and why.
 */
import { Position } from '../core/position.js';
import { positionFromFen } from '../notation/fen.js';
import { parseLabeled } from './labels.js';
import { QuietResolver, RESOLVE_IN_CHECK, RESOLVED } from './resolve.js';
import { TRACED, TraceBuilder, type TraceStore } from './traceStore.js';

export interface BuildCounts {
  /** Lines read (not counting blank lines and comments). */
  lines: number;
  traced: number;
  /** Unreadable lines (bad label or FEN). */
  bad: number;
  /** Side to move in check, before or after resolution. */
  inCheck: number;
  /** The quiescence search sees a mate. */
  mate: number;
  /** Decided by a special endgame evaluator (not linear in the weights). */
  special: number;
  /** Positions the quiescence search changed (captures resolved). */
  resolved: number;
}

export interface BuildError {
  line: number;
  message: string;
}

export const emptyCounts = (): BuildCounts => ({ lines: 0, traced: 0, bad: 0, inCheck: 0, mate: 0, special: 0, resolved: 0 });

export function addCounts(a: BuildCounts, b: BuildCounts): void {
  for (const k of Object.keys(a) as (keyof BuildCounts)[]) a[k] += b[k];
}

/** At most this many errors are kept with their text (all are counted). */
export const MAX_ERRORS = 100;

/**
 * Traces `lines` (their file line numbers in `lineNos`). `resolve: false` traces positions as
 * they are. `onProgress` is called every 4,096 lines.
 */
export function buildTraces(
  lines: readonly string[],
  lineNos: ArrayLike<number>,
  opts: { resolve: boolean; onProgress?: (done: number) => void },
): { store: TraceStore; counts: BuildCounts; errors: BuildError[] } {
  const builder = new TraceBuilder();
  const resolver = new QuietResolver();
  const counts = emptyCounts();
  const errors: BuildError[] = [];
  const pos = new Position();
  for (let k = 0; k < lines.length; k++) {
    if ((k & 4095) === 4095) opts.onProgress?.(k + 1);
    counts.lines++;
    const lab = parseLabeled(lines[k]!);
    const p = lab.ok ? positionFromFen(lab.value.fen, pos) : lab;
    if (!p.ok) {
      counts.bad++;
      if (errors.length < MAX_ERRORS) errors.push({ line: lineNos[k]!, message: p.error.message });
      continue;
    }
    if (!lab.ok) continue;
    if (opts.resolve) {
      const r = resolver.resolve(pos);
      if (r !== RESOLVED) {
        if (r === RESOLVE_IN_CHECK) counts.inCheck++;
        else counts.mate++;
        continue;
      }
      if (resolver.plies > 0) counts.resolved++;
    } else if (pos.inCheck()) {
      counts.inCheck++;
      continue;
    }
    if (builder.add(pos, lab.value.result, lab.value.ce) === TRACED) counts.traced++;
    else counts.special++;
  }
  opts.onProgress?.(lines.length);
  return { store: builder.finish(), counts, errors };
}
