/**
 * The reach index saved to a file, so that a book walked once is not walked again
 * (src/book/node/reachCache.ts keeps these files). The walk probes every position of the book
 * (reachIndex.ts); the file holds what it found as typed arrays, read back in one pass.
 *
 * Layout (little-endian):
 *   "TBYREACH" | u32 version | u32 n | n bytes of JSON (what was indexed, the arrays' lengths)
 *   | zero padding to 8 | each array of ReachIndex's SAVED_ARRAYS in order, padded to 8
 *   | u32 CRC-32 of every byte before it.
 * The JSON's `fingerprint` says which book (path, size, time, inode) and which walk options the
 * index is of; a file whose fingerprint differs is of another book, or of an older version of
 * this one. Everything is checked before use: a file that fails any check is not an index.
 */
import { BOARD_WORDS } from './signature.js';
import { ReachIndex, SAVED_ARRAYS, type SavedArrayName, type SavedReachIndex } from './reachIndex.js';
import type { Crc32 } from '../rich/format.js';

const MAGIC = 'TBYREACH';
/** 2: the walk's roots (the start and the boards recovered from a .tbk's games) instead of the start alone. */
export const REACH_FILE_VERSION = 2;

const NAMES = Object.keys(SAVED_ARRAYS) as SavedArrayName[];

interface Head {
  fingerprint: string;
  roots: string[];
  size: number;
  hasCounts: boolean;
  fromOtherRoots: number;
  lengths: Record<string, number>;
}

const pad8 = (n: number): number => (n + 7) & ~7;

/** The file's bytes for an index of the book `fingerprint` names. */
export function encodeReachIndex(index: ReachIndex, fingerprint: string, crc: Crc32): Uint8Array {
  const saved = index.save();
  const lengths: Record<string, number> = {};
  for (const name of NAMES) lengths[name] = saved.arrays[name].length;
  const head: Head = { fingerprint, roots: saved.roots, size: saved.size, hasCounts: saved.hasCounts, fromOtherRoots: saved.fromOtherRoots, lengths };
  const json = new TextEncoder().encode(JSON.stringify(head));
  let total = pad8(16 + json.length);
  for (const name of NAMES) total += pad8(saved.arrays[name].byteLength);
  const out = new Uint8Array(total + 4);
  out.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, REACH_FILE_VERSION, true);
  view.setUint32(12, json.length, true);
  out.set(json, 16);
  let o = pad8(16 + json.length);
  for (const name of NAMES) {
    const a = saved.arrays[name];
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), o);
    o += pad8(a.byteLength);
  }
  view.setUint32(total, crc(out.subarray(0, total), 0) >>> 0, true);
  return out;
}

export type ReachFileResult = { ok: true; index: ReachIndex } | { ok: false; why: string };

/** The index in `bytes` if it is a sound index file of the book `fingerprint` names. */
export function decodeReachIndex(bytes: Uint8Array, fingerprint: string, crc: Crc32): ReachFileResult {
  const fail = (why: string): ReachFileResult => ({ ok: false, why });
  if (bytes.length < 20 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) return fail('not a reach index file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== REACH_FILE_VERSION) return fail(`version ${version}, not ${REACH_FILE_VERSION}`);
  const end = bytes.length - 4;
  if ((crc(bytes.subarray(0, end), 0) >>> 0) !== view.getUint32(end, true)) return fail('checksum mismatch: the file is damaged');
  const jsonLength = view.getUint32(12, true);
  if (16 + jsonLength > end) return fail('header longer than the file');
  let head: Head;
  try {
    head = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + jsonLength))) as Head;
  } catch {
    return fail('header is not JSON');
  }
  if (head.fingerprint !== fingerprint) return fail('made for another book or another version of it');
  const n = head.size;
  const roots = head.roots;
  if (!Number.isInteger(n) || n < 0 || !Array.isArray(roots) || roots.length === 0 || !roots.every((r) => typeof r === 'string')) return fail('bad size or roots');
  const groups = (head.lengths?.groupStart ?? 0) - 1;
  const expected: Record<SavedArrayName, number> = {
    keyHi: n, keyLo: n, boards: n * BOARD_WORDS, flags: n, material: n, parent: n, via: n, weight: n, wins: n, draws: n, losses: n, order: n,
    groupStart: groups + 1, groupMaterial: groups, groupPawns: groups * 4, materialStart: head.lengths?.materialStart ?? 0,
  };
  const arrays: Record<string, unknown> = {};
  let o = pad8(16 + jsonLength);
  for (const name of NAMES) {
    const length = head.lengths[name];
    if (length !== expected[name] || !Number.isInteger(length) || length < 0) return fail(`array ${name}: ${length} entries where ${expected[name]} are due`);
    const Type = SAVED_ARRAYS[name];
    const byteLength = length * Type.BYTES_PER_ELEMENT;
    if (o + byteLength > end) return fail(`array ${name} runs past the end`);
    // A copy (Uint8Array's slice: a Buffer's would share memory): the file's bytes need not be aligned for the array's type.
    arrays[name] = new Type(Uint8Array.prototype.slice.call(bytes, o, o + byteLength).buffer);
    o += pad8(byteLength);
  }
  if (o !== end) return fail('bytes after the arrays');
  const other = head.fromOtherRoots;
  if (!Number.isInteger(other) || other < 0 || other > n) return fail('bad count of positions from other roots');
  const saved: SavedReachIndex = { roots, size: n, hasCounts: head.hasCounts === true, fromOtherRoots: other, arrays: arrays as SavedReachIndex['arrays'] };
  const bad = inconsistency(saved);
  return bad === undefined ? { ok: true, index: ReachIndex.restore(saved) } : fail(bad);
}

/** What would make the search read out of bounds: links and groups that point outside the index. */
function inconsistency(s: SavedReachIndex): string | undefined {
  const a = s.arrays;
  const n = s.size;
  for (let i = 0; i < n; i++) {
    if (a.parent[i]! < -s.roots.length || a.parent[i]! >= n) return `position ${i}: parent ${a.parent[i]} out of range`;
    if (a.order[i]! < 0 || a.order[i]! >= n) return `order ${i}: position ${a.order[i]} out of range`;
  }
  const g = a.groupStart;
  if (g[0] !== 0 || g[g.length - 1] !== n) return 'groups do not cover the positions';
  for (let i = 1; i < g.length; i++) if (g[i]! < g[i - 1]!) return `group ${i} starts before the one before it`;
  const m = a.materialStart;
  const groups = g.length - 1;
  if (m.length === 0 || m[0] !== 0 || m[m.length - 1] !== groups) return 'material groups do not cover the groups';
  for (let i = 1; i < m.length; i++) if (m[i]! < m[i - 1]!) return `material group ${i} starts before the one before it`;
  return undefined;
}
