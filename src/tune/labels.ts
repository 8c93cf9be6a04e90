/**
 * Labelled positions, one a line: a position and the result of the game it came from, from
 * White's point of view. Two spellings are read, the two that public Texel sets use:
 *
 *     r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3 c9 "1-0";   (EPD, zurichess)
 *     r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3 0 1 [1.0]   (FEN, lichess-big3)
 *
 * and the first is written. The bracket may be followed by a score, as in Ethereal's data sets
 * (`... 0 1 [1.0] 35`: its search's score, in centipawns for the side to move, which Ethereal's
 * tuner reads after the `] `); it is read as the line's `ce` would be (below). A bracketed
 * result is a number, 0, 0.5 or 1 however written (`[1.00]`).
 * Results are coded 0 (Black won), 1 (draw), 2 (White won), so the
 * target of the loss is code / 2. An EPD line may also carry another engine's evaluation of the
 * position as the standard `ce` operation (centipawns from the side to move's point of view;
 * Edwards, "Portable Game Notation Specification", 16.2.5):
 *
 *     r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3 c9 "1-0"; ce -35;
 *
 * which `tune fit --lambda` blends into the target (evalLabels.ts) and `tune label` writes
 * (`withCe`, with the score of an engine's search: engineLabel.ts). Lines that cannot be read
 * come back as an error saying why; the caller adds the file and line.
 */
import { err, ok, ParseError, type Result } from '../core/result.js';

export interface Labeled {
  /** A full FEN (move counters added when the line has none). */
  fen: string;
  /** 0 = 0-1, 1 = 1/2-1/2, 2 = 1-0. */
  result: number;
  /** The line's `ce`, turned to White's point of view; absent without one. */
  ce?: number;
}

const RESULT_CODES: Readonly<Record<string, number>> = { '1-0': 2, '0-1': 0, '1/2-1/2': 1, '1.0': 2, '0.0': 0, '0.5': 1, '1': 2, '0': 0 };
export const RESULT_TEXT = ['0-1', '1/2-1/2', '1-0'] as const;

const C9 = /\bc9\s+"([^"]*)"/;
const CE = /(?:^|[;\s])ce\s+([^;"]*);/;
/** A bracketed result at the end of the line, or followed by nothing but a score (Ethereal). */
const BRACKET = /\[\s*([0-9.]+)\s*\](?:\s+([+-]?\d+))?\s*$/;

/**
 * The line with the text of every quoted string blanked, the same length: operations are looked
 * for in it, so that `id "game 7; ce 12; from x"` holds no `ce` (EPD operands may be strings,
 * and a string may hold anything but a quote).
 */
function outsideStrings(line: string): string {
  return line.replace(/"[^"]*"/g, (s) => `"${'_'.repeat(s.length - 2)}"`);
}

/** Reads one labelled line (blank lines and `#` comments are the caller's business). */
export function parseLabeled(line: string): Result<Labeled, ParseError> {
  let label: string | undefined;
  let body = line;
  let score: string | undefined;
  const ops = outsideStrings(line);
  const c9 = C9.exec(ops);
  if (c9) {
    // The operand as written (blanked in `ops`): the same match, at the same place, in the line.
    label = C9.exec(line.slice(c9.index))![1]!;
    body = line.slice(0, c9.index);
  } else {
    const b = BRACKET.exec(ops);
    if (b) {
      // The number as written, so "[1.00]" is "1.0" and a label like "[.5]" still reads.
      label = /^(?:\d+\.?\d*|\.\d+)$/.test(b[1]!) && [0, 0.5, 1].includes(Number(b[1])) ? Number(b[1]).toFixed(1) : b[1]!;
      body = line.slice(0, b.index);
      score = b[2];
    }
  }
  if (label === undefined) return err(new ParseError('ERR_LABEL_MISSING', 'no result label (expected c9 "1-0"; or [1.0] at the end, or followed by a score only)'));
  const result = RESULT_CODES[label.trim()];
  if (result === undefined) return err(new ParseError('ERR_LABEL_RESULT', `result "${label}" is not 1-0, 0-1 or 1/2-1/2`));
  const position = fenOfFields(body);
  if (!position.ok) return position;
  const fen = position.value;
  // A ce's operand holds no quote, so it reads the same in `ops` as in the line.
  // A ce operation wins over a score after the bracket (`tune label` writes its ce before it).
  const ce = CE.exec(ops);
  if (!ce && score === undefined) return ok({ fen, result });
  const text = ce ? ce[1]!.trim() : score!;
  if (!/^[+-]?\d+$/.test(text) || Math.abs(Number(text)) > 32000) {
    return err(new ParseError('ERR_LABEL_CE', `${ce ? 'ce' : 'the score after the result,'} "${text}" is not a whole number of centipawns within ±32000`));
  }
  const v = Number(text);
  return ok({ fen, result, ce: fen.split(' ')[1] === 'b' ? 0 - v : v });
}

/**
 * The FEN of a line's position (not checked for legality): its four EPD fields, then the two
 * move counters when the line is a FEN that has them, else `0 1`. EPD operations may follow.
 */
export function fenOfFields(text: string): Result<string, ParseError> {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 4) return err(new ParseError('ERR_LABEL_FEN', `the position has ${fields.length} field(s), 4 are needed (board, side, castling, en passant)`));
  const counters = fields.length >= 6 && /^\d+$/.test(fields[4]!) && /^\d+$/.test(fields[5]!) ? `${fields[4]} ${fields[5]}` : '0 1';
  return ok(`${fields.slice(0, 4).join(' ')} ${counters}`);
}

/** The line `tune data` writes: the four EPD fields and the result as c9. */
export function formatLabeled(epd4: string, result: number): string {
  return `${epd4} c9 "${RESULT_TEXT[result]}";`;
}

const CE_ALL = new RegExp(CE.source, 'g');

/**
 * The line with `ce` as its only evaluation (what `tune label` writes): every `ce` operation
 * `parseLabeled` would read is removed, so labelling again replaces the value rather than adding
 * a second one, and ` ce N;` goes at the end, or before a FEN line's trailing `[1.0]` label,
 * which must stay last to be read.
 */
export function withCe(line: string, ce: number): string {
  // Each ce is found outside strings, and cut from the line at the same place.
  let rest = '';
  let from = 0;
  for (const m of outsideStrings(line).matchAll(CE_ALL)) {
    rest += line.slice(from, m.index) + (m[0].startsWith(';') ? ';' : '');
    from = m.index + m[0].length;
  }
  rest = (rest + line.slice(from)).trim();
  const ops = outsideStrings(rest);
  const bracket = C9.test(ops) ? null : BRACKET.exec(ops);
  if (bracket === null) return `${rest} ce ${ce};`;
  return `${rest.slice(0, bracket.index).trimEnd()} ce ${ce}; ${rest.slice(bracket.index).trimStart()}`;
}
