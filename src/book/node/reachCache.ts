/**
 * Reach indexes kept between runs. Walking a large book takes seconds (every position is probed:
 * tens of seconds for a 389k-game `.tbk` on a loaded machine), and `book reach` or an engine
 * with BookReturn would pay it at every start. The index is saved once per book and walk options
 * in the user's cache directory (XDG Base Directory: `$XDG_CACHE_HOME/tabiya/reach`, default
 * `~/.cache/tabiya/reach`; `TABIYA_CACHE_DIR` overrides), as ccache and pip keep derived data.
 *
 * A cached index is used only when its fingerprint matches the book as it is now: resolved path,
 * size, modification time, inode and device (a book rewritten by `book add` gets a new file; one
 * whose notes `book set`, `book audit --mark` or learning change in place, a new size and
 * modification time), and the walk's options. A file that is damaged or of another book is rebuilt
 * and replaced; a cache that cannot be written (read-only home) costs only the time.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { decodeReachIndex, encodeReachIndex, REACH_FILE_VERSION } from '../reach/indexFile.js';
import { RECOVER_BEFORE_PLY, ReachIndex, type MovesOf, type WalkOptions } from '../reach/reachIndex.js';
import { writeFileAtomicSync } from './atomicWrite.js';
import { fastCrc32 } from './richFile.js';

export interface CachedIndex {
  index: ReachIndex;
  /** The index came from the cache (no walk). */
  cached: boolean;
  /** The cache file, or undefined when caching is off. */
  file?: string;
  /** Why a cache file was not used or not written (damaged, unwritable), for a note. */
  note?: string;
}

/** The directory of cached reach indexes. */
export function reachCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TABIYA_CACHE_DIR) return join(env.TABIYA_CACHE_DIR, 'reach');
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'tabiya', 'reach');
}

/**
 * The reach index of the book at `path` (walked through `movesOf`) from the cache when it is
 * there and current, else walked and saved. `cache: false` walks and saves nothing.
 */
export function cachedReachIndex(path: string, movesOf: MovesOf, opts: WalkOptions & { cache?: boolean; dir?: string } = {}): CachedIndex {
  const walk = (): ReachIndex => ReachIndex.build(movesOf, opts);
  if (opts.cache === false) return { index: walk(), cached: false };
  let real: string;
  let stat: ReturnType<typeof statSync>;
  try {
    real = realpathSync(path);
    stat = statSync(real);
  } catch {
    return { index: walk(), cached: false };
  }
  const fingerprint = JSON.stringify({
    version: REACH_FILE_VERSION,
    book: real,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    ino: stat.ino,
    dev: stat.dev,
    minGames: opts.minGames ?? 1,
    maxPositions: opts.maxPositions ?? 4_000_000,
    startFen: opts.startFen ?? null,
    // Boards recovered from the book's games: the limit they were recovered under.
    recoverBeforePly: opts.moreRoots !== undefined ? RECOVER_BEFORE_PLY : null,
  });
  const dir = opts.dir ?? reachCacheDir();
  // One file per book and options: a changed book replaces its own entry instead of adding one.
  const name = createHash('sha256').update(JSON.stringify({ book: real, minGames: opts.minGames ?? 1, maxPositions: opts.maxPositions, startFen: opts.startFen })).digest('hex').slice(0, 32);
  const file = join(dir, `${name}.reach`);
  let note: string | undefined;
  let bytes: Uint8Array | undefined;
  try {
    bytes = readFileSync(file);
  } catch {
    // Not cached yet.
  }
  if (bytes !== undefined) {
    const r = decodeReachIndex(bytes, fingerprint, fastCrc32);
    if (r.ok) return { index: r.index, cached: true, file };
    // Another version of the book is the expected case; a damaged file is worth a word.
    if (!r.why.startsWith('made for another')) note = `${file}: ${r.why}; indexed the book again`;
  }
  const index = walk();
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomicSync(file, encodeReachIndex(index, fingerprint, fastCrc32));
  } catch (e) {
    note = `cannot save the index in ${dir}: ${(e as Error).message}`;
  }
  return { index, cached: false, file, note };
}
