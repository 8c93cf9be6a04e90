/**
 * The order in which a position's book moves are listed (`book probe`, the explorer's table, its
 * API): most played first, as the Lichess explorer lists them; among moves of as many games (an
 * imported `.bin`'s have none), the heavier first, as PolyGlot's book lists a position; PostBook
 * records (the engine's own moves past the book) after the book moves; then by move code, so that
 * every listing agrees.
 *
 * Only the listing: a book policy sees the moves in the book's own order, as the engine does,
 * since "the first on ties" (Terra's select best) and a seeded draw depend on it.
 */
interface Listed {
  move: number;
  wins: number;
  draws: number;
  losses: number;
  weight: number;
  postBook: boolean;
}

/** The indices of `moves` in listing order. */
export function tableOrder(moves: readonly Listed[]): number[] {
  const games = (m: Listed): number => m.wins + m.draws + m.losses;
  return moves
    .map((_, i) => i)
    .sort((i, j) => {
      const a = moves[i]!;
      const b = moves[j]!;
      return Number(a.postBook) - Number(b.postBook) || games(b) - games(a) || b.weight - a.weight || a.move - b.move;
    });
}
