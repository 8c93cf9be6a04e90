/**
 * The books a `tabiya serve` serves: only those named on its command line, each under a short
 * id made from its file name. A request names a book by id and never by path, so no request
 * reaches the file system. Reads go through the open book; a change to a `.tbk` (version 2)
 * goes through `changeNotes` (crash-safe, under the book's lock), after which the book is
 * opened again so every later read sees it. A change another process makes to a served file
 * (`.tbk` or `.bin`) is seen by looking at the file now and then (refresh).
 */
import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { JobCancelled, runBookJob } from '../book/node/bookJob.js';
import { sweepStaleWorkDirs } from '../book/node/workDir.js';
import { ioReason } from '../book/node/atomicWrite.js';
import { hostTag, registerTempDir, releaseTemp } from '../node/tempFiles.js';
import { textInputProblem } from '../node/textFile.js';
import { openBook, type Book } from '../book/node/openBook.js';
import { openAnyRichBook, tbkFileVersion, type AnyRichBook } from '../book/node/openTbk.js';
import { changeNotes } from '../book/node/tbkFile.js';
import { splitLearn } from '../book/polyglot/format.js';
import type { BookMove } from '../book/polyglot/select.js';
import { BookMoves } from '../book/rich/bookMoves.js';
import { tableOrder } from '../book/rich/tableOrder.js';
import { noteHasData } from '../book/rich/notes.js';
import type { BookEntry } from '../book/rich/tbkBook.js';
import type { GameReader } from '../book/rich/gameReader.js';
import { bookGame, gameFacts, gameOfMove, type BookGame, type GameFacts } from '../book/rich/bookGame.js';
import { parsePolicy, policyProbabilities, type BookPolicyConfig } from '../book/select/index.js';
import type { Position } from '../core/position.js';
import { makeSan } from '../notation/san.js';
import { makeUci } from '../notation/uci.js';
import type { MoveFacts } from './explorer.js';
import { KeyTable } from './keyTable.js';

/** What a change to a move's notes sets; a field left out stays as it is, null clears it. */
export interface NotePatch {
  userValue?: number | null;
  nag?: number | null;
  comment?: string | null;
  forbidden?: boolean;
}

/**
 * How long an edit waits for a lock another process holds (a CLI command on the same book):
 * the wait blocks the server, so it is short; past it the request gets 503.
 */
const EDIT_LOCK = { timeoutMs: 2000 };

/** Positions whose movers' mean rating a served book keeps (a few MB). */
const MOVER_ELO_ENTRIES = 100_000;

/** The temporary directory of an import's PGN: `<tmp>/tabiya-serve-import-<pid>-<random>`. */
export const IMPORT_PREFIX = 'tabiya-serve-import-';

/** How often a served book's file is looked at for changes made by other processes (ms). */
const STAT_EVERY_MS = 250;

export class EditError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An open `.bin` and the probes reading it. A book too big to be read whole is read through a
 * file handle, one block per step of its binary search, each an await: a book replaced while a
 * probe runs is closed only when its last probe has finished.
 */
class HeldBin {
  users = 0;
  retired = false;
  constructor(readonly book: Book) {}

  async moves(pos: Position): Promise<BookMove[]> {
    this.users++;
    try {
      return await this.book.moves(pos);
    } finally {
      if (--this.users === 0 && this.retired) await this.book.close();
    }
  }

  /** No probe starts on it any more; it is closed when the running ones have finished. */
  async retire(): Promise<void> {
    this.retired = true;
    if (this.users === 0) await this.book.close();
  }
}

/** An import cancelled before it finished (the server stopping); `written`: it had already renamed the new book into place. */
export class ImportCancelled extends Error {
  constructor(readonly written: boolean) {
    super(written ? 'the import was cancelled as it finished: the book holds its games' : 'the import was cancelled: nothing was written to the book');
    this.name = 'ImportCancelled';
  }
}

