/**
 * The notes of a `.tbk` book: what people and the engine add to the statistics of the games,
 * per (position, move). Learning (the engine's own results, as Terra's book learning keeps
 * them), PostBook records (the engine's first moves after the book, with their evaluation), a
 * user value (Terra's bookeval, 0..100), a NAG, a comment, a forbidden mark, the Polyglot learn
 * field of an imported .bin, and the verdict of a book audit. Notes are few next to the games'
 * statistics and change often, so they live in their own section, rewritten as a whole and
 * appended to the file on every change (container.ts). Browser-safe.
 *
 * Section: u32 count, then notes sorted by (key unsigned, move), each
 *   u32 key high, u32 key low, u16 move, u16 flags, then by flag:
 *   bit 0 Black to move (no field), bit 1 PostBook record (no field),
 *   bit 2 learning: three varints (wins, draws, losses of the engine's games),
 *   bit 3 user value: u8 0..100, bit 4 NAG: u8, bit 5 comment: varint length, UTF-8,
 *   bit 6 forbidden (no field), bit 7 evaluation: i16 centipawns (mover's side), u16 count,
 *   bit 8 Polyglot learn field: u32, bit 9 audit: i16 loss in centipawns, u16 best move,
 *   u8 depth, varint length and the refutation as UCI moves separated by spaces.
 */
import { Bytes } from './games.js';
import { putVarint } from './runs.js';

export interface Note {
  keyHi: number;
  keyLo: number;
  move: number;
  black: boolean;
  postBook: boolean;
  dynWins: number;
  dynDraws: number;
  dynLosses: number;
  /** -1 unset, else 0..100. */
  userValue: number;
  /** 0 none. */
  nag: number;
  comment: string;
  forbidden: boolean;
  /** Mean evaluation after the move (centipawns, mover's side) and how many went into it (0: none). */
  evalCp: number;
  evalCount: number;
  learn: number;
  audit?: AuditVerdict;
}

/** What a book audit found about a move (the engine's search against the best move). */
export interface AuditVerdict {
  /** Centipawns the move loses against the best move. */
  loss: number;
  best: number;
  depth: number;
  /** The line that refutes it, UCI. */
  refutation: string;
}

export function emptyNote(keyHi: number, keyLo: number, move: number, black: boolean): Note {
  return { keyHi, keyLo, move, black, postBook: false, dynWins: 0, dynDraws: 0, dynLosses: 0, userValue: -1, nag: 0, comment: '', forbidden: false, evalCp: 0, evalCount: 0, learn: 0 };
}

/** Whether a note holds anything worth keeping. */
export function noteHasData(n: Note): boolean {
  return n.postBook || n.dynWins + n.dynDraws + n.dynLosses > 0 || n.userValue >= 0 || n.nag !== 0 || n.comment !== '' || n.forbidden || n.evalCount > 0 || n.learn !== 0 || n.audit !== undefined;
}

const N_BLACK = 1;
const N_POSTBOOK = 2;
const N_LEARNING = 4;
const N_USER = 8;
const N_NAG = 16;
const N_COMMENT = 32;
const N_FORBIDDEN = 64;
const N_EVAL = 128;
const N_LEARN_FIELD = 256;
const N_AUDIT = 512;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A key for maps of notes. */
export function noteKey(keyHi: number, keyLo: number): string {
  return (keyHi >>> 0).toString(16) + ':' + (keyLo >>> 0).toString(16);
}

const NONE: readonly Note[] = [];

/** The notes of a book, by position, in memory. */
export class Notes {
  private readonly byKey = new Map<string, Note[]>();

  get size(): number {
    let n = 0;
    for (const l of this.byKey.values()) n += l.length;
    return n;
  }

  /** Notes of a position (every move that has one). */
  of(keyHi: number, keyLo: number): readonly Note[] {
    // Most books hold no notes: no key string to build on every probe then.
    if (this.byKey.size === 0) return NONE;
    return this.byKey.get(noteKey(keyHi, keyLo)) ?? NONE;
  }

