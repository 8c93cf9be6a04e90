/**
 * Errors at the boundaries are values, not exceptions: parsers return a Result whose error
 * carries a stable code (for programs) and a message (for people).
 */

export type Result<T, E = ParseError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });

export class ParseError extends Error {
  constructor(
    /** Stable machine-readable code, e.g. `ERR_FEN_CASTLING`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ParseError';
  }
}

/** Unwraps a Result, throwing its error: for callers that treat bad input as fatal. */
export function unwrap<T, E>(r: Result<T, E>): T {
  if (r.ok) return r.value;
  throw r.error;
}

/** Format characters, line and paragraph separators and spaces: invisible or blank when printed. */
const INVISIBLE = /^[\p{Cf}\p{Zl}\p{Zp}\p{Zs}]$/u;

/**
 * Input text as an error message shows it: control characters and undecodable bytes as \\xHH (so
 * the message stays one readable line on a terminal), characters that print as nothing or as a
 * plain space (a byte-order mark, a zero-width or no-break space) as \\uHHHH (else the message
 * would quote `"e5"` for a stray mark before a legal move), cut after `max` characters with "…"
 * (so a megabyte of garbage gives a short message).
 */
export function excerpt(text: string, max = 100): string {
  let out = '';
  for (const ch of text) {
    if (out.length >= max) return `${out}…`;
    const c = ch.charCodeAt(0);
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c === 0xfffd || (c !== 0x20 && INVISIBLE.test(ch))) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** `excerpt` in double quotes. */
/**
 * What a reader of text says it was given instead, for untyped callers (a JSON key missing, a
 * form field not filled in): "undefined", "null", "number"...
 */
export function typeName(x: unknown): string {
  return x === null ? 'null' : typeof x;
}

export function quote(text: string, max = 100): string {
  return `"${excerpt(text, max)}"`;
}