export class ServedBook {
  private bin: HeldBin | undefined;
  private rich: AnyRichBook | undefined;
  /** Counts the times the book was opened again (a change made here or by another process): answers kept for an older one are stale. */
  revision = 0;
  /**
   * Mean rating of the movers of positions probed for replyElo, by Zobrist key: a position's
   * moves are probed again as soon as a visitor plays into it (emptied at every change).
   */
  private readonly moverElo = new KeyTable(MOVER_ELO_ENTRIES);
  /** The replies' moves, probed without an object a move. */
  private readonly replies = new BookMoves();
  /** The file as last opened (fileId), and when to look at it again. */
  private seen = '';
  private nextStat = 0;
  /** A .bin being opened again: requests wait for it rather than read the replaced book. */
  private reopening: Promise<void> | undefined;
  /** The state of the file last found unreadable (warned about once). */
  private unreadable = '';

  private constructor(
    readonly id: string,
    readonly path: string,
    readonly format: 'bin' | 'tbk',
    /** Version of a .tbk (1 or 2); 0 for a .bin. */
    readonly version: number,
    /** A .bin up to this many bytes is read whole (openBook's memoryLimit). */
    private readonly binMemoryLimit: number | undefined,
  ) {}

  static async open(id: string, path: string, opts: { binMemoryLimit?: number } = {}): Promise<ServedBook> {
    const tbk = path.toLowerCase().endsWith('.tbk');
    const b = new ServedBook(id, path, tbk ? 'tbk' : 'bin', tbk ? (tbkFileVersion(path) ?? 0) : 0, opts.binMemoryLimit);
    b.seen = fileId(path);
    b.nextStat = Date.now() + STAT_EVERY_MS;
    if (tbk) b.rich = openAnyRichBook(path);
    else b.bin = new HeldBin(await openBook(path, { memoryLimit: opts.binMemoryLimit }));
    return b;
  }

  /** Notes can be changed: a version 2 .tbk. */
  get editable(): boolean {
    return this.format === 'tbk' && this.version === 2;
  }

  /** The book moves of `pos`, most played (or heaviest) first, with the policy's probabilities. */
  async moves(pos: Position, policy: BookPolicyConfig): Promise<MoveFacts[]> {
    if (this.bin !== undefined) {
      const moves = await this.bin.moves(pos);
      const total = moves.reduce((n, m) => n + m.weight, 0);
      // Polyglot's weighted choice: a move's chance is its share of the weights.
      return moves.map((m) => {
        const l = splitLearn(m.learn);
        return {
          move: m.move,
          uci: m.uci,
          games: 0,
          wins: 0,
          draws: 0,
          losses: 0,
          avgElo: 0,
          opponentElo: 0,
          weight: m.weight,
          probability: total > 0 ? m.weight / total : 0,
          userValue: null,
          nag: null,
          comment: null,
          forbidden: false,
          byHand: false,
          repeats: null,
          game: null,
          audit: null,
          learned: m.learn === 0 ? null : { games: l.games, points: l.points / 2 },
        };
      });
    }
    const found = this.rich!.probe(pos) as BookEntry[];
    // The policy sees the book's order, as the engine does (its ties go to the first); the table
    // is listed as `book probe` lists it (tableOrder.ts).
    const inBook = policyProbabilities(policy, found);
    const order = tableOrder(found);
    const entries = order.map((i) => found[i]!);
    const probability = order.map((i) => inBook[i]!);
    return entries.map((e, i) => ({
      opponentElo: this.replyElo(pos, e.move),
      move: e.move,
      uci: makeUci(e.move, pos.chess960),
      games: played(e),
      wins: e.wins,
      draws: e.draws,
      losses: e.losses,
      avgElo: e.avgElo,
      weight: e.weight,
      probability: probability[i]!,
      userValue: e.userValue < 0 ? null : e.userValue,
      nag: e.nag || null,
      comment: e.comment || null,
      forbidden: e.forbidden ?? false,
      // pgN counts every occurrence: a move a game played only before it came back to the
      // position (a repeat, docs/rich-books.md) has no game and may have no weight, but was played.
      byHand: !e.postBook && played(e) + (e.unfinished ?? 0) + (e.weight ?? 0) + (e.pgN ?? 0) === 0,
      repeats: repeatsOf(e),
      game: typeof e.game === 'number' && e.game >= 0 ? this.gameFacts(e.game) : this.oneGameOf(pos, e),
      audit: e.audit ? { loss: e.audit.loss, best: e.audit.best !== 0 ? makeUci(e.audit.best, pos.chess960) : null, depth: e.audit.depth, refutation: e.audit.refutation === '' ? [] : e.audit.refutation.split(' ') } : null,
      learned: e.dynWins + e.dynDraws + e.dynLosses > 0 ? { wins: e.dynWins, draws: e.dynDraws, losses: e.dynLosses } : null,
    }));
  }

