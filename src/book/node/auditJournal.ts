/**
 * The journal of a book audit: one JSON line per position searched, appended and synced to
 * disk (fsync) before the next position is counted done, so an audit killed at any moment
 * loses at most the positions being searched. The first line names the search limit the
 * verdicts were found with; a rerun with another limit is refused rather than mixing verdicts.
 *
 * A kill in the middle of a write leaves a last line cut short: reading drops it (and cuts it
 * off the file before anything is appended). A damaged line elsewhere is an error naming the
 * line. Positions are known by their Polyglot key and FEN; a later line for the same position
 * (searched again for moves its first line lacked) replaces the earlier one.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ioReason } from './atomicWrite.js';
import type { AuditLimits, PositionVerdict } from '../audit/verdict.js';

const FORMAT = 'tabiya-audit-journal';

export interface JournalHeader {
  format: typeof FORMAT;
  version: 1;
  limits: AuditLimits;
}

/** A journal line: a position's verdict (its walk index is not kept: it depends on the thresholds). */
export type JournalRecord = Omit<PositionVerdict, 'index'> & { key: string };

export class JournalError extends Error {
  readonly code = 'ERR_AUDIT_JOURNAL';
}

function limitText(l: AuditLimits): string {
  return l.depth !== undefined ? `--depth ${l.depth}` : `--nodes ${l.nodes}`;
}

export class AuditJournal {
  private fd = -1;

  private constructor(
    readonly path: string,
    /** Verdicts already in the journal, by key. */
    readonly done: Map<string, JournalRecord>,
  ) {}

  /**
   * Opens the journal at `path` for `limits`: reads what it holds (cutting off a torn last
   * line), or creates it with its header. `fresh` starts a new journal over an old one.
   */
  static open(path: string, limits: AuditLimits, fresh = false): AuditJournal {
    // --fresh starts over a journal, never over another file (the book itself, a PGN) given as --journal.
    if (fresh && existsSync(path) && !holdsJournal(path)) throw new JournalError(`${path}: not a tabiya audit journal, so --fresh does not replace it: give another --journal`);
    const read = !fresh && existsSync(path) ? readJournal(path) : undefined;
    if (read !== undefined && read.limits !== undefined && (read.limits.depth !== limits.depth || read.limits.nodes !== limits.nodes)) {
      throw new JournalError(`${path}: the journal holds verdicts searched with ${limitText(read.limits)}, not ${limitText(limits)}: give the same limit, another --journal, or --fresh to start over`);
    }
    const done = read?.done ?? new Map<string, JournalRecord>();
    const keep = read?.limits === undefined ? -1 : read.complete;
    const journal = new AuditJournal(path, done);
    try {
      if (keep < 0) {
        // New (or unreadable header cut short): write the header.
        journal.fd = openSync(path, 'w');
        journal.write(JSON.stringify({ format: FORMAT, version: 1, limits } satisfies JournalHeader));
        syncDirectory(path);
      } else {
        journal.fd = openSync(path, 'r+');
        ftruncateSync(journal.fd, keep);
        closeSync(journal.fd);
        journal.fd = openSync(path, 'a');
      }
    } catch (e) {
      if (e instanceof JournalError) throw e;
      throw new JournalError(`${path}: cannot write the journal: ${ioReason(e)}`);
    }
    return journal;
  }

  /** Records a finished position (synced before returning). */
  append(key: string, v: PositionVerdict): void {
    const record: JournalRecord = { key, fen: v.fen, best: v.best, bestScore: v.bestScore, bestLine: v.bestLine, depth: v.depth, nodes: v.nodes, moves: v.moves };
    this.done.set(key, record);
    try {
      this.write(JSON.stringify(record));
    } catch (e) {
      throw new JournalError(`${this.path}: cannot write the journal: ${ioReason(e)}`);
    }
  }

  private write(line: string): void {
    const bytes = Buffer.from(line + '\n');
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

/**
 * Reads a journal without changing it: the search limit of its header (undefined when even the
 * header was cut short), the verdicts by key, and the bytes of its whole lines (what a torn last
 * line is cut back to). A damaged line other than the last is an error naming it.
 */
export function readJournal(path: string): { limits: AuditLimits | undefined; done: Map<string, JournalRecord>; complete: number } {
  const done = new Map<string, JournalRecord>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new JournalError(`${path}: cannot read the journal: ${ioReason(e)}`);
  }
  const lines = text.split('\n');
  let limits: AuditLimits | undefined;
  let complete = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const last = i === lines.length - 1;
    if (last && line === '') break;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Only the last line can be cut short by a kill: it has no newline after it. A first line
      // that is not the start of a journal header is another file, which a new journal would
      // overwrite: refused.
      if (last && (i > 0 || tornHeader(line))) break;
      if (last || i === 0) throw new JournalError(`${path}:1: not a tabiya audit journal`);
      throw new JournalError(`${path}:${i + 1}: damaged journal line (not JSON); delete the journal or give --fresh to start over`);
    }
    // Every write ends its line: a last line without one was cut short, even if it reads.
    if (last && (i > 0 || tornHeader(line))) break;
    if (last) throw new JournalError(`${path}:1: not a tabiya audit journal`);
    if (i === 0) {
      const h = value as Partial<JournalHeader>;
      if (h.format !== FORMAT || h.version !== 1 || typeof h.limits !== 'object') throw new JournalError(`${path}:1: not a tabiya audit journal`);
      limits = h.limits;
    } else {
      const r = value as JournalRecord;
      if (typeof r.key !== 'string' || typeof r.fen !== 'string' || !Array.isArray(r.moves)) throw new JournalError(`${path}:${i + 1}: not a journal record`);
      done.set(r.key, r);
    }
    complete += Buffer.byteLength(line) + 1;
  }
  return { limits, done, complete };
}

/** Makes a new file's directory entry durable (where the platform allows it). */
function syncDirectory(path: string): void {
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some systems cannot open or sync a directory; the file's own data is synced anyway.
  }
}

/** The start of every journal's header line, as AuditJournal.open writes it. */
const HEADER_START = `{"format":"${FORMAT}","version":1,"limits":{`;

/** Whether the file at `path` is empty or starts like a journal (its header, whole or cut short by a kill). */
function holdsJournal(path: string): boolean {
  let head: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const bytes = Buffer.alloc(4096);
      head = bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw new JournalError(`${path}: cannot read the journal: ${ioReason(e)}`);
  }
  const first = head.split('\n', 1)[0]!;
  return head === '' || tornHeader(first);
}

/** A first line without its newline that a kill may have cut from a journal header. */
function tornHeader(line: string): boolean {
  return HEADER_START.startsWith(line) || line.startsWith(HEADER_START);
}
