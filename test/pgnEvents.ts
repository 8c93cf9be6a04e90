/**
 * Test helpers: run the PGN parser over an input (whole, or cut into chunks of any size) and
 * record what the visitor sees, as plain data that tests compare.
 */
import { makeUci } from '../src/notation/uci.js';
import { PgnParser, type PgnParserOptions } from '../src/pgn/parser.js';
import type { PgnGameError, PgnVisitor } from '../src/pgn/visitor.js';

export interface ReadGame {
  tags: Record<string, string>;
  /** Main-line moves in UCI ('--' for null moves). */
  moves: string[];
  result: string;
  line: number;
  game: number;
}

export interface ReadResult {
  games: ReadGame[];
  errors: PgnGameError[];
  /** Every visitor call, in order. */
  log: string[];
  /** Each valid game's text as it stands in the input (with `texts: true`). */
  texts: Uint8Array[];
}

const enc = new TextEncoder();

/** Parses `input`, pushing it in chunks of `chunk` bytes (0 = all at once; a list is used in turn). */
export function read(
  input: string | Uint8Array,
  options: PgnParserOptions & { chunk?: number | readonly number[]; file?: string; hooks?: 'main' | 'all'; texts?: boolean } = {},
): ReadResult {
  const bytes = typeof input === 'string' ? enc.encode(input) : input;
  const games: ReadGame[] = [];
  const errors: PgnGameError[] = [];
  const log: string[] = [];
  const texts: Uint8Array[] = [];
  let cur: ReadGame = { tags: {}, moves: [], result: '', line: 0, game: 0 };
  const v: PgnVisitor = {
    beginGame(l) {
      cur = { tags: {}, moves: [], result: '', line: l.line, game: l.game };
      log.push(`begin ${l.file}:${l.line}:${l.column} #${l.game}`);
    },
    tag(n, value) {
      cur.tags[n] = value;
      log.push(`tag ${n}=${value}`);
    },
    endTags() {
      log.push('endTags');
    },
    move(pos, m, ply) {
      cur.moves.push(makeUci(m, pos.chess960));
      log.push(`move ${ply} ${makeUci(m, pos.chess960)}`);
    },
    nullMove(_pos, ply, depth) {
      if (depth === 0) cur.moves.push('--');
      log.push(`null ${ply} ${depth}`);
    },
    variationMove(pos, m, ply, depth) {
      log.push(`vmove ${ply} ${makeUci(m, pos.chess960)} ${depth}`);
    },
    beginVariation(d) {
      log.push(`( ${d}`);
    },
    endVariation(d) {
      log.push(`) ${d}`);
    },
    comment(t, d) {
      log.push(`comment ${JSON.stringify(t)} ${d}`);
    },
    nag(n, d) {
      log.push(`nag ${n} ${d}`);
    },
    endGame(r) {
      cur.result = r;
      games.push(cur);
      log.push(`end ${r}`);
    },
    error(e) {
      errors.push(e);
      log.push(`error ${e.kind} ${e.file}:${e.line}:${e.column} #${e.game} ${e.message}`);
    },
  };
  if (options.texts === true) v.gameText = (b) => texts.push(b.slice());
  if (options.hooks === 'main') {
    // What the book builder uses: tags and the main line only.
    for (const k of ['nullMove', 'variationMove', 'beginVariation', 'endVariation', 'comment', 'nag'] as const) delete v[k];
  }
  const parser = new PgnParser(v, options);
  parser.begin(options.file ?? 'test.pgn');
  const steps = typeof options.chunk === 'object' ? options.chunk : [options.chunk && options.chunk > 0 ? options.chunk : Math.max(1, bytes.length)];
  for (let i = 0, k = 0; i < bytes.length; k++) {
    const step = steps[k % steps.length]!;
    parser.push(bytes.subarray(i, i + step));
    i += step;
  }
  parser.end();
  return { games, errors, log, texts };
}
