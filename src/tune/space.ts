/**
 * The search space: the evaluation's weight vector (params.ts's WEIGHTS layout, mg and eg of
 * each pair side by side), which of its values are tuned (all, or chosen groups), and each
 * value's allowed range from its group. Optimisers work on a Float64Array copy and write back
 * rounded integers only at the end.
 */
import { GROUPS, NPAIRS, WEIGHTS, weightsFromJson, weightsToJson, applyWeights, type ParamGroup } from '../engine/evalParams.js';

export class ParamSpace {
  /** Indices (into the weight vector) of the values being tuned. */
  readonly free: Int32Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  readonly groups: readonly ParamGroup[];

  /** All groups, or the named ones (unknown names, and a name given twice, throw). */
  constructor(names?: readonly string[]) {
    // A group named twice would put its values twice in `free`: the optimisers would step them
    // twice an epoch and the L2 penalty count them twice, a different fit from naming it once.
    const twice = names?.find((n, i) => names.indexOf(n) !== i);
    if (twice !== undefined) throw new Error(`parameter group "${twice}" is named twice`);
    const chosen = names && names.length > 0 ? names.map((n) => findGroup(n)) : GROUPS;
    this.groups = chosen;
    this.lo = new Float64Array(2 * NPAIRS);
    this.hi = new Float64Array(2 * NPAIRS);
    for (const g of GROUPS) {
      for (let k = 0; k < 2 * g.size; k++) {
        this.lo[2 * g.offset + k] = g.min;
        this.hi[2 * g.offset + k] = g.max;
      }
    }
    const free: number[] = [];
    for (const g of chosen) for (let k = 0; k < 2 * g.size; k++) free.push(2 * g.offset + k);
    this.free = Int32Array.from(free.sort((a, b) => a - b));
  }

  get size(): number {
    return 2 * NPAIRS;
  }

  /** Keeps every tuned value in its group's range. */
  clamp(w: Float64Array): void {
    for (let k = 0; k < this.free.length; k++) {
      const i = this.free[k]!;
      w[i] = Math.max(this.lo[i]!, Math.min(this.hi[i]!, w[i]!));
    }
  }

  /** 1 for each tuned value of the weight vector, 0 for the others. */
  freeMask(): Uint8Array {
    const m = new Uint8Array(2 * NPAIRS);
    for (let k = 0; k < this.free.length; k++) m[this.free[k]!] = 1;
    return m;
  }
}

function findGroup(name: string): ParamGroup {
  const g = GROUPS.find((x) => x.name === name);
  if (!g) throw new Error(`unknown parameter group "${name}" (groups: ${GROUPS.map((x) => x.name).join(', ')})`);
  return g;
}

/** The engine's current weights as floats. */
export function currentWeights(): Float64Array {
  return Float64Array.from(WEIGHTS);
}

/** Rounded weights as the `{ group: [[mg, eg], ...] }` table params files hold. */
export function weightsTable(w: Float64Array): Record<string, [number, number][]> {
  const saved = WEIGHTS.slice();
  try {
    for (let i = 0; i < w.length; i++) WEIGHTS[i] = Math.round(w[i]!);
    return weightsToJson();
  } finally {
    WEIGHTS.set(saved);
    applyWeights();
  }
}

/** Integer weights from a table (groups it does not name keep the engine's current values). */
export function weightsFromTable(table: Readonly<Record<string, readonly (readonly [number, number])[]>>): Float64Array {
  const saved = WEIGHTS.slice();
  try {
    weightsFromJson(table);
    return Float64Array.from(WEIGHTS);
  } finally {
    WEIGHTS.set(saved);
    applyWeights();
  }
}

/** Rounded copy (what the engine would run). */
export function rounded(w: Float64Array): Float64Array {
  return w.map((x) => Math.round(x));
}
