/**
 * The root move list of a search: every legal root move (or the `searchmoves` subset) with its
 * score in the current iteration, its score in the last complete one, and its principal
 * variation, kept sorted best first. Reused from search to search.
 */
import { MAX_MOVES as MAX_MOVES_ } from '../../core/types.js';
import { SearchThread } from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const MAX_MOVES = MAX_MOVES_;

const PL = SearchThread.PLIES;

/** Root moves with a score and PV each; sorted best first after each iteration. */
export class RootMoves {
  n = 0;
  readonly moves = new Uint16Array(MAX_MOVES);
  readonly score = new Int32Array(MAX_MOVES);
  readonly prevScore = new Int32Array(MAX_MOVES);
  readonly pv = new Uint16Array(MAX_MOVES * PL);
  readonly pvLen = new Uint8Array(MAX_MOVES);
  readonly seldepth = new Uint8Array(MAX_MOVES);
  private readonly tmpPv = new Uint16Array(PL);
  /** Scratch for generating the root moves. */
  readonly generated = new Uint16Array(MAX_MOVES);

  /** Stable insertion sort of [from, to) by score, best first. */
  sort(from: number, to: number): void {
    for (let i = from + 1; i < to; i++) {
      const s = this.score[i]!;
      let j = i;
      while (j > from && this.score[j - 1]! < s) j--;
      if (j !== i) this.rotate(j, i);
    }
  }

  /** Moves entry i down to position j (j < i), shifting the others up. */
  private rotate(j: number, i: number): void {
    const m = this.moves[i]!;
    const s = this.score[i]!;
    const ps = this.prevScore[i]!;
    const len = this.pvLen[i]!;
    const sd = this.seldepth[i]!;
    this.tmpPv.set(this.pv.subarray(i * PL, i * PL + len));
    for (let k = i; k > j; k--) {
      this.moves[k] = this.moves[k - 1]!;
      this.score[k] = this.score[k - 1]!;
      this.prevScore[k] = this.prevScore[k - 1]!;
      this.pvLen[k] = this.pvLen[k - 1]!;
      this.seldepth[k] = this.seldepth[k - 1]!;
      this.pv.copyWithin(k * PL, (k - 1) * PL, (k - 1) * PL + this.pvLen[k]!);
    }
    this.moves[j] = m;
    this.score[j] = s;
    this.prevScore[j] = ps;
    this.pvLen[j] = len;
    this.seldepth[j] = sd;
    this.pv.set(this.tmpPv.subarray(0, len), j * PL);
  }

  pvOf(i: number): number[] {
    return Array.from(this.pv.subarray(i * PL, i * PL + this.pvLen[i]!));
  }
}

