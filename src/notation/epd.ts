/**
 * EPD: four FEN fields followed by operations (`bm Nf3 Qd5; id "WAC.001"; D1 20;`).
 * Also reads the perft-suite dialect (full six-field FEN, then `;D1 20 ;D2 400`) and the
 * `hmvc`/`fmvn` opcodes for the move counters.
 */
import { err, ok, ParseError, type Result } from '../core/result.js';
import type { Position } from '../core/position.js';
import { makeFen } from './fen.js';

export class EpdError extends ParseError {}

export interface EpdRecord {
  /** A full FEN (counters from the record, hmvc/fmvn, or 0 1). */
  fen: string;
  /** Operations in order: opcode → operands (quotes removed). */
  ops: Map<string, string[]>;
}

/** Parses one EPD line. */
export function parseEpd(line: string): Result<EpdRecord, EpdError> {
  const text = line.trim();
  let i = 0;
  const fields: string[] = [];
  while (fields.length < 4) {
    while (i < text.length && text[i] === ' ') i++;
    if (i >= text.length) return err(new EpdError('ERR_EPD_FIELDS', `EPD "${line}" has ${fields.length} position fields; 4 are required`));
    let j = i;
    while (j < text.length && text[j] !== ' ' && text[j] !== '\t' && text[j] !== ';') j++;
    fields.push(text.slice(i, j));
    i = j;
  }
  // Optional move counters right after the four fields (perft suites, FEN-style lines).
  let counters: string[] = ['0', '1'];
  const rest = text.slice(i);
  const m = /^\s+(\d+)\s+(\d+)(?=\s*(;|$))/.exec(rest);
  let opsText = rest;
  if (m) {
    counters = [m[1]!, m[2]!];
    opsText = rest.slice(m[0].length);
  }
  const ops = new Map<string, string[]>();
  const tokens: string[] = [];
  let k = 0;
  const flush = (): EpdError | undefined => {
    if (tokens.length === 0) return undefined;
    const [op, ...operands] = tokens;
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(op!)) return new EpdError('ERR_EPD_OPCODE', `EPD "${line}": invalid opcode "${op}"`);
    ops.set(op!, operands);
    tokens.length = 0;
    return undefined;
  };
  while (k < opsText.length) {
    const c = opsText[k]!;
    if (c === ' ' || c === '\t') {
      k++;
    } else if (c === ';') {
      const e = flush();
      if (e) return err(e);
      k++;
    } else if (c === '"') {
      let j = k + 1;
      let s = '';
      while (j < opsText.length && opsText[j] !== '"') {
        if (opsText[j] === '\\' && j + 1 < opsText.length) j++;
        s += opsText[j];
        j++;
      }
      if (j >= opsText.length) return err(new EpdError('ERR_EPD_STRING', `EPD "${line}": unterminated string`));
      tokens.push(s);
      k = j + 1;
    } else {
      let j = k;
      while (j < opsText.length && !' \t;"'.includes(opsText[j]!)) j++;
      tokens.push(opsText.slice(k, j));
      k = j;
    }
  }
  const e = flush();
  if (e) return err(e);
  const hmvc = ops.get('hmvc')?.[0];
  const fmvn = ops.get('fmvn')?.[0];
  if (hmvc !== undefined && /^\d+$/.test(hmvc)) counters[0] = hmvc;
  if (fmvn !== undefined && /^\d+$/.test(fmvn)) counters[1] = fmvn;
  return ok({ fen: [...fields, ...counters].join(' '), ops });
}

/** Writes an EPD line for a position and operations. */
export function makeEpd(pos: Position, ops: Iterable<[string, readonly string[]]> = []): string {
  let out = makeFen(pos, { epd: true });
  for (const [op, operands] of ops) {
    out += ' ' + op;
    for (const x of operands) out += ' ' + (/^[^\s;"]+$/.test(x) ? x : JSON.stringify(x));
    out += ';';
  }
  return out;
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