  /**
   * The mean rating of the players who answered `move` in `pos`: those who made the moves of
   * the position after it (0: none rated). The book keeps only the mover's rating per move, so
   * this is the opponents' rating of the games through the move as near as it can say: the
   * position after the move counts also the games that reached it by another order, and not
   * those that ended there.
   */
  private replyElo(pos: Position, move: number): number {
    pos.play(move);
    let elo = this.moverElo.get(pos.keyHi, pos.keyLo);
    if (elo === undefined) {
      let sum = 0;
      let rated = 0;
      const book = this.rich!;
      if (book.probeMoves !== undefined) {
        const m = this.replies;
        const n = book.probeMoves(pos, m);
        for (let i = 0; i < n; i++) {
          sum += m.avgElo(i) * m.rated[i]!;
          rated += m.rated[i]!;
        }
      } else {
        for (const r of book.probe(pos)) {
          sum += r.avgElo * r.ratedGames;
          rated += r.ratedGames;
        }
      }
      elo = rated > 0 ? sum / rated : 0;
      // Bounded: emptied when full (a walk through the book refills what it needs).
      if (this.moverElo.size >= MOVER_ELO_ENTRIES) this.moverElo.clear();
      this.moverElo.set(pos.keyHi, pos.keyLo, elo);
    }
    pos.undo();
    return elo;
  }

  /**
   * Sets notes of `move` in `pos` (adding the move when the book lacks it). Everything is
   * checked before the book is touched, and the change is one crash-safe commit.
   */
  editMove(pos: Position, move: number, patch: NotePatch): { added: boolean } {
    this.mustEdit();
    const black = pos.turn === 1;
    const r = this.onFile(() => changeNotes(
      this.path,
      (book) => {
        const known = book.movesOf(pos.keyHi, pos.keyLo).find((e) => e.move === move);
        const note = book.notes.edit(pos.keyHi, pos.keyLo, move, black);
        if (patch.userValue !== undefined) note.userValue = patch.userValue ?? -1;
        if (patch.nag !== undefined) note.nag = patch.nag ?? 0;
        if (patch.comment !== undefined) note.comment = patch.comment ?? '';
        if (patch.forbidden !== undefined) note.forbidden = patch.forbidden;
        // A hand-set note makes the move a book move, even where only the PostBook had it.
        note.postBook = false;
        // A move that no game played is in the book only through its note, and a note that holds
        // nothing is not kept: refuse rather than answer "added" for a move that is not there.
        const games = known === undefined ? 0 : played(known) + known.unfinished;
        if (games === 0 && !noteHasData(note)) {
          throw new EditError(
            400,
            known === undefined
              ? `${makeSan(pos, move)} is added with a note: give it a user value, a NAG, a comment or the forbidden mark`
              : `${makeSan(pos, move)} is in the book only through its note: Remove takes it away; a note with nothing in it would too`,
          );
        }
        return { result: { added: known === undefined } };
      },
      EDIT_LOCK,
    ));
    this.reopen();
    return r;
  }

  /** Removes a move that only notes hold (one added by hand); a move with games cannot go. */
  removeMove(pos: Position, move: number): void {
    this.mustEdit();
    this.onFile(() => changeNotes(this.path, (book) => {
      const known = book.movesOf(pos.keyHi, pos.keyLo).find((e) => e.move === move);
      if (known === undefined) throw new EditError(404, `${makeUci(move, pos.chess960)} is not in the book here`);
      const games = played(known) + known.unfinished;
      if (games > 0) throw new EditError(409, `${makeUci(move, pos.chess960)} was played in ${games} games of the book: mark it forbidden instead`);
      book.notes.remove(pos.keyHi, pos.keyLo, move);
      return { result: undefined };
    }, EDIT_LOCK));
    this.reopen();
  }

