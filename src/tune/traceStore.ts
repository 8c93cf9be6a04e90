/**
 * The tuner's data: every position reduced to what the evaluation model needs (model.ts), in
 * flat typed arrays (compressed sparse rows). Position i owns entries start[i] .. start[i + 1]
 * of `index` (sum · NPAIRS + weight pair, in increasing order, so the linear sum's entries come
 * first) and `coef` (its coefficient: for the linear sum White's count minus Black's), plus its
 * game phase, the endgame scale for either side being ahead, its result, the engine's own
 * evaluation (to check the model against), and the target of the loss (the result, or the
 * result blended with another engine's evaluation of the position: evalLabels.ts). A position holds about 70 nonzero coefficients
 * out of ~700 pairs, so the loss over half a million positions is a few tens of millions of
 * multiply-adds.
 *
 * The arrays can live in SharedArrayBuffers, so worker threads read the same store without
 * copies (`toShared`, `fromBuffers`). Traces come from the WebAssembly core (core.ts): the
 * evaluation that plays.
 */
import type { Position } from '../core/position.js';
import { NPAIRS } from '../engine/evalParams.js';
import { tunerCore } from './core.js';
import { TRACE_SUMS } from './model.js';

export interface TraceBuffers {
  n: number;
  start: ArrayBufferLike;
  index: ArrayBufferLike;
  coef: ArrayBufferLike;
  phase: ArrayBufferLike;
  scaleW: ArrayBufferLike;
  scaleB: ArrayBufferLike;
  result: ArrayBufferLike;
  white: ArrayBufferLike;
  labelEval: ArrayBufferLike;
  target: ArrayBufferLike;
}

/** `labelEval` of a position whose line gave no `ce`. */
export const NO_LABEL_EVAL = -32768;

export class TraceStore {
  constructor(
    readonly n: number,
    readonly start: Int32Array,
    readonly index: Uint16Array,
    readonly coef: Int16Array,
    readonly phase: Uint8Array,
    /** Endgame scale (0..64) when the endgame half favours White, and when it favours Black. */
    readonly scaleW: Uint8Array,
    readonly scaleB: Uint8Array,
    /** 0 = 0-1, 1 = draw, 2 = 1-0. */
    readonly result: Uint8Array,
    /** The engine's evaluation from White's point of view when traced. */
    readonly white: Int32Array,
    /** The line's `ce` (another engine's evaluation), White's point of view, or NO_LABEL_EVAL. */
    readonly labelEval: Int16Array,
    /** What the loss fits: the expected score for White, result / 2 unless blended (evalLabels.ts). */
    readonly target: Float32Array,
  ) {}

  static fromBuffers(b: TraceBuffers): TraceStore {
    return new TraceStore(
      b.n,
      new Int32Array(b.start),
      new Uint16Array(b.index),
      new Int16Array(b.coef),
      new Uint8Array(b.phase),
      new Uint8Array(b.scaleW),
      new Uint8Array(b.scaleB),
      new Uint8Array(b.result),
      new Int32Array(b.white),
      new Int16Array(b.labelEval),
      new Float32Array(b.target),
    );
  }

  buffers(): TraceBuffers {
    return {
      n: this.n,
      start: this.start.buffer,
      index: this.index.buffer,
      coef: this.coef.buffer,
      phase: this.phase.buffer,
      scaleW: this.scaleW.buffer,
      scaleB: this.scaleB.buffer,
      result: this.result.buffer,
      white: this.white.buffer,
      labelEval: this.labelEval.buffer,
      target: this.target.buffer,
    };
  }

  /** Nonzero coefficients in all. */
  get entries(): number {
    return this.start[this.n]!;
  }

  /** A copy holding positions `order[0..]` in that order, in shared memory when asked. */
  select(order: ArrayLike<number>, shared = false): TraceStore {
    const n = order.length;
    let nnz = 0;
    for (let k = 0; k < n; k++) nnz += this.start[order[k]! + 1]! - this.start[order[k]!]!;
    const mk = <T>(Ctor: { new (b: ArrayBufferLike): T; BYTES_PER_ELEMENT: number }, len: number): T =>
      new Ctor(shared ? new SharedArrayBuffer(Math.max(1, len) * Ctor.BYTES_PER_ELEMENT) : new ArrayBuffer(Math.max(1, len) * Ctor.BYTES_PER_ELEMENT));
    const out = new TraceStore(n, mk(Int32Array, n + 1), mk(Uint16Array, nnz), mk(Int16Array, nnz), mk(Uint8Array, n), mk(Uint8Array, n), mk(Uint8Array, n), mk(Uint8Array, n), mk(Int32Array, n), mk(Int16Array, n), mk(Float32Array, n));
    let at = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      const a = this.start[i]!;
      const b = this.start[i + 1]!;
      out.start[k] = at;
      out.index.set(this.index.subarray(a, b), at);
      out.coef.set(this.coef.subarray(a, b), at);
      at += b - a;
      out.phase[k] = this.phase[i]!;
      out.scaleW[k] = this.scaleW[i]!;
      out.scaleB[k] = this.scaleB[i]!;
      out.result[k] = this.result[i]!;
      out.white[k] = this.white[i]!;
      out.labelEval[k] = this.labelEval[i]!;
      out.target[k] = this.target[i]!;
    }
    out.start[n] = at;
    return out;
  }

  /** Stores one after the other (e.g. the parts built by worker threads). */
  static concat(parts: readonly TraceStore[]): TraceStore {
    const all = new TraceStore(0, new Int32Array(1), new Uint16Array(0), new Int16Array(0), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), new Int32Array(0), new Int16Array(0), new Float32Array(0));
    if (parts.length === 0) return all;
    const n = parts.reduce((s, p) => s + p.n, 0);
    const nnz = parts.reduce((s, p) => s + p.entries, 0);
    const out = new TraceStore(n, new Int32Array(n + 1), new Uint16Array(nnz), new Int16Array(nnz), new Uint8Array(n), new Uint8Array(n), new Uint8Array(n), new Uint8Array(n), new Int32Array(n), new Int16Array(n), new Float32Array(n));
    let pos = 0;
    let at = 0;
    for (const p of parts) {
      for (let i = 0; i < p.n; i++) out.start[pos + i] = p.start[i]! + at;
      out.index.set(p.index.subarray(0, p.entries), at);
      out.coef.set(p.coef.subarray(0, p.entries), at);
      out.phase.set(p.phase, pos);
      out.scaleW.set(p.scaleW, pos);
      out.scaleB.set(p.scaleB, pos);
      out.result.set(p.result, pos);
      out.white.set(p.white, pos);
      out.labelEval.set(p.labelEval, pos);
      out.target.set(p.target, pos);
      pos += p.n;
      at += p.entries;
    }
    out.start[n] = at;
    return out;
  }
}

