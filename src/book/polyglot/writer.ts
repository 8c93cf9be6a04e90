/**
 * Serialising entries into `.bin` bytes. Browser-safe; writing the bytes to disk (temporary
 * file, then rename) is `book/node/atomicWrite.ts`.
 */
import { compareKeys, ENTRY_SIZE, writeEntry } from './format.js';

/** One entry to write; the key as hex (16 digits) or as unsigned halves. */
export interface EntryInput {
  key: string | { hi: number; lo: number };
  /** Polyglot move field (see `encodeMove`). */
  move: number;
  weight: number;
  learn?: number;
}

/**
 * Bytes of a book made of `entries`, stably sorted by key (entries of one key keep the order
 * given, so choose it: make-book puts the heaviest first).
 */
export function encodeBook(entries: readonly EntryInput[]): Uint8Array {
  const rows = entries.map((e, i) => {
    const { hi, lo } = typeof e.key === 'string' ? parseKeyHex(e.key) : e.key;
    return { hi: hi >>> 0, lo: lo >>> 0, i, e };
  });
  rows.sort((a, b) => compareKeys(a.hi, a.lo, b.hi, b.lo) || a.i - b.i);
  const out = new Uint8Array(rows.length * ENTRY_SIZE);
  rows.forEach((r, k) => {
    if (!(r.e.weight >= 0 && r.e.weight <= 0xffff)) throw new RangeError(`weight ${r.e.weight} does not fit 16 bits`);
    writeEntry(out, k, r.hi, r.lo, r.e.move, r.e.weight, r.e.learn ?? 0);
  });
  return out;
}

/** Bytes of entries already in file order, given as parallel arrays and an optional order. */
export function encodeColumns(
  count: number,
  keyHi: ArrayLike<number>,
  keyLo: ArrayLike<number>,
  move: ArrayLike<number>,
  weight: ArrayLike<number>,
  order?: ArrayLike<number>,
): Uint8Array {
  const out = new Uint8Array(count * ENTRY_SIZE);
  for (let k = 0; k < count; k++) {
    const i = order === undefined ? k : order[k]!;
    writeEntry(out, k, keyHi[i]!, keyLo[i]!, move[i]!, weight[i]!, 0);
  }
  return out;
}

/** `"463b96181691fc9c"` → unsigned halves. */
export function parseKeyHex(hex: string): { hi: number; lo: number } {
  if (!/^[0-9a-fA-F]{16}$/.test(hex)) throw new RangeError(`"${hex}" is not a 16-digit hex key`);
  return { hi: parseInt(hex.slice(0, 8), 16), lo: parseInt(hex.slice(8), 16) };
}
