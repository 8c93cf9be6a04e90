/**
 * The loss under single-value changes, without a pass over all positions: a change of one
 * weight only moves the positions whose coefficient for that pair is nonzero. The store is
 * transposed once into columns (for each pair, its positions and coefficients), each
 * position's mg and eg sums and squared error are kept, and a trial change of value i by δ
 * costs one walk down column i. This is what makes Texel's ±1 local search and simulated
 * annealing practical on half a million positions. A position may hold the same pair in more
 * than one of the evaluation's sums (the king danger of both sides, model.ts).
 */
import { NPAIRS } from '../../engine/evalParams.js';
import { SUM_VALUES, evalOfSums } from '../model.js';
import type { L2Penalty } from '../penalty.js';
import type { TraceStore } from '../traceStore.js';

const LN10_400 = Math.LN10 / 400;

export class ColumnLoss {
  /**
   * Column p holds entries colStart[p] .. colStart[p + 1] of colPos / colCoef / colSum: every
   * entry of weight pair p, in any of the evaluation's sums (colSum, model.ts).
   */
  private readonly colStart: Int32Array;
  private readonly colPos: Int32Array;
  private readonly colCoef: Int16Array;
  private readonly colSum: Uint8Array;
  /** Each position's eight sums (model.ts) at i * SUM_VALUES. */
  private readonly sums: Float64Array;
  private readonly term: Float64Array;
  /** Trial results of the last `trial`, reused by `commit`: the changed sum and the term. */
  private readonly trialValue: Float64Array;
  private readonly trialTerm: Float64Array;
  private readonly scratch = new Float64Array(SUM_VALUES);
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
    for (let j = 0; j < nnz; j++) this.colStart[(s.index[j]! % NPAIRS) + 1]++;
    for (let p = 0; p < pairs; p++) this.colStart[p + 1] += this.colStart[p]!;
    const fill = this.colStart.slice(0, pairs);
    this.colPos = new Int32Array(nnz);
    this.colCoef = new Int16Array(nnz);
    this.colSum = new Uint8Array(nnz);
    for (let i = 0; i < s.n; i++) {
      for (let j = s.start[i]!; j < s.start[i + 1]!; j++) {
        const e = s.index[j]!;
        const at = fill[e % NPAIRS]++;
        this.colPos[at] = i;
        this.colCoef[at] = s.coef[j]!;
        this.colSum[at] = (e / NPAIRS) | 0;
      }
    }
    let longest = 0;
    for (let p = 0; p < pairs; p++) longest = Math.max(longest, this.colStart[p + 1]! - this.colStart[p]!);
    this.trialValue = new Float64Array(longest);
    this.trialTerm = new Float64Array(longest);
    this.sums = new Float64Array(s.n * SUM_VALUES);
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
    this.sums.fill(0);
    for (let i = 0; i < s.n; i++) {
      const o = i * SUM_VALUES;
      for (let j = s.start[i]!; j < s.start[i + 1]!; j++) {
        const e = s.index[j]!;
        const sum = (e / NPAIRS) | 0;
        const p = (e - sum * NPAIRS) << 1;
        this.sums[o + 2 * sum] += w[p]! * s.coef[j]!;
        this.sums[o + 2 * sum + 1] += w[p + 1]! * s.coef[j]!;
      }
    }
    let total = 0;
    for (let i = 0; i < s.n; i++) {
      const t = this.termOf(i);
      this.term[i] = t;
      total += t;
    }
    this.sum = total;
    this.pen = this.penalty ? this.penalty.value(w) : 0;
    this.trialIndex = -1;
  }

  /** Position i's squared error with its sums in `S` (filled by the caller). */
  private termOfSums(i: number, S: Float64Array): number {
    const e = evalOfSums(S, this.s.phase[i]!, this.s.scaleW[i]!, this.s.scaleB[i]!);
    const d = this.s.target[i]! - 1 / (1 + Math.exp(-this.k * e));
    return d * d;
  }

  private termOf(i: number): number {
    const S = this.scratch;
    const o = i * SUM_VALUES;
    for (let k = 0; k < SUM_VALUES; k++) S[k] = this.sums[o + k]!;
    return this.termOfSums(i, S);
  }

  /** Mean loss if value i of the weight vector changed by delta (nothing is changed yet). */
  trial(i: number, delta: number): number {
    const p = i >> 1;
    const half = i & 1;
    let change = 0;
    const a = this.colStart[p]!;
    const b = this.colStart[p + 1]!;
    const S = this.scratch;
    // A column lists a position's entries side by side (it was filled in position order), so
    // a position holding the pair in two sums is judged once with both changes.
    for (let j = a; j < b; ) {
      const pos = this.colPos[j]!;
      const o = pos * SUM_VALUES;
      for (let k = 0; k < SUM_VALUES; k++) S[k] = this.sums[o + k]!;
      let end = j;
      for (; end < b && this.colPos[end] === pos; end++) {
        const slot = 2 * this.colSum[end]! + half;
        S[slot] += delta * this.colCoef[end]!;
        this.trialValue[end - a] = S[slot]!;
      }
      const t = this.termOfSums(pos, S);
      for (let x = j; x < end; x++) this.trialTerm[x - a] = t;
      change += t - this.term[pos]!;
      j = end;
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
    const half = i & 1;
    const a = this.colStart[p]!;
    const b = this.colStart[p + 1]!;
    for (let j = a; j < b; j++) {
      const pos = this.colPos[j]!;
      this.sums[pos * SUM_VALUES + 2 * this.colSum[j]! + half] = this.trialValue[j - a]!;
      this.term[pos] = this.trialTerm[j - a]!;
    }
    this.w[i] += this.trialDelta;
    this.sum = this.trialSum;
    this.pen = this.trialPen;
    this.trialIndex = -1;
  }
}
