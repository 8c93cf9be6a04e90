/**
 * `node dist/scripts/book-return-stats.js GAMES.pgn BOOK [ENGINE...]`: how much each engine of
 * a match played in book (docs/conversion.md, "BookReturn in play"). Every game of the PGN
 * (tabiya match --pgnout) is replayed against the book; for each engine it counts
 *
 *   - book plies: its moves played from a book position that are book moves there;
 *   - returns: its moves from a position out of book that land in a book position after the
 *     game had left the book (the engine steered back, whatever the opponent did before);
 *   - games with a return, and the plies of the game spent in book after its first exit.
 *
 * The opening plies the match imposed (`{book}` comments of --openings moves) count as
 * neither side's.
 */
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { openBookForReading } from '../src/node/engineBook.js';
import { pgnGames, sanMoves } from '../test/support/gameText.js';

interface Count {
  games: number;
  plies: number;
  bookPlies: number;
  returns: number;
  gamesWithReturn: number;
  bookPliesAfterExit: number;
}

const [pgn, bookFile] = process.argv.slice(2);
if (pgn === undefined || bookFile === undefined) {
  process.stderr.write('usage: book-return-stats GAMES.pgn BOOK\n');
  process.exit(2);
}
const book = openBookForReading(bookFile);
const counts = new Map<string, Count>();
const countOf = (name: string): Count => {
  let c = counts.get(name);
  if (c === undefined) counts.set(name, (c = { games: 0, plies: 0, bookPlies: 0, returns: 0, gamesWithReturn: 0, bookPliesAfterExit: 0 }));
  return c;
};
for (const g of pgnGames(pgn)) {
  const tag = (name: string): string => new RegExp(`\\[${name} "([^"]*)"\\]`).exec(g)?.[1] ?? '?';
  const names = [tag('White'), tag('Black')];
  const fen = /\[FEN "([^"]*)"\]/.exec(g)?.[1] ?? STARTING_FEN;
  const imposed = (g.replace(/\[[^\]]*\]\s*/g, '').match(/\{book\}/g) ?? []).length;
  const pos = unwrap(positionFromFen(fen));
  const returned = [false, false];
  let left = false;
  for (const n of names) countOf(n).games++;
  sanMoves(g).forEach((san, ply) => {
    const m = parseSan(pos, san);
    if (!m.ok) return;
    const c = countOf(names[pos.turn]!);
    const side = pos.turn;
    const here = book.source.candidates(pos);
    pos.play(m.value);
    if (ply < imposed) {
      if (here.length === 0) left = true;
      return;
    }
    c.plies++;
    if (here.length > 0 && here.some((b) => b.move === m.value)) {
      c.bookPlies++;
      if (left) c.bookPliesAfterExit++;
    }
    const after = book.source.candidates(pos).length > 0;
    if (here.length === 0 && left && after) {
      c.returns++;
      if (!returned[side]) c.gamesWithReturn++;
      returned[side] = true;
    }
    if (here.length === 0) left = true;
  });
}
book.close();
process.stdout.write(JSON.stringify(Object.fromEntries(counts), null, 1) + '\n');
