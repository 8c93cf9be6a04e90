/**
 * A game's repeated positions: whether the position of ply k recurs at a later ply of the same
 * game (a repetition, 11.Ng5 Rf8 12.Nf3 Re8 13.Ng5 in the Zaitsev Ruy Lopez). A game counts in a
 * position's W/D/L once, under the last move it played there, as the Lichess explorer counts
 * (lila-openingexplorer's importer keeps a game's last move from each position), so a position's
 * moves add up to the games that reached it; its earlier occurrences are kept apart as repeats,
 * for make-book's counters, which count every occurrence (runs.ts). Browser-safe.
 *
 * A position recurs only across reversible plies (no capture or pawn move in between: FIDE's
 * repetition rule and every engine's draw detection look back as far), so the plies after k are
 * looked at while the halfmove clock has grown by one a ply since k, at even distances of at
 * least 4: the side to move is part of the key, and two plies cannot undo one another's move.
 * Openings rarely have long reversible stretches, so this costs a compare or two a ply.
 */

/**
 * 1 when the position of ply k recurs at a later ply of the `count` recorded, else 0.
 * `clocks[j]`: the halfmove clock before ply j.
 */
export function recursLater(keysLo: Int32Array, keysHi: Int32Array, clocks: Int32Array, count: number, k: number): number {
  const lo = keysLo[k]!;
  const hi = keysHi[k]!;
  const c = clocks[k]!;
  for (let j = k + 2; j < count; j += 2) {
    // A capture or pawn move since ply k reset the clock: nothing after it repeats ply k.
    if (clocks[j] !== c + (j - k)) return 0;
    if (j >= k + 4 && keysLo[j] === lo && keysHi[j] === hi) return 1;
  }
  return 0;
}

/** One game's plies as they are replayed, for `recursLater` (the arrays grow with the longest game). */
export class GamePlies {
  keysLo: Int32Array = new Int32Array(256);
  keysHi: Int32Array = new Int32Array(256);
  moves: Uint16Array = new Uint16Array(256);
  clocks: Int32Array = new Int32Array(256);
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

  /** 1 when the position of ply k recurs later in the game (all of it pushed): ply k is then a repeat. */
  repeatAt(k: number): number {
    return recursLater(this.keysLo, this.keysHi, this.clocks, this.count, k);
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
