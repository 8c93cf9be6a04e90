/**
 * What the fuzz tests feed the parsers: real games and positions from ../shared/data, and
 * fast-check arbitraries that damage them the ways files get damaged (bytes flipped, text cut
 * short or spliced, punctuation and huge numbers inserted, nesting piled up, NUL bytes, invalid
 * UTF-8, other line ends, very long lines). fast-check shrinks a failing case to a minimal one
 * and prints the seed and path that repeat it (TABIYA_SEED repeats a run, see budget.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { budget, seed } from './budget.js';

const DATA = new URL('../../../../shared/data/', import.meta.url);

/** The first part of a gzip file, decompressed without reading it all (the books are megabytes). */
function gunzipHead(path: string, compressedBytes: number): string {
  const raw = readFileSync(new URL(path, DATA)).subarray(0, compressedBytes);
  const text = gunzipSync(raw, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1);
}

let games: string[] | undefined;

/** Real games (the first ones of the 2,000-game sample, and Stockfish's 8-move book), one string each. */
export function realGames(): string[] {
  games ??= [
    ...gunzipHead('games/pgnmentor_players_sample2000.pgn.gz', 1 << 17).split(/\n\n(?=\[Event )/).slice(0, -1),
    ...gunzipHead('books/8moves_v3.pgn.gz', 1 << 13).split(/\n\n(?=\[Event )/).slice(0, -1),
    ...RICH_GAMES,
  ];
  return games;
}

/** Annotated games, so that mutations also hit comments, NAGs, variations, set-ups and escapes. */
export const RICH_GAMES = [
  '[Event "rich"]\n[White "Müller"]\n[Black "B"]\n[Result "1-0"]\n\n{Intro} 1. e4 {[%clk 0:03:00]} e5 $1 2. Nf3!? (2. Nc3 Nc6 (2... Nf6 3. f4) 3. f4) 2... Nc6 ; line\n% escape\n3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n',
  '[Event "setup"]\n[SetUp "1"]\n[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]\n\n1. O-O-O O-O 2. Rd7 Rf7 3. Rxf7 Kxf7 *\n',
  '[Event "960"]\n[Variant "Chess960"]\n[FEN "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9"]\n\n9. O-O Nc5 10. d4 -- 11. Z0 e6 0-1\n',
  '[Event "promotion"]\n[FEN "8/1P4k1/8/8/8/8/6p1/K7 w - - 0 1"]\n\n1. b8=Q g1=N 2. Qb7+ Kf6 3. e8=Q?? *\n',
];

let epdLines: string[] | undefined;

/** Real EPD lines: every test suite, and the first positions of the three opening and endgame books. */
export function realEpdLines(): string[] {
  if (epdLines === undefined) {
    const lines: string[] = [];
    for (const f of readdirSync(new URL('suites/', DATA)).sort()) lines.push(...readFileSync(new URL(`suites/${f}`, DATA), 'utf8').split('\n'));
    for (const f of ['books/2moves_v1.epd.gz', 'books/UHO_4060_v4.epd.gz', 'books/endgames.epd.gz']) lines.push(...gunzipHead(f, 1 << 14).split('\n'));
    epdLines = lines.filter((l) => l.trim() !== '');
  }
  return epdLines;
}

let fens: string[] | undefined;

/** The four position fields of each real EPD line, with counters: real FENs. */
export function realFens(): string[] {
  fens ??= realEpdLines().map((l) => `${l.trim().split(/\s+/).slice(0, 4).join(' ')} 0 1`);
  return fens;
}

/**
 * fast-check's run options under the test budget: `short` runs in `npm test`, `long` in `npm run
 * fuzz`. The failing assertion goes into the report (node's reporter does not show a `cause`).
 */
export function runs(fixedSeed: number, short: number, long: number): { numRuns: number; seed: number; includeErrorInReport: true } {
  return { numRuns: budget(short, long), seed: seed(fixedSeed), includeErrorInReport: true };
}

// ----- byte mutations (PGN) --------------------------------------------------------------------

/** Text pieces that mean something to PGN, that break it, or that are simply huge or invalid. */
const PGN_TOKENS: (string | number[])[] = [
  '{', '}', '(', ')', '[', ']', '"', ';', '%', '$', '$12', '!', '?!', '\n', '\r', '\r\n', '\n\n', '\t', '\f', ' ',
  '1-0', '0-1', '1/2-1/2', '*', '½-½', '1/2', '--', 'Z0', 'e.p.', 'O-O', '0-0-0', '\\', '.', '...', '12.', '1...', '<', '>',
  'Nf3', 'exd6', 'e8=Q', 'e2e4', 'Ng1f3', 'Ke2', 'Qxf7#', 'a8=Q+', 'exd6e.p.', 'P', 'K', 'x', '+', '#', '=', ':', '/', '-',
  '(1... e5)', '[Event "x"]', '[a "b"]\n\n[a "b"]', '[%clk 0:00:01]', '[%eval #-3]', '[SetUp "1"]', '[FEN "garbage"]',
  '[Variant "Atomic"]', '[Variant "Chess960"]', '[FEN "8/8/8/8/8/8/8/K6k w - - 99999999999 99999999999"]',
  '$99999999999999999999', '99999999999999999999.', '[%clk 99999999999:00:00]',
  [0], [0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xef, 0xbb, 0xbf], [0xf4, 0x90, 0x80, 0x80],
];

/** Pieces piled up many times: deep nesting, unclosed comments, very long lines and tokens. */
const PILES = ['(', '{', ')', '}', '[', '(e5 ', '1. e4 ', '$1 ', 'a', '1', '\n', '\r', '\u0000', '[%a ', '"'];

export type ByteMutation =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'insert'; at: number; token: string | number[] }
  | { kind: 'pile'; at: number; piece: string; times: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'splice'; at: number; from: number; length: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'lineEnds'; eol: string };

export const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: fc.constantFrom(...PGN_TOKENS) }),
  fc.record({ kind: fc.constant('pile' as const), at: fc.nat(), piece: fc.constantFrom(...PILES), times: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), from: fc.nat(), length: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('lineEnds' as const), eol: fc.constantFrom('\r\n', '\r') }),
);