/** Why `TraceBuilder.add` refused a position. */
export const TRACED = 0;
export const TRACE_SPECIAL = 1;

/** Collects traces position by position into growing typed arrays. */
export class TraceBuilder {
  private n = 0;
  private nnz = 0;
  private start = new Int32Array(1024);
  private index = new Uint16Array(65536);
  private coef = new Int16Array(65536);
  private phase = new Uint8Array(1024);
  private scaleW = new Uint8Array(1024);
  private scaleB = new Uint8Array(1024);
  private result = new Uint8Array(1024);
  private white = new Int32Array(1024);
  private labelEval = new Int16Array(1024);
  private target = new Float32Array(1024);

  get size(): number {
    return this.n;
  }

  /**
   * Traces `pos` (quiet, side to move not in check) with result code `result` and, when the
   * line had one, another engine's evaluation `labelEval` (White's point of view). Positions a
   * special endgame evaluator decides are not linear in the weights and are refused.
   */
  add(pos: Position, result: number, labelEval: number = NO_LABEL_EVAL): number {
    // The trace of the evaluation that plays: the WebAssembly core's.
    const core = tunerCore();
    core.setPosition(pos, false);
    const t = core.evaluateTrace();
    if (t.special) return TRACE_SPECIAL;
    if (this.n + 2 > this.start.length) this.growRows();
    if (this.nnz + TRACE_SUMS * NPAIRS > this.index.length) this.growEntries();
    this.scaleW[this.n] = t.scaleW;
    this.scaleB[this.n] = t.scaleB;
    const c = t.coef;
    let at = this.nnz;
    // In index order, so a row's linear entries (index < NPAIRS) come first (model.ts).
    for (let i = 0; i < TRACE_SUMS * NPAIRS; i++) {
      const v = c[i]!;
      if (v === 0) continue;
      if (!Number.isInteger(v) || v < -32768 || v > 32767) throw new Error(`evaluation trace: coefficient ${v} of pair ${i} is not a 16-bit integer`);
      this.index[at] = i;
      this.coef[at] = v;
      at++;
    }
    this.start[this.n] = this.nnz;
    this.nnz = at;
    this.phase[this.n] = t.phase;
    this.result[this.n] = result;
    this.white[this.n] = t.white;
    this.labelEval[this.n] = labelEval === NO_LABEL_EVAL ? NO_LABEL_EVAL : Math.max(-32000, Math.min(32000, Math.round(labelEval)));
    this.target[this.n] = result / 2;
    this.n++;
    this.start[this.n] = at;
    return TRACED;
  }

  finish(): TraceStore {
    const n = this.n;
    return new TraceStore(
      n,
      this.start.slice(0, n + 1),
      this.index.slice(0, this.nnz),
      this.coef.slice(0, this.nnz),
      this.phase.slice(0, n),
      this.scaleW.slice(0, n),
      this.scaleB.slice(0, n),
      this.result.slice(0, n),
      this.white.slice(0, n),
      this.labelEval.slice(0, n),
      this.target.slice(0, n),
    );
  }

  private growRows(): void {
    const m = this.start.length * 2;
    const grow = <T extends Int32Array | Uint8Array | Int16Array | Float32Array>(a: T, Ctor: new (n: number) => T): T => {
      const b = new Ctor(m);
      b.set(a);
      return b;
    };
    this.start = grow(this.start, Int32Array);
    this.phase = grow(this.phase, Uint8Array);
    this.scaleW = grow(this.scaleW, Uint8Array);
    this.scaleB = grow(this.scaleB, Uint8Array);
    this.result = grow(this.result, Uint8Array);
    this.white = grow(this.white, Int32Array);
    this.labelEval = grow(this.labelEval, Int16Array);
    this.target = grow(this.target, Float32Array);
  }

  private growEntries(): void {
    const m = this.index.length * 2;
    const index = new Uint16Array(m);
    index.set(this.index);
    this.index = index;
    const coef = new Int16Array(m);
    coef.set(this.coef);
    this.coef = coef;
  }
}
