/**
 * The rules every command that writes a file applies to its outputs before it reads or writes
 * anything, so that no command destroys what it was not asked to replace:
 *
 * 1. An output is never one of the command's inputs: the same file after following symlinks
 *    and hard links (same device and inode when the output exists, same resolved path when it
 *    does not), and the file on standard input when an input is `-` (`-o -` is likewise
 *    refused when standard output is redirected into an input). Two outputs of one command are
 *    never the same file either. `--force` does not change this.
 * 2. An output that exists and holds something the command does not write is kept unless the
 *    user gives `--force`: a `.tbk` book with user values or learned results (`book make`
 *    would replace them with bare game counts; `book add` adds games to it), a file that is
 *    not a `.tbk` under a `.tbk` output, a file that is not a Polyglot book under a `.bin`
 *    output, binary data under a text output (PGN, EPD, JSON, SVG).
 * 3. PGN appended to a file (`--pgnout`) goes only into a file that is missing, empty or PGN
 *    text, and never into a file named like a book or an archive (.bin, .tbk, .gz); other text
 *    (an engine's stderr log) is appended only to a text file.
 * 4. A directory, or a path whose directory does not exist or cannot be written, is refused at
 *    once rather than after the work.
 * 5. A name promises a format: a text output is not named like a compressed file (.gz), and a
 *    Polyglot book is not named like text (.pgn, .epd, .json).
 *
 * Every refusal is an OutputRefused error (exit status 1) whose message names the file and
 * says what to do. Checking an output also removes the temporary files that dead tabiya
 * processes left next to it (tempFiles.ts).
 */
import { tbkFileVersion } from '../book/node/openTbk.js';
import { TbkBook } from '../book/rich/tbkBook.js';
import { FileReader } from '../book/node/tbkFile.js';
import { openRichBook } from '../book/node/richFile.js';
import { closeSync, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { E_DYN_DRAWS, E_DYN_LOSSES, E_DYN_WINS, E_FLAGS, E_USER, EF_POSTBOOK, ENTRY_SIZE, HEADER_SIZE, USER_NONE, readHeader, TBK_MAGIC } from '../book/rich/format.js';
import { NAME_MAX, registerTemp, releaseTemp, removeQuietly, sweepStaleTemps, tempPathFor } from './tempFiles.js';
import { ioReason } from '../book/node/atomicWrite.js';

/** What a command writes into an output. */
export type OutputKind = 'pgn' | 'text' | 'polyglot' | 'tbk';

export interface OutputSpec {
  /** The path the user gave; `-` is standard output. */
  path: string;
  kind: OutputKind;
  /** replace (default): written anew; append: appended to (match --pgnout, an engine's stderr log); update: a book changed in place (book add, set, ...). */
  mode?: 'replace' | 'append' | 'update';
  /** What to suggest instead of --force when an existing file would be lost (e.g. "use book add to count more games into it"). */
  instead?: string;
  /** The option that names it (`-o`, `--plot`), said when two outputs are one file. */
  option?: string;
}

export interface OutputCheckOptions {
  /** The user gave --force: replace an existing file that holds something else (rule 2). */
  force?: boolean;
  /** Said after "write to another file" when an output is an input (e.g. why merge does not update in place). */
  sameFileHint?: string;
}

/** A refusal to write an output; nothing has been written. */
export class OutputRefused extends Error {
  readonly code = 'ERR_OUTPUT_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'OutputRefused';
  }
}