const encoder = new TextEncoder();
const bytesOf = (t: string | number[]): Uint8Array => (typeof t === 'string' ? encoder.encode(t) : Uint8Array.from(t));

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** `text` with one mutation applied (positions are taken modulo its length). */
export function mutateBytes(text: Uint8Array, m: ByteMutation): Uint8Array {
  const n = text.length;
  const at = m.kind === 'lineEnds' ? 0 : m.at % (n + 1);
  switch (m.kind) {
    case 'flip': {
      if (n === 0) return text;
      const out = text.slice();
      out[Math.min(at, n - 1)] = m.byte;
      return out;
    }
    case 'insert':
      return concat(text.subarray(0, at), bytesOf(m.token), text.subarray(at));
    case 'pile':
      return concat(text.subarray(0, at), bytesOf(m.piece.repeat(m.times)), text.subarray(at));
    case 'delete':
      return concat(text.subarray(0, at), text.subarray(Math.min(n, at + m.length)));
    case 'splice': {
      const from = n === 0 ? 0 : m.from % n;
      return concat(text.subarray(0, at), text.subarray(from, Math.min(n, from + m.length)), text.subarray(at));
    }
    case 'truncate':
      return text.subarray(0, at);
    case 'lineEnds': {
      const eol = bytesOf(m.eol);
      const parts: Uint8Array[] = [];
      let start = 0;
      for (let i = 0; i < n; i++) {
        if (text[i] !== 10) continue;
        parts.push(text.subarray(start, i), eol);
        start = i + 1;
      }
      parts.push(text.subarray(start));
      return concat(...parts);
    }
  }
}

// ----- text mutations (FEN, EPD, SAN, UCI) -----------------------------------------------------

export interface TextMutation {
  at: number;
  op: 'delete' | 'insert' | 'replace';
  text: string;
}

/** Edits with pieces from `alphabet`, plus the usual suspects: huge numbers, NUL, blanks, non-ASCII. */
export function textMutation(alphabet: string): fc.Arbitrary<TextMutation> {
  const pieces = [...alphabet, '99999999999999999999', '\u0000', '\t', '\r\n', '  ', 'é', '\u{1F600}', '\uFFFD', '\u00a0', '-1', '0'];
  return fc.record({ at: fc.nat(), op: fc.constantFrom('delete' as const, 'insert' as const, 'replace' as const), text: fc.constantFrom(...pieces) });
}

export function mutateText(text: string, edits: readonly TextMutation[]): string {
  const chars = [...text];
  for (const e of edits) {
    const at = e.at % (chars.length + 1);
    if (e.op === 'delete') chars.splice(at, 1);
    else if (e.op === 'insert') chars.splice(at, 0, e.text);
    else chars.splice(at, 1, e.text);
  }
  return chars.join('');
}
