/**
 * A game's repeated moves: whether the move played at ply k from ply k's position was played
 * from the same position at an earlier ply of the same game (a repetition, 11.Ng5 Rf8 12.Nf3 Re8
 * 13.Ng5 in the Zaitsev Ruy Lopez). Such a game counts once in the move's W/D/L (the Lichess
 * explorer counts a game once a position, under its last move there: docs/rich-books.md), and its
 * further occurrences apart, for make-book's counters (runs.ts).
 * Browser-safe.
 *
 * A position recurs only across reversible plies (no capture or pawn move in between: FIDE's
 * repetition rule and every engine's draw detection look back as far), so only the plies the
 * halfmove clock spans are looked at, at even distances of at least 4: the side to move is part of
 * the key, and two plies cannot undo one another's move. Openings rarely have long reversible
 * stretches, so this costs a compare or two a ply.
 */

/** 1 when ply k's (position key, move) occurs at an earlier ply of the game, else 0. `clocks[k]`: the halfmove clock before ply k. */
export function playedBefore(keysLo: Int32Array, keysHi: Int32Array, moves: Uint16Array, clocks: Int32Array, k: number): number {
  const lo = keysLo[k]!;
  const hi = keysHi[k]!;
  const m = moves[k]!;
  const stop = Math.max(0, k - clocks[k]!);
  for (let j = k - 4; j >= stop; j -= 2) if (keysLo[j] === lo && keysHi[j] === hi && moves[j] === m) return 1;
  return 0;
}

/** One game's plies as they are replayed, for `playedBefore` (the arrays grow with the longest game). */
export class GamePlies {
  keysLo = new Int32Array(256);
  keysHi = new Int32Array(256);
  moves = new Uint16Array(256);
  clocks = new Int32Array(256);
  count = 0;

  /** Records ply `count`: the position's key and halfmove clock before the move, and the move. */
  push(keyLo: number, keyHi: number, move: number, clock: number): void {
    const n = this.count;
    if (n === this.moves.length) this.grow();
    this.keysLo[n] = keyLo;
    this.keysHi[n] = keyHi;
    this.moves[n] = move;
    this.clocks[n] = clock;
    this.count = n + 1;
  }

  /** 1 when ply k repeats an earlier ply's (position, move). */
  repeatAt(k: number): number {
    return playedBefore(this.keysLo, this.keysHi, this.moves, this.clocks, k);
  }

  private grow(): void {
    const n = this.moves.length * 2;
    const lo = new Int32Array(n);
    const hi = new Int32Array(n);
    const mv = new Uint16Array(n);
    const cl = new Int32Array(n);
    lo.set(this.keysLo);
    hi.set(this.keysHi);
    mv.set(this.moves);
    cl.set(this.clocks);
    this.keysLo = lo;
    this.keysHi = hi;
    this.moves = mv;
    this.clocks = cl;
  }
}
