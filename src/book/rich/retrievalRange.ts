/**
 * One key range's share of a retrieval structure (retrieval.ts), built on its own thread: the
 * partitions that lie wholly inside the range are solved here, their slots handed to `sink`;
 * the keys of a partition the range shares with a neighbour (at most one at each end) are kept
 * as they came, for whoever assembles the structure (RetrievalBuilder.addSolved for the solved
 * ones, RetrievalBuilder.add for the kept keys, partitions in order) to solve once it has them
 * all. The assembled bytes are those of one RetrievalBuilder fed every key. Browser-safe.
 */
import { PartitionSolver, type Solved } from './retrievalPeel.js';
import { RetrievalError, keyHex } from './retrieval.js';
import { doubled } from './retrievalBuilder.js';

/** A partition solved inside the range; its slots were handed to the sink. */
export interface SolvedPartition extends Omit<Solved, 'data'> {
  partition: number;
  keys: number;
  bytes: number;
}

/** Keys of a partition shared with a neighbouring range, in the order they came. */
export interface SharedPartition {
  partition: number;
  hi: Int32Array;
  lo: Int32Array;
  values: Uint32Array;
}

export interface RangePieces {
  /** Partitions in ascending order, solved or shared. */
  parts: (SolvedPartition | SharedPartition)[];
  keys: number;
}

export class RetrievalRange {
  private readonly shift: number;
  private readonly parts: (SolvedPartition | SharedPartition)[] = [];
  private keys = 0;
  /** The partition being collected: its number, its keys and values so far. */
  private partition = -1;
  private hi: Int32Array = new Int32Array(1024);
  private lo: Int32Array = new Int32Array(1024);
  private values: Uint32Array = new Uint32Array(1024);
  private n = 0;
  private readonly solver = new PartitionSolver();

  /**
   * For keys whose high half lies in [from, to) (to ≤ 2^32), `bits` per value, `partitionBits`
   * partitions, `seed` first: the options of the RetrievalBuilder that will assemble them.
   */
  constructor(
    private readonly o: { bits: number; partitionBits: number; seed?: number; from: number; to: number },
    private readonly sink: (slots: Uint8Array) => void,
  ) {
    this.shift = 31 - o.partitionBits;
  }

  add(keyHi: number, keyLo: number, value: number): void {
    const p = (keyHi >>> 1) >>> this.shift;
    if (p !== this.partition) {
      if (p < this.partition) throw new RetrievalError('ERR_RETRIEVAL_ORDER', `retrieval: key ${keyHex(keyHi, keyLo)} out of partition order`, keyHi, keyLo);
      this.flush();
      this.partition = p;
    }
    if (this.n === this.hi.length) this.grow();
    this.hi[this.n] = keyHi;
    this.lo[this.n] = keyLo;
    this.values[this.n++] = value;
  }

  finish(): RangePieces {
    this.flush();
    return { parts: this.parts, keys: this.keys };
  }

  private flush(): void {
    const n = this.n;
    if (n === 0) return;
    this.n = 0;
    this.keys += n;
    const span = 2 ** (32 - this.o.partitionBits);
    const start = this.partition * span;
    if (start < this.o.from || start + span > this.o.to) {
      this.parts.push({ partition: this.partition, hi: this.hi.slice(0, n), lo: this.lo.slice(0, n), values: this.values.slice(0, n) });
      return;
    }
    const s = this.solver.solve(this.hi, this.lo, this.values, n, this.o.seed ?? 0, this.o.bits);
    this.parts.push({ partition: this.partition, keys: n, seed: s.seed, log2: s.log2, segments: s.segments, bytes: s.data.length });
    this.sink(s.data);
  }

  private grow(): void {
    [this.hi, this.lo, this.values] = doubled(this.hi, this.lo, this.values);
  }
}

/** Whether a piece was solved in its range (else its keys are shared). */
export function isSolved(p: SolvedPartition | SharedPartition): p is SolvedPartition {
  return 'seed' in p;
}