  get(keyHi: number, keyLo: number, move: number): Note | undefined {
    return this.of(keyHi, keyLo).find((n) => n.move === move);
  }

  /** The note of (position, move), created empty when missing. */
  edit(keyHi: number, keyLo: number, move: number, black: boolean): Note {
    const k = noteKey(keyHi, keyLo);
    let l = this.byKey.get(k);
    if (l === undefined) this.byKey.set(k, (l = []));
    let n = l.find((x) => x.move === move);
    if (n === undefined) l.push((n = emptyNote(keyHi >>> 0, keyLo >>> 0, move, black)));
    return n;
  }

  /** Drops a note. */
  remove(keyHi: number, keyLo: number, move: number): void {
    const k = noteKey(keyHi, keyLo);
    const l = this.byKey.get(k);
    if (l === undefined) return;
    const i = l.findIndex((x) => x.move === move);
    if (i >= 0) l.splice(i, 1);
    if (l.length === 0) this.byKey.delete(k);
  }

  /** Every note, sorted by (key, move). */
  all(): Note[] {
    const out: Note[] = [];
    for (const l of this.byKey.values()) for (const n of l) if (noteHasData(n)) out.push(n);
    out.sort((a, b) => (a.keyHi !== b.keyHi ? (a.keyHi < b.keyHi ? -1 : 1) : a.keyLo !== b.keyLo ? (a.keyLo < b.keyLo ? -1 : 1) : a.move - b.move));
    return out;
  }

  /** The section's bytes (none when there are no notes). */
  encode(): Uint8Array {
    const notes = this.all();
    if (notes.length === 0) return new Uint8Array(0);
    const b = new Bytes(64 + notes.length * 24);
    const v = (): DataView => new DataView(b.data.buffer, b.data.byteOffset);
    b.reserve(4);
    v().setUint32(0, notes.length, true);
    b.length = 4;
    for (const n of notes) {
      const comment = n.comment === '' ? undefined : utf8.encode(n.comment);
      const refutation = n.audit === undefined ? undefined : utf8.encode(n.audit.refutation);
      b.reserve(64 + (comment?.length ?? 0) + (refutation?.length ?? 0));
      const d = b.data;
      const view = v();
      let o = b.length;
      let flags = 0;
      if (n.black) flags |= N_BLACK;
      if (n.postBook) flags |= N_POSTBOOK;
      if (n.dynWins + n.dynDraws + n.dynLosses > 0) flags |= N_LEARNING;
      if (n.userValue >= 0) flags |= N_USER;
      if (n.nag !== 0) flags |= N_NAG;
      if (comment !== undefined) flags |= N_COMMENT;
      if (n.forbidden) flags |= N_FORBIDDEN;
      if (n.evalCount > 0) flags |= N_EVAL;
      if (n.learn !== 0) flags |= N_LEARN_FIELD;
      if (n.audit !== undefined) flags |= N_AUDIT;
      view.setUint32(o, n.keyHi >>> 0, true);
      view.setUint32(o + 4, n.keyLo >>> 0, true);
      view.setUint16(o + 8, n.move, true);
      view.setUint16(o + 10, flags, true);
      o += 12;
      if (flags & N_LEARNING) {
        o = putVarint(d, o, n.dynWins);
        o = putVarint(d, o, n.dynDraws);
        o = putVarint(d, o, n.dynLosses);
      }
      if (flags & N_USER) d[o++] = n.userValue;
      if (flags & N_NAG) d[o++] = n.nag;
      if (comment !== undefined) {
        o = putVarint(d, o, comment.length);
        d.set(comment, o);
        o += comment.length;
      }
      if (flags & N_EVAL) {
        view.setInt16(o, n.evalCp, true);
        view.setUint16(o + 2, Math.min(n.evalCount, 0xffff), true);
        o += 4;
      }
      if (flags & N_LEARN_FIELD) {
        view.setUint32(o, n.learn >>> 0, true);
        o += 4;
      }
      if (n.audit !== undefined) {
        view.setInt16(o, Math.max(-32768, Math.min(32767, n.audit.loss)), true);
        view.setUint16(o + 2, n.audit.best, true);
        d[o + 4] = Math.min(255, n.audit.depth);
        o = putVarint(d, o + 5, refutation!.length);
        d.set(refutation!, o);
        o += refutation!.length;
      }
      b.length = o;
    }
    return b.view().slice();
  }