  /**
   * Counts the games of a PGN text into the book (as `book make -o X.tbk` adds to an existing
   * book: crash-safe, under its lock, notes kept), then opens it again. Broken games are
   * skipped and counted.
   */
  async importPgn(
    text: string | Uint8Array,
    name: string,
    onProgress: (done: number, total: number, games: number) => void,
    onWriting?: (done: number, total: number) => void,
    signal?: AbortSignal,
    replay: { threads?: number; replayThreadGames?: number } = {},
  ): Promise<{ gamesUsed: number; gamesSkipped: number; errors: string[]; threads: number }> {
    this.mustEdit();
    // Whether a cancelled import wrote the book: a rewrite is a new file renamed into place.
    const before = fileId(this.path);
    // The PGN's copy: named with our pid and machine (TMPDIR may be shared by several) and
    // removed if the server stops (SIGINT, SIGTERM, SIGHUP) before the import ends; one left by a
    // server of this machine killed outright is removed here, next time.
    sweepStaleWorkDirs(tmpdir(), IMPORT_PREFIX);
    // The copy's directory full (or missing) is said as such: Node's message named neither the
    // directory nor the file ("ENOSPC: no space left on device, write").
    const copyFailed = (e: unknown): Error => new Error(`${name}: cannot write the import's copy in ${tmpdir()}: ${ioReason(e)} (the server's temporary directory: TMPDIR chooses it)`);
    const dir = await mkdtemp(join(tmpdir(), `${IMPORT_PREFIX}${process.pid}@${hostTag()}-`)).catch((e: unknown) => {
      throw copyFailed(e);
    });
    registerTempDir(dir);
    const errors: string[] = [];
    const pgn = join(dir, 'import.pgn');
    try {
      await writeFile(pgn, text).catch((e: unknown) => {
        throw copyFailed(e);
      });
      // What the command line refuses before reading (UTF-16, binary data, damaged gzip) is
      // refused here in its words, not as the first of a file's worth of unreadable tokens.
      const problem = textInputProblem(pgn, 'PGN text');
      if (problem !== undefined) throw new Error(problem);
      // In a worker thread (bookJob.ts): writing a large book takes seconds to minutes of
      // synchronous work, which on the server's thread would stall every other request. The
      // book's games are replayed on `replay.threads` more (book add --threads).
      const r = await runBookJob(
        { kind: 'add', path: this.path, opts: { inputs: [pgn], inputNames: [name], threads: replay.threads, replayThreadGames: replay.replayThreadGames } },
        {
          onProgress: (done, total, games) => onProgress(done, total, games),
          // The book written anew once the games are read: most of an import into a big book
          // (a minute and more for 389k games' worth), shown as a phase of its own.
          onFinishProgress: (done, total) => onWriting?.(done, total),
          onError: (e) => {
            if (errors.length < 20) errors.push(`line ${e.line}: ${e.message}`);
          },
          signal,
        },
      );
      return { gamesUsed: r.gamesUsed, gamesSkipped: r.gamesSkipped, errors, threads: r.replayThreads ?? 1 };
    } catch (e) {
      // Cancelled (the server stopping): the book job stopped before renaming its new book into
      // place, or, at the very end, just after.
      if (e instanceof JobCancelled || signal?.aborted === true) throw new ImportCancelled(fileId(this.path) !== before);
      // The user knows the file by its own name, not by the server's temporary copy.
      if (e instanceof Error) e.message = e.message.split(pgn).join(name);
      throw e;
    } finally {
      await rm(dir, { recursive: true, force: true });
      releaseTemp(dir);
      this.reopen();
    }
  }

