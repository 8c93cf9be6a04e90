/**
 * EPD: four FEN fields followed by operations (`bm Nf3 Qd5; id "WAC.001"; D1 20;`).
 * Also reads the perft-suite dialect (full six-field FEN, then `;D1 20 ;D2 400`) and the
 * `hmvc`/`fmvn` opcodes for the move counters.
 */
import { err, ok, ParseError, quote, typeName, type Result } from '../core/result.js';
import type { Position } from '../core/position.js';
import { makeFen } from './fen.js';

export class EpdError extends ParseError {
  constructor(
    code: string,
    message: string,
    /** 1-based column of the line where the fault is. */
    readonly column: number,
  ) {
    super(code, message);
  }
}

export interface EpdRecord {
  /** A full FEN (counters from the record, hmvc/fmvn, or 0 1). */
  fen: string;
  /** Operations in order: opcode → operands (quotes removed). */
  ops: Map<string, string[]>;
}

/** Any white space separates fields and operands (a record may have come with its line break). */
const isBlank = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/** Parses one EPD line. */
export function parseEpd(line: string): Result<EpdRecord, EpdError> {
  if (typeof line !== 'string') return err(new EpdError('ERR_EPD_FIELDS', `an EPD line is a string, not ${typeName(line)}`, 1));
  const text = line.trimEnd();
  const fail = (code: string, at: number, why: string): { ok: false; error: EpdError } =>
    err(new EpdError(code, `EPD ${quote(line)}, column ${at + 1}: ${why}`, at + 1));
  let i = text.length - text.trimStart().length;
  const fields: string[] = [];
  while (fields.length < 4) {
    while (isBlank(text[i])) i++;
    if (i >= text.length || text[i] === ';') return fail('ERR_EPD_FIELDS', i, `${fields.length} position fields; 4 are required`);
    let j = i;
    while (j < text.length && !isBlank(text[j]) && text[j] !== ';') j++;
    fields.push(text.slice(i, j));
    i = j;
  }
  // Optional move counters right after the four fields (perft suites, FEN-style lines), before
  // a `;` or the operations: an opcode starts with a letter, so two numbers there are counters.
  let counters: string[] = ['0', '1'];
  const m = /^\s+(\d+)\s+(\d+)(?=\s|;|$)/.exec(text.slice(i));
  if (m) {
    counters = [m[1]!, m[2]!];
    i += m[0].length;
  }
  const ops = new Map<string, string[]>();
  const tokens: string[] = [];
  let opAt = i;
  const flush = (): { ok: false; error: EpdError } | undefined => {
    if (tokens.length === 0) return undefined;
    const [op, ...operands] = tokens;
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(op!)) return fail('ERR_EPD_OPCODE', opAt, `invalid opcode ${quote(op!, 40)}`);
    // The counter opcodes replace the FEN's counters, so they must be numbers (the PGN standard, 16.2).
    if ((op === 'hmvc' || op === 'fmvn') && !(operands.length === 1 && /^\d+$/.test(operands[0]!))) {
      return fail('ERR_EPD_COUNTER', opAt, `${op} needs one non-negative integer, not ${quote(operands.join(' '), 40)}`);
    }
    ops.set(op!, operands);
    tokens.length = 0;
    return undefined;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (isBlank(c)) {
      i++;
    } else if (c === ';') {
      const e = flush();
      if (e) return e;
      i++;
    } else if (c === '"') {
      if (tokens.length === 0) opAt = i;
      let j = i + 1;
      let str = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        str += text[j];
        j++;
      }
      if (j >= text.length) return fail('ERR_EPD_STRING', i, 'unterminated string');
      tokens.push(str);
      i = j + 1;
    } else {
      if (tokens.length === 0) opAt = i;
      let j = i;
      while (j < text.length && !isBlank(text[j]) && text[j] !== ';' && text[j] !== '"') j++;
      tokens.push(text.slice(i, j));
      i = j;
    }
  }
  const e = flush();
  if (e) return e;
  const hmvc = ops.get('hmvc')?.[0];
  const fmvn = ops.get('fmvn')?.[0];
  if (hmvc !== undefined) counters[0] = hmvc;
  if (fmvn !== undefined) counters[1] = fmvn;
  return ok({ fen: [...fields, ...counters].join(' '), ops });
}

/** Writes an EPD line for a position and operations. */
export function makeEpd(pos: Position, ops: Iterable<[string, readonly string[]]> = []): string {
  let out = makeFen(pos, { epd: true });
  for (const [op, operands] of ops) {
    out += ' ' + op;
    for (const x of operands) out += ' ' + (/^[^\s;"]+$/.test(x) ? x : quoteOperand(x));
    out += ';';
  }
  return out;
}

/**
 * An operand in double quotes with EPD's escapes (\" and \\, which parseEpd undoes); a line
 * break cannot stand in a one-line record and becomes a space.
 */
function quoteOperand(x: string): string {
  return `"${x.replace(/[\r\n]+/g, ' ').replace(/[\\"]/g, '\\$&')}"`;
}

/** Perft expectations D1..Dn of a suite record, by depth. */
export function perftExpectations(rec: EpdRecord): Map<number, number> {
  const out = new Map<number, number>();
  for (const [op, operands] of rec.ops) {
    const d = /^D(\d+)$/.exec(op);
    if (d && operands[0] !== undefined && /^\d+$/.test(operands[0])) out.set(parseInt(d[1]!, 10), Number(operands[0]));
  }
  return out;
}