  /** Reads a notes section; a damaged one is an error naming what is wrong. */
  static decode(bytes: Uint8Array, name: string): Notes {
    const notes = new Notes();
    if (bytes.length === 0) return notes;
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const fail = (o: number, what: string): never => {
      throw new RangeError(`${name}: damaged notes at byte ${o}: ${what}`);
    };
    if (bytes.length < 4) fail(0, 'too short');
    const count = v.getUint32(0, true);
    let o = 4;
    const varint = (): number => {
      let x = 0;
      let scale = 1;
      for (;;) {
        if (o >= bytes.length || scale > 2 ** 56) fail(o, 'varint runs past the end');
        const b = bytes[o++]!;
        x += (b & 0x7f) * scale;
        scale *= 0x80;
        if (b < 0x80) return x;
      }
    };
    const need = (n: number): void => {
      if (o + n > bytes.length) fail(o, 'record runs past the end');
    };
    let prevHi = -1;
    let prevLo = 0;
    let prevMove = 0;
    for (let i = 0; i < count; i++) {
      need(12);
      const keyHi = v.getUint32(o, true);
      const keyLo = v.getUint32(o + 4, true);
      const move = v.getUint16(o + 8, true);
      const flags = v.getUint16(o + 10, true);
      if (flags >= N_AUDIT * 2) fail(o, `unknown flags ${flags}`);
      if (prevHi >= 0 && (keyHi < prevHi || (keyHi === prevHi && (keyLo < prevLo || (keyLo === prevLo && move <= prevMove))))) fail(o, 'notes out of order');
      prevHi = keyHi;
      prevLo = keyLo;
      prevMove = move;
      o += 12;
      const n = notes.edit(keyHi, keyLo, move, (flags & N_BLACK) !== 0);
      n.postBook = (flags & N_POSTBOOK) !== 0;
      if (flags & N_LEARNING) {
        n.dynWins = varint();
        n.dynDraws = varint();
        n.dynLosses = varint();
      }
      if (flags & N_USER) {
        need(1);
        n.userValue = bytes[o++]!;
        if (n.userValue > 100) fail(o - 1, `user value ${n.userValue}`);
      }
      if (flags & N_NAG) {
        need(1);
        n.nag = bytes[o++]!;
      }
      if (flags & N_COMMENT) {
        const len = varint();
        need(len);
        try {
          n.comment = fromUtf8.decode(bytes.subarray(o, o + len));
        } catch {
          fail(o, 'comment is not UTF-8');
        }
        o += len;
      }
      n.forbidden = (flags & N_FORBIDDEN) !== 0;
      if (flags & N_EVAL) {
        need(4);
        n.evalCp = v.getInt16(o, true);
        n.evalCount = v.getUint16(o + 2, true);
        o += 4;
      }
      if (flags & N_LEARN_FIELD) {
        need(4);
        n.learn = v.getUint32(o, true);
        o += 4;
      }
      if (flags & N_AUDIT) {
        need(5);
        const loss = v.getInt16(o, true);
        const best = v.getUint16(o + 2, true);
        const depth = bytes[o + 4]!;
        o += 5;
        const len = varint();
        need(len);
        let refutation = '';
        try {
          refutation = fromUtf8.decode(bytes.subarray(o, o + len));
        } catch {
          fail(o, 'refutation is not UTF-8');
        }
        o += len;
        n.audit = { loss, best, depth, refutation };
      }
    }
    if (o !== bytes.length) fail(o, `${bytes.length - o} bytes after the last note`);
    return notes;
  }
}