  /**
   * The whole book as Polyglot bytes: a .bin as it is on disk, a version 2 .tbk as `book export`
   * writes it with its defaults (make-book's thresholds).
   */
  async polyglotBytes(): Promise<Uint8Array> {
    if (this.format === 'bin') return readFile(this.path);
    const v2 = this.rich!.v2;
    if (v2 === undefined) throw new EditError(409, `book ${this.id} is a version 1 .tbk: export it with tabiya book export`);
    // In a worker thread (bookJob.ts), as imports are: a big book's export takes a second or
    // two of synchronous work, which on the server's thread would stall every other request.
    return runBookJob({ kind: 'exportBin', path: this.path });
  }

  /**
   * Refuses a change the book cannot take: a .bin, a version 1 .tbk, or a file that is no longer
   * there (removed or renamed since the server opened it), before anything is written. Without
   * the last, an edit got a 500, and an import a job whose error named the server's own path.
   */
  mustEdit(): void {
    if (this.format !== 'tbk') throw new EditError(409, `book ${this.id} is a Polyglot .bin: only a .tbk keeps notes`);
    if (this.version !== 2) throw new EditError(409, `book ${this.id} is a version 1 .tbk: upgrade it (tabiya book upgrade) to edit it`);
    let st;
    try {
      st = statSync(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new EditError(409, `book ${this.id}: its file ${this.path} is gone (removed or renamed since tabiya serve opened it); nothing was written: put the file back, or start tabiya serve again with its new path (the page shows the book as it was opened)`);
      throw e;
    }
    if (!st.isFile()) throw new EditError(409, `book ${this.id}: ${this.path} is no longer a file (replaced since tabiya serve opened it); nothing was written`);
    // Replaced by a file of another kind (a .bin or a version 1 book written over it): said now,
    // before an import is accepted, not as the error of its job.
    const version = tbkFileVersion(this.path);
    if (version !== 2) throw new EditError(409, `book ${this.id}: ${this.path}: ${version === 1 ? 'now a version 1 .tbk' : 'not a .tbk book'} (the file was replaced or changed since tabiya serve opened it); nothing was written`);
  }

  /**
   * A change of the book's file (changeNotes): a file that is no longer a book it can edit
   * (replaced by another file since the server opened it, or cut short) is refused as an edit
   * the book cannot take (409), naming the book; a lock held elsewhere (503) or a failed write
   * (500) go on as they are.
   */
  private onFile<T>(change: () => T): T {
    try {
      return change();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (e instanceof EditError || code === 'ERR_BOOK_LOCK' || code === 'ERR_BOOK_WRITE' || !(e instanceof Error) || typeof code !== 'string' || !/^ERR_(BOOK|TBK)_/.test(code)) throw e;
      const changed = fileId(this.path) !== this.seen;
      throw new EditError(409, `book ${this.id}: ${e.message.startsWith(this.path) ? e.message : `${this.path}: ${e.message}`}${changed ? ' (the file was replaced or changed since tabiya serve opened it)' : ''}; nothing was written`);
    }
  }

  /** The games a version 2 .tbk keeps (undefined for a .bin, a version 1 book, or a book built without them). */
  private gameReader(): GameReader | undefined {
    return this.rich?.v2?.games;
  }

  /**
   * The game of a move that one game played from a position several games reached (the Lichess
   * explorer gives a move's game whenever it has one): null for any other move.
   */
  private oneGameOf(pos: Position, e: BookEntry): GameFacts | null {
    const book = this.rich?.v2;
    if (book === undefined || e.postBook || played(e) + (e.unfinished ?? 0) !== 1) return null;
    const g = gameOfMove(book, pos, e.move);
    return g === undefined ? null : this.gameFacts(g);
  }

  /** What the Lichess explorer tells of a move's game, game `g` (from 0) of the book. */
  private gameFacts(g: number): GameFacts | null {
    const games = this.gameReader();
    return (games && gameFacts(games, g)) ?? null;
  }

  /**
   * Game `id` (from 1) of the book whole, and the ply at which it last stands in `pos`, from
   * where the page follows it; undefined when the book keeps no such game.
   */
  game(id: number, pos: Position): BookGame | undefined {
    const games = this.gameReader();
    return games === undefined ? undefined : bookGame(games, id - 1, pos);
  }

  /**
   * Opens the book again when another process changed its file (a `tabiya book` command: notes
   * appended to a .tbk, or either kind replaced by `book make -o`, `book merge -o`), so the next
   * answers show the change; the file is looked at (one stat) at most every STAT_EVERY_MS.
   * Undefined when nothing is to wait for (the hot path: no promise made); a .bin is opened
   * again asynchronously, and the promise settles when the new book is in place. A file that
   * cannot be opened (removed, or not a book) leaves the book open as it was, with a warning,
   * and is tried again at the next look.
   */
  refresh(now = Date.now()): Promise<void> | undefined {
    if (this.reopening !== undefined) return this.reopening;
    if (now < this.nextStat) return undefined;
    this.nextStat = now + STAT_EVERY_MS;
    const id = fileId(this.path);
    if (id === this.seen) return undefined;
    if (this.format === 'tbk') {
      this.tryReopen(id, () => this.reopen());
      return undefined;
    }
    this.reopening = (async () => {
      try {
        const next = await openBook(this.path, { memoryLimit: this.binMemoryLimit }).catch((e: Error) => e);
        this.tryReopen(id, () => {
          if (next instanceof Error) throw next;
          // The swap and the new revision together, so an answer made from the old book is
          // never kept under the new revision (responseCache.ts).
          const old = this.bin;
          this.bin = new HeldBin(next);
          this.seen = id;
          this.revision++;
          void old?.retire();
        });
      } finally {
        this.reopening = undefined;
      }
    })();
    return this.reopening;
  }

  private tryReopen(id: string, reopen: () => void): void {
    try {
      reopen();
    } catch (e) {
      if (id !== this.unreadable) {
        this.unreadable = id;
        process.stderr.write(`warning: ${this.path} changed but cannot be opened again (${(e as Error).message}); the book as opened before is served until it can\n`);
      }
    }
  }

  /** Opens the .tbk again (after a change made here or by another process). */
  private reopen(): void {
    const id = fileId(this.path);
    const next = openAnyRichBook(this.path);
    this.seen = id;
    this.nextStat = Date.now() + STAT_EVERY_MS;
    this.revision++;
    this.moverElo.clear();
    this.rich?.close();
    this.rich = next;
  }

  async close(): Promise<void> {
    await this.reopening;
    await this.bin?.retire();
    this.rich?.close();
  }
}

/** Identity and state of a file: inode (replaced by a rename), size and modification time. */
function fileId(path: string): string {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return '';
  }
}

