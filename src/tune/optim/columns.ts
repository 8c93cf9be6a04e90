/**
 * The loss under single-value changes, without a pass over all positions: a change of one
 * weight only moves the positions whose coefficient for that pair is nonzero. The store is
 * transposed once into columns (for each pair, its positions and coefficients), each
 * position's mg and eg sums and squared error are kept, and a trial change of value i by δ
 * costs one walk down column i. This is what makes Texel's ±1 local search and simulated
 * annealing practical on half a million positions.
 */
import type { L2Penalty } from '../penalty.js';
import type { TraceStore } from '../traceStore.js';

const PHASE_MAX = 24;
const SCALE_NORMAL = 64;
const LN10_400 = Math.LN10 / 400;

export class ColumnLoss {
  /** Column p holds entries colStart[p] .. colStart[p + 1] of colPos / colCoef. */
  private readonly colStart: Int32Array;
  private readonly colPos: Int32Array;
  private readonly colCoef: Int16Array;
  private readonly mg: Float64Array;
  private readonly eg: Float64Array;
  private readonly term: Float64Array;
  /** Trial results of the last `trial`, reused by `commit`. */
  private readonly trialMg: Float64Array;
  private readonly trialEg: Float64Array;
  private readonly trialTerm: Float64Array;
  private trialIndex = -1;
  private trialDelta = 0;
  private trialSum = 0;
  private sum = 0;
  private pen = 0;
  private trialPen = 0;
  private readonly k: number;

  constructor(
    private readonly s: TraceStore,
    readonly w: Float64Array,
    K: number,
    /** Added to the loss (regularisation), if given. */
    private readonly penalty?: L2Penalty,
  ) {
    this.k = K * LN10_400;
    const pairs = w.length >> 1;
    const nnz = s.entries;
    this.colStart = new Int32Array(pairs + 1);
    for (let j = 0; j < nnz; j++) this.colStart[s.index[j]! + 1]++;
    for (let p = 0; p < pairs; p++) this.colStart[p + 1] += this.colStart[p]!;
    const fill = this.colStart.slice(0, pairs);
    this.colPos = new Int32Array(nnz);
    this.colCoef = new Int16Array(nnz);
    for (let i = 0; i < s.n; i++) {
      for (let j = s.start[i]!; j < s.start[i + 1]!; j++) {
        const at = fill[s.index[j]!]++;
        this.colPos[at] = i;
        this.colCoef[at] = s.coef[j]!;
      }
    }
    let longest = 0;
    for (let p = 0; p < pairs; p++) longest = Math.max(longest, this.colStart[p + 1]! - this.colStart[p]!);
    this.trialMg = new Float64Array(longest);
    this.trialEg = new Float64Array(longest);
    this.trialTerm = new Float64Array(longest);
    this.mg = new Float64Array(s.n);
    this.eg = new Float64Array(s.n);
    this.term = new Float64Array(s.n);
    this.recompute();
  }

  /** Mean loss of the current weights (plus the penalty). */
  get loss(): number {
    return (this.s.n === 0 ? 0 : this.sum / this.s.n) + this.pen;
  }

  /** Positions whose evaluation value i (of the weight vector) affects. */
  columnSize(i: number): number {
    const p = i >> 1;
    return this.colStart[p + 1]! - this.colStart[p]!;
  }

  /** Recomputes every sum from the weights (clears accumulated rounding). */
  recompute(): void {
    const s = this.s;
    const w = this.w;
    let total = 0;
    for (let i = 0; i < s.n; i++) {
      let mg = 0;
      let eg = 0;
      for (let j = s.start[i]!; j < s.start[i + 1]!; j++) {
        const p = s.index[j]! << 1;
        mg += w[p]! * s.coef[j]!;
        eg += w[p + 1]! * s.coef[j]!;
      }
      this.mg[i] = mg;
      this.eg[i] = eg;
      const t = this.termOf(i, mg, eg);
      this.term[i] = t;
      total += t;
    }
    this.sum = total;
    this.pen = this.penalty ? this.penalty.value(w) : 0;
    this.trialIndex = -1;
  }

  private termOf(i: number, mg: number, eg: number): number {
    const ph = this.s.phase[i]!;
    const scale = eg >= 0 ? this.s.scaleW[i]! : this.s.scaleB[i]!;
    const e = (mg * ph * SCALE_NORMAL + eg * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL);
    const d = this.s.result[i]! * 0.5 - 1 / (1 + Math.exp(-this.k * e));
    return d * d;
  }

  /** Mean loss if value i of the weight vector changed by delta (nothing is changed yet). */
  trial(i: number, delta: number): number {
    const p = i >> 1;
    const isEg = (i & 1) === 1;
    let change = 0;
    const a = this.colStart[p]!;
    const b = this.colStart[p + 1]!;
    for (let j = a; j < b; j++) {
      const pos = this.colPos[j]!;
      const d = delta * this.colCoef[j]!;
      const mg = isEg ? this.mg[pos]! : this.mg[pos]! + d;
      const eg = isEg ? this.eg[pos]! + d : this.eg[pos]!;
      const t = this.termOf(pos, mg, eg);
      this.trialMg[j - a] = mg;
      this.trialEg[j - a] = eg;
      this.trialTerm[j - a] = t;
      change += t - this.term[pos]!;
    }
    this.trialIndex = i;
    this.trialDelta = delta;
    this.trialSum = this.sum + change;
    this.trialPen = this.pen + (this.penalty ? this.penalty.change(i, this.w[i]!, delta) : 0);
    return (this.s.n === 0 ? 0 : this.trialSum / this.s.n) + this.trialPen;
  }

  /** Applies the last trial. */
  commit(): void {
    const i = this.trialIndex;
    if (i < 0) throw new Error('ColumnLoss.commit without a trial');
    const p = i >> 1;
    const a = this.colStart[p]!;
    const b = this.colStart[p + 1]!;
    for (let j = a; j < b; j++) {
      const pos = this.colPos[j]!;
      this.mg[pos] = this.trialMg[j - a]!;
      this.eg[pos] = this.trialEg[j - a]!;
      this.term[pos] = this.trialTerm[j - a]!;
    }
    this.w[i] += this.trialDelta;
    this.sum = this.trialSum;
    this.pen = this.trialPen;
    this.trialIndex = -1;
  }
}
