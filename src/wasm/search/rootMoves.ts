/**
 * Every legal root move with its score in the current
 * iteration, its score in the last complete one, its principal variation and the nodes searched
 * under it so far (for time management), kept sorted best first by a stable insertion sort.
 */
import { MAX_MOVES } from '../types';
import { PLIES } from './thread';

const PL = PLIES;

export class RootMoves {
  n: i32 = 0;
  moves: StaticArray<u16> = new StaticArray<u16>(MAX_MOVES);
  score: StaticArray<i32> = new StaticArray<i32>(MAX_MOVES);
  prevScore: StaticArray<i32> = new StaticArray<i32>(MAX_MOVES);
  pv: StaticArray<u16> = new StaticArray<u16>(MAX_MOVES * PL);
  pvLen: StaticArray<u8> = new StaticArray<u8>(MAX_MOVES);
  seldepth: StaticArray<u8> = new StaticArray<u8>(MAX_MOVES);
  /** What the score is: 0 exact, 1 an upper bound (it failed low), 2 a lower bound (it failed high). */
  bound: StaticArray<u8> = new StaticArray<u8>(MAX_MOVES);
  nodes: StaticArray<i64> = new StaticArray<i64>(MAX_MOVES);
  tmpPv: StaticArray<u16> = new StaticArray<u16>(PL);
  /** Scratch for generating the root moves. */
  generated: StaticArray<u16> = new StaticArray<u16>(MAX_MOVES);

  /** Stable insertion sort of [from, to) by score, best first. */
  sort(from: i32, to: i32): void {
    const score = this.score;
    for (let i = from + 1; i < to; i++) {
      const s = score[i];
      let j = i;
      while (j > from && score[j - 1] < s) j--;
      if (j != i) this.rotate(j, i);
    }
  }

  /** Moves entry i down to position j (j < i), shifting the others up. */
  private rotate(j: i32, i: i32): void {
    const m = this.moves[i];
    const s = this.score[i];
    const ps = this.prevScore[i];
    const len = <i32>this.pvLen[i];
    const sd = this.seldepth[i];
    const b = this.bound[i];
    const nd = this.nodes[i];
    const pv = this.pv;
    const tmp = this.tmpPv;
    for (let k = 0; k < len; k++) tmp[k] = pv[i * PL + k];
    for (let k = i; k > j; k--) {
      this.moves[k] = this.moves[k - 1];
      this.score[k] = this.score[k - 1];
      this.prevScore[k] = this.prevScore[k - 1];
      this.pvLen[k] = this.pvLen[k - 1];
      this.seldepth[k] = this.seldepth[k - 1];
      this.bound[k] = this.bound[k - 1];
      this.nodes[k] = this.nodes[k - 1];
      const l = <i32>this.pvLen[k];
      for (let x = 0; x < l; x++) pv[k * PL + x] = pv[(k - 1) * PL + x];
    }
    this.moves[j] = m;
    this.score[j] = s;
    this.prevScore[j] = ps;
    this.pvLen[j] = <u8>len;
    this.seldepth[j] = sd;
    this.bound[j] = b;
    this.nodes[j] = nd;
    for (let k = 0; k < len; k++) pv[j * PL + k] = tmp[k];
  }
}