function played(e: { wins: number; draws: number; losses: number }): number {
  return e.wins + e.draws + e.losses;
}

/**
 * A move's occurrences beyond its games: make-book's n counts every occurrence, the games once
 * a position (docs/rich-books.md). Unknown (null) where n reached its cap, 0xffff. A move
 * imported from a Polyglot book has no n: 0. So has every move of a book made before repeats
 * were kept apart (it counted every occurrence as a game).
 */
function repeatsOf(e: BookEntry): number | null {
  const n = e.pgN ?? 0;
  if (n >= 0xffff) return null;
  return Math.max(0, n - played(e) - (e.unfinished ?? 0));
}

/**
 * Ids for book files: the file name, with -2, -3 ... where two files share one. A numbered id
 * is never another file's own name (`a.tbk x/a.tbk a-2.tbk`: a.tbk, a-3.tbk, a-2.tbk): a
 * request names a book by id alone, so two books with one id would send the edits meant for
 * one into the other.
 */
export function bookIds(paths: readonly string[]): string[] {
  const bases = paths.map((p) => basename(p).replace(/[^A-Za-z0-9._-]/g, '_'));
  const ids: (string | undefined)[] = bases.map((base, i) => (bases.indexOf(base) === i ? base : undefined));
  const taken = new Set(bases);
  return ids.map((id, i) => {
    if (id !== undefined) return id;
    let n = 2;
    let next: string;
    while (taken.has((next = bases[i]!.replace(/(\.[^.]*)?$/, `-${n}$1`)))) n++;
    taken.add(next);
    return next;
  });
}

/** The policy a request names (`policy=terra` ...), or the default. */
export function policyOf(name: string | undefined): BookPolicyConfig {
  return parsePolicy(name === undefined ? {} : { BookPolicy: name });
}

