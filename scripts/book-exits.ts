/**
 * `node dist/scripts/book-exits.js BOOK GAMES.pgn[.gz] [FROM] [N] > exits.epd`: the first
 * position out of the book of each game (games FROM .. FROM + N, at least four plies in),
 * de-duplicated, as EPD: the openings of the BookReturn matches of docs/conversion.md, where
 * every game starts where a real game left the book.
 */
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { openBookForReading } from '../src/node/engineBook.js';
import { pgnGames, sanMoves } from '../test/support/gameText.js';

const [bookFile, pgn, from = '0', n = '1000'] = process.argv.slice(2);
if (bookFile === undefined || pgn === undefined) {
  process.stderr.write('usage: book-exits BOOK GAMES.pgn[.gz] [FROM] [N]\n');
  process.exit(2);
}
const book = openBookForReading(bookFile);
const exits = new Set<string>();
for (const g of pgnGames(pgn, Number(from), Number(n))) {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const san of sanMoves(g)) {
    if (book.source.candidates(pos).length === 0) {
      if (pos.ply >= 4) exits.add(makeFen(pos).split(' ').slice(0, 4).join(' '));
      break;
    }
    const m = parseSan(pos, san);
    if (!m.ok) break;
    pos.play(m.value);
  }
}
book.close();
process.stdout.write([...exits].join('\n') + '\n');
