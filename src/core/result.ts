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
