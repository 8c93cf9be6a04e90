/**
 * What a move's NAG and comment in a rich book may be, for every way a user sets them (the
 * explorer's edits, `tabiya book set`): the book's PGN export (src/serve/subtree.ts) must carry
 * each note out and `book annotate --notes` read it back unchanged, so a note the PGN cannot
 * hold is refused when it is set, where the user can still choose the words.
 */
import { ParseError, err, ok, type Result } from '../../core/result.js';
import { glyphNag } from '../../pgn/bytes.js';

/** The longest comment kept (the explorer's field has the same bound). */
export const COMMENT_MAX = 2000;

/**
 * Why `text` cannot be a move's comment, or undefined when it can. Line breaks are taken (the
 * caller makes them spaces: `commentText`).
 */
export function commentProblem(text: string): string | undefined {
  if (text.length > COMMENT_MAX) return `a comment holds at most ${COMMENT_MAX} characters, this one ${text.length}`;
  // A PGN comment ends at its first } (PGN standard 8.2.5, no escape): the export could carry
  // such a comment only changed (python-chess drops the }, tabiya's writer makes it a ")").
  if (text.includes('}')) return 'a } cannot be kept: a PGN comment ends at its first }, so the book\'s PGN export could not carry it; write ) or ] instead';
  // `[%tabiya …]` is the markup the export writes for a move's user value and forbidden mark
  // (pgnNotes.ts, in the command syntax lichess uses for `[%clk …]`): read back, it would set them.
  if (/\[%tabiya\s/i.test(text)) return '[%tabiya …] cannot be kept: it is the markup of the PGN export for user values and forbidden marks, so reading the export back would take it as one; set the value or mark with their own controls';
  // The PGN standard (4.1) allows no control character in a file but newline and tab, and an
  // escape sequence would reach the terminal of whoever prints the export.
  const control = /[^\P{Cc}\t\r\n]/u.exec(text);
  if (control !== null) return `a control character (U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}) cannot be kept: the book's PGN export could not carry it`;
  return undefined;
}

/** The comment as kept: line breaks become spaces (a move's comment is one line in the table). */
export function commentText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/**
 * A NAG as a user writes it: a glyph (`!`, `?!`, `+-`, `=`, `∞` …, PGN standard 8.2.4 and 10), `$N`
 * or N (0..255), or `clear` (0, no NAG).
 */
export function parseNag(s: string): Result<number> {
  const t = s.trim();
  if (t === 'clear') return ok(0);
  const glyph = glyphNag(t);
  if (glyph >= 0) return ok(glyph);
  const m = /^\$?(\d{1,3})$/.exec(t);
  if (m !== null && Number(m[1]) <= 255) return ok(Number(m[1]));
  return err(new ParseError('ERR_NAG', `"${s}" is not a NAG (a glyph such as !, ?!, +- or =, $0..$255, or clear)`));
}

/** How a NAG is printed after a move: the glyphs of printed annotation (PGN standard 10), else `$N`. */
const SYMBOLS: Record<number, string> = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!', 7: '□', 10: '=', 13: '∞', 14: '+=', 15: '=+', 16: '±', 17: '∓', 18: '+-', 19: '-+', 146: 'N' };
export function nagSymbol(nag: number): string {
  return SYMBOLS[nag] ?? `$${nag}`;
}