/** Applies rules 1 to 5 to the outputs of one command (see the module comment). */
export function checkOutputs(outputs: readonly OutputSpec[], inputs: readonly string[], opts: OutputCheckOptions = {}): void {
  const ins = inputs.map((path) => ({ path, id: path === '-' ? fdIdentity(0) : pathIdentity(path) }));
  const seen: { path: string; id: string; option?: string }[] = [];
  for (const out of outputs) {
    if (out.path === '-') {
      const id = fdIdentity(1);
      const clash = id === undefined ? undefined : ins.find((i) => i.id === id);
      if (clash !== undefined) throw new OutputRefused(`standard output is redirected into the input ${clash.path}: write to another file`);
      continue;
    }
    // A name past the file system's limit (NAME_MAX: 255 bytes on ext4, XFS, Btrfs, NTFS) is
    // refused before any output is opened: a match's PGN would be made before its journal failed.
    const nameBytes = Buffer.byteLength(basename(out.path));
    if (nameBytes > NAME_MAX) throw new OutputRefused(`${out.path}: cannot write: its name is ${nameBytes} bytes, more than the ${NAME_MAX} a file name may have; nothing was written`);
    // Text is written as it is: a compressed file's name would promise what the file is not.
    const packed = (out.kind === 'text' || out.kind === 'pgn') && out.mode !== 'append' ? /\.(gz|zst|bz2|xz)$/i.exec(out.path)?.[1] : undefined;
    if (packed !== undefined) throw new OutputRefused(`${out.path}: the output is plain text, not .${packed.toLowerCase()}: give a name without .${packed} (and compress the file afterwards if you want)`);
    const st = statOrUndefined(out.path);
    if (st !== undefined && st.isDirectory()) throw new OutputRefused(`${out.path}: is a directory, not a file to write`);
    if (st === undefined && statOrUndefined(dirname(out.path))?.isDirectory() !== true) throw new OutputRefused(`${out.path}: cannot write: no such directory ${dirname(out.path)}`);
    // Devices and FIFOs (/dev/null, a named pipe) are written to, never replaced.
    if (st !== undefined && !st.isFile()) continue;
    const id = pathIdentity(out.path)!;
    const clash = ins.find((i) => i.id === id);
    if (clash !== undefined) {
      const which = clash.path === '-' ? 'the file on standard input' : clash.path === out.path ? 'also an input' : `the same file as the input ${clash.path}`;
      throw new OutputRefused(`${out.path} is ${which}: write to another file${opts.sameFileHint ? ` (${opts.sameFileHint})` : ''}; nothing was written`);
    }
    const twin = seen.find((s) => s.id === id);
    const named = (o: { path: string; option?: string }): string => (o.option === undefined ? o.path : `${o.path} (${o.option})`);
    if (twin !== undefined) throw new OutputRefused(`${named(out)} and ${named(twin)} are the same file: give each output its own file`);
    seen.push({ path: out.path, id, option: out.option });
    // A Polyglot book is binary: under a text format's name (`book export x.tbk -o x.pgn`) it
    // would be taken for what it is not. tabiya writes no book as PGN, EPD or JSON.
    const texty = out.kind === 'polyglot' ? /\.(pgn|epd|json|txt|csv|svg)$/i.exec(out.path)?.[1] : undefined;
    if (texty !== undefined) throw new OutputRefused(`${out.path}: the output is a Polyglot book (binary), not .${texty.toLowerCase()}: give a name ending in .bin (book dump prints a book as text)`);
    checkContent(out, st, opts.force === true);
    const target = st === undefined ? out.path : realpathSync(out.path);
    sweepStaleTemps(target);
    if ((out.mode ?? 'replace') !== 'append') probeWritable(out.path, target);
  }
}

/**
 * Rule 4 for a directory that exists but cannot be written (read-only, no permission, /proc):
 * the temporary file the output will be written to is made and removed now, so the refusal
 * comes at once rather than when the work is done (a book built, a fit run for its time budget).
 */
function probeWritable(path: string, target: string): void {
  const probe = tempPathFor(target);
  registerTemp(probe);
  try {
    closeSync(openSync(probe, 'wx', 0o600));
  } catch (e) {
    throw new OutputRefused(`${path}: cannot write: ${ioReason(e)}`);
  } finally {
    removeQuietly(probe, false);
    releaseTemp(probe);
  }
}

/** Rules 2 and 3: what an existing output holds. */
function checkContent(out: OutputSpec, st: Stats | undefined, force: boolean): void {
  const mode = out.mode ?? 'replace';
  if (mode === 'update') {
    // A book to change must be one before its inputs are read (a .bin given to book learn).
    if (out.kind === 'tbk' && st !== undefined && tbkFileVersion(out.path) === undefined) throw new OutputRefused(notTbkReason(out.path));
    return;
  }
  if (mode === 'append' && out.kind !== 'pgn') {
    const kind = st === undefined || st.size === 0 ? 'text' : sniff(out.path, st.size);
    if (kind !== 'text' && kind !== 'PGN text') throw new OutputRefused(`${out.path} exists and holds ${kind}: text is only appended to a text file; give another file name`);
    return;
  }
  if (mode === 'append') {
    const ext = /\.(bin|tbk|gz)$/i.exec(out.path)?.[1]?.toLowerCase();
    if (ext !== undefined) throw new OutputRefused(`${out.path}: PGN is not written into a .${ext} file (a book or an archive): give a .pgn name`);
    if (st === undefined || st.size === 0) return;
    const kind = sniff(out.path, st.size);
    if (kind !== 'PGN text') throw new OutputRefused(`${out.path} exists and is not PGN (it looks like ${kind}): PGN is only appended to a PGN file; give another file name`);
    return;
  }
  if (st === undefined || st.size === 0) return;
  const kind = sniff(out.path, st.size);
  const lost = (what: string, instead?: string): never => {
    throw new OutputRefused(`${out.path} ${what}; ${instead ? `${instead}, or give` : 'give'} --force to replace it`);
  };
  if (force) return;
  if (out.kind === 'tbk') {
    if (kind !== 'a .tbk book') lost(`exists and is not a .tbk book (it looks like ${kind})`);
    const held = tbkUserData(out.path);
    if (typeof held === 'string') return lost(`is a damaged .tbk book (${held})`);
    if (held.length > 0) lost(`holds ${held.join(' and ')}, which would be lost`, out.instead);
    return;
  }
  if (out.kind === 'polyglot') {
    if (kind !== 'binary data' || st.size % 16 !== 0) lost(`exists and is not a Polyglot book (it looks like ${kind === 'binary data' ? `binary data of ${st.size} bytes, not a multiple of 16` : kind})`);
    return;
  }
  if (kind !== 'PGN text' && kind !== 'text') lost(`exists and holds ${kind}, not text`);
}

