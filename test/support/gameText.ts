/**
 * Games of the shared collections as text: split a PGN file into games and read a game's main
 * line as SAN tokens. Enough for the pgn-extract-normalised files of ../shared/data (no
 * variations, comments rare); the PGN reader in src/pgn is the general one.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Games `from` .. `from + n` of a PGN file (gzip-compressed or not). */
export function pgnGames(path: string, from = 0, n = Infinity): string[] {
  const bytes = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return text.split(/\n(?=\[Event )/).slice(from, from + n);
}

/** The main line of a game as SAN tokens (tags, comments, move numbers and result removed). */
export function sanMoves(game: string): string[] {
  const body = game.replace(/\[[^\]]*\]\s*/g, '').replace(/\{[^}]*\}/g, ' ');
  return body
    .split(/\s+/)
    .filter((t) => t !== '' && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t))
    .map((t) => t.replace(/^\d+\.+/, ''));
}
