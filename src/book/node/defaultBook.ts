/**
 * The default book: built by `npm start` (`tabiya demo`) from the master games bundled in
 * data/ (see data/README.md), written next to them as data/tabiya.bin, and the book the engine
 * ships with.
 */
import { fileURLToPath } from 'node:url';
import type { MakeOptions } from '../polyglot/make.js';

/** The bundled games: classical games between players both rated 2550 or more. */
export const DEFAULT_GAMES = fileURLToPath(new URL('../../../../data/masters-2550.pgn.gz', import.meta.url));

/** Where the default book is written. */
export const DEFAULT_BOOK = fileURLToPath(new URL('../../../../data/tabiya.bin', import.meta.url));

/**
 * 15 moves a side from games between masters; a move must have been played in at least five of
 * them, and its weight is Polyglot's 2·wins + draws from the mover's side.
 */
export const DEFAULT_BOOK_OPTIONS: MakeOptions & { maxPly: number } = { maxPly: 30, minGame: 5 };