const HEAD = 4096;

/** What a file's first bytes look like. */
function sniff(path: string, size: number): string {
  const head = new Uint8Array(Math.min(size, HEAD));
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    readSync(fd, head, 0, head.length, 0);
  } catch {
    return 'an unreadable file';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (head.length >= 8 && String.fromCharCode(...head.subarray(0, 8)) === TBK_MAGIC) return 'a .tbk book';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip-compressed data';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4) return 'a ZIP archive';
  for (const c of head) if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) return 'binary data';
  const text = Buffer.from(head).toString('utf8').replace(/^\uFEFF/, '');
  const first = /^\s*(\S.*)?/.exec(text)?.[1] ?? '';
  return /^(\[\w+\s+"|\d+\s*\.|[{;%])/.test(first) ? 'PGN text' : 'text';
}

/** Why a file is not a `.tbk` book, in the reader's words (what it looks like instead). */
function notTbkReason(path: string): string {
  try {
    // Read from disk (no memory limit to fill): the header decides.
    openRichBook(path, { memoryLimit: 0 }).close();
  } catch (e) {
    return (e as Error).message;
  }
  return `${path}: not a .tbk book`;
}

/** The user values and learned results of a `.tbk`, as phrases (empty: none), or why it cannot be read. */
function tbkUserData(path: string): string[] | string {
  let counts: { user: number; nags: number; comments: number; learned: number; postBook: number; learnedGames: number };
  try {
    counts = tbkFileVersion(path) === 2 ? v2UserData(path) : v1UserData(path);
  } catch (e) {
    return (e as Error).message;
  }
  const { user, nags, comments, learned, postBook, learnedGames } = counts;
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  const out: string[] = [];
  if (user > 0) out.push(plural(user, 'user value'));
  if (nags > 0) out.push(plural(nags, 'NAG'));
  if (comments > 0) out.push(plural(comments, 'comment'));
  if (learnedGames > 0 || learned > 0 || postBook > 0) {
    const games = learnedGames > 0 ? ` from ${plural(learnedGames, 'game')}` : '';
    const detail = [learned > 0 ? `${plural(learned, 'move')} with learned results` : '', postBook > 0 ? plural(postBook, 'PostBook record') : '']
      .filter((x) => x !== '')
      .join(', ');
    out.push(`learning${games}${detail !== '' ? ` (${detail})` : ''}`);
  }
  return out;
}


/** What a version 2 book's notes hold. */
function v2UserData(path: string): { user: number; nags: number; comments: number; learned: number; postBook: number; learnedGames: number } {
  const file = new FileReader(path);
  try {
    const r = TbkBook.open(file, path);
    if (!r.ok) throw new Error(r.error.message.replace(`${path}: `, ''));
    const c = { user: 0, nags: 0, comments: 0, learned: 0, postBook: 0, learnedGames: r.value.fields.learnedGames };
    for (const n of r.value.notes.all()) {
      if (n.userValue >= 0) c.user++;
      if (n.nag !== 0) c.nags++;
      if (n.comment !== '') c.comments++;
      if (n.postBook) c.postBook++;
      else if (n.dynWins + n.dynDraws + n.dynLosses > 0) c.learned++;
    }
    return c;
  } finally {
    file.close();
  }
}

/** What a version 1 book's entries hold. */
function v1UserData(path: string): { user: number; nags: number; comments: number; learned: number; postBook: number; learnedGames: number } {
  let bytes: Uint8Array;
  const fd = openSync(path, 'r');
  try {
    bytes = new Uint8Array(fstatSync(fd).size);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  const header = readHeader(bytes.subarray(0, Math.min(bytes.length, HEADER_SIZE)), bytes.length);
  if (typeof header === 'string') throw new Error(header);
  const c = { user: 0, nags: 0, comments: 0, learned: 0, postBook: 0, learnedGames: header.learnedGames };
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0, o = header.entriesOffset; i < header.entries; i++, o += ENTRY_SIZE) {
    if (bytes[o + E_USER] !== USER_NONE) c.user++;
    if ((bytes[o + E_FLAGS]! & EF_POSTBOOK) !== 0) c.postBook++;
    else if (v.getUint32(o + E_DYN_WINS) + v.getUint32(o + E_DYN_DRAWS) + v.getUint32(o + E_DYN_LOSSES) > 0) c.learned++;
  }
  return c;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The identity of a path: device and inode when it exists, else its resolved absolute path. */
function pathIdentity(path: string): string | undefined {
  const st = statOrUndefined(path);
  if (st !== undefined) return st.isFile() ? `${st.dev}:${st.ino}` : undefined;
  return `path:${resolveLoosely(resolve(path))}`;
}

/** The identity of a descriptor that is a regular file (stdin or stdout redirected to a file). */
function fdIdentity(fd: number): string | undefined {
  try {
    const st = fstatSync(fd);
    return st.isFile() ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** realpath of the longest existing prefix, the rest appended (for paths that do not exist yet). */
function resolveLoosely(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(resolveLoosely(parent), basename(path));
  }
}
