/**
 * A book audit (`tabiya book audit`): the engine checks a book. The book's positions are walked
 * from the start (audit/walk.ts); in a version 2 `.tbk`, the stored positions no walk reaches
 * get their boards from the book's games (rich/recover.ts; a `.bin` keeps keys only, so there
 * they stay unaudited and are counted). Every book move above the thresholds is searched
 * against the position's best move (audit/verdict.ts) on worker threads (auditPool.ts), and each finished
 * position is written to a journal (auditJournal.ts), so a rerun after an interruption
 * searches none of them again. Moves that lose more than the margin are flagged, with the line
 * that refutes them; `mark` writes the verdicts into a version 2 `.tbk` (the notes: audit
 * verdict and evaluation per move, flagged moves forbidden, which the book policy then never
 * plays).
 */
import { PolyglotReader } from '../polyglot/reader.js';
import { BookError } from '../polyglot/select.js';
import type { Position } from '../../core/position.js';
import { keyToHex } from '../../core/zobrist.js';
import { positionFromFen, STARTING_FEN } from '../../notation/fen.js';
import { auditPosition, legalBookMoves, walkBook, type AuditBookMove, type AuditPosition } from '../audit/walk.js';
import { BoardRecovery } from '../rich/recover.js';
import type { StoredPosition } from '../rich/positions.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import type { AuditLimits, PositionVerdict } from '../audit/verdict.js';
import { AuditJournal, type JournalRecord } from './auditJournal.js';
import { auditInParallel } from './auditPool.js';
import { loadBook } from './openBook.js';
import { openAnyRichBook } from './openTbk.js';
import { changeNotes } from './tbkFile.js';

export interface AuditOptions {
  limits: AuditLimits;
  /** .tbk: moves played in fewer games are not checked nor followed. */
  minGames: number;
  /** .bin: entries below this weight are not checked nor followed. */
  minWeight: number;
  /** Centipawns a move may lose against the best before it is flagged. */
  margin: number;
  maxPly: number;
  threads: number;
  hashMB: number;
  journal: string;
  fresh: boolean;
  onStart?: (todo: number, total: number) => void;
  onProgress?: (done: number, flagged: number) => void;
}

/** A checked move with its position and verdict. */
export interface AuditedMove {
  position: AuditPosition;
  verdict: JournalRecord;
  uci: string;
  games: number | null;
  weight: number;
  score: number;
  loss: number;
  refutation: string[];
  /** The depth of the move's own search (deeper where a loss above the margin was confirmed). */
  depth: number;
  /** The move its loss is measured against, found at that depth (UCI). */
  best: string;
  flagged: boolean;
}

export interface AuditResult {
  format: '.bin' | '.tbk';
  positions: AuditPosition[];
  /** Positions searched in this run, and found done in the journal. */
  searched: number;
  fromJournal: number;
  moves: AuditedMove[];
  /** Positions no walk from the start reached whose boards came from the book's games (null: a .bin, which keeps none). */
  recovered: number | null;
  /** Stored positions with a move above the thresholds that the audit could not set up (null: not counted). */
  unreached: number | null;
  nodes: number;
  seconds: number;
}

/** The format of a book file, by its name as every book command picks it: .tbk, else Polyglot. */
export function bookFormat(path: string): '.bin' | '.tbk' {
  return /\.tbk$/i.test(path) ? '.tbk' : '.bin';
}

interface OpenedBook {
  roots: Position[];
  probe: (pos: Position) => AuditBookMove[];
  /** Counts stored positions above the thresholds not in `seen` (-1: the book cannot tell). */
  unreached: (seen: Set<string>) => number;
  /**
   * The stored positions above the thresholds not in `seen`, set up from the book's games, as
   * positions to audit numbered from `first`, with how many none of its games reaches; undefined
   * where the book keeps no games.
   */
  recover?: (seen: Set<string>, first: number) => { positions: AuditPosition[]; missing: number } | undefined;
  close: () => void;
}

function startPosition(fen = STARTING_FEN): Position {
  const r = positionFromFen(fen);
  if (!r.ok) throw r.error;
  return r.value;
}

async function openForAudit(path: string, format: '.bin' | '.tbk', opts: AuditOptions): Promise<OpenedBook> {
  if (format === '.bin') {
    const book: PolyglotReader = await loadBook(path);
    return {
      roots: [startPosition()],
      probe: (pos) => book.moves(pos, { minWeight: opts.minWeight }).map((m) => ({ move: m.move, games: null, weight: m.weight })),
      unreached(seen) {
        let n = 0;
        let last = '';
        for (let i = 0; i < book.size; i++) {
          const e = book.entry(i);
          const key = keyToHex(e.keyHi, e.keyLo);
          if (key === last || e.weight < opts.minWeight) continue;
          last = key;
          if (!seen.has(key)) n++;
        }
        return n;
      },
      close: () => {},
    };
  }
  const book = openAnyRichBook(path);
  const roots = [startPosition()];
  // Games set up from a [FEN] tag start their own lines.
  for (const [, fen] of book.v2?.fens ?? []) {
    const r = positionFromFen(fen);
    if (r.ok) roots.push(r.value);
  }
  const checked = (p: StoredPosition): boolean => p.moves.some((m) => m.wins + m.draws + m.losses + m.unfinished >= Math.max(1, opts.minGames));
  const probe = (pos: Position): AuditBookMove[] =>
    book
      .probe(pos)
      .map((m) => ({ move: m.move, games: m.wins + m.draws + m.losses + ((m as { unfinished?: number }).unfinished ?? 0), weight: m.weight }))
      .filter((m) => m.games >= opts.minGames && m.games > 0);
  return {
    roots,
    probe,
    unreached(seen) {
      const v2 = book.v2;
      if (v2 === undefined) return -1;
      let n = 0;
      for (let b = 0; b < v2.blockCount; b++) {
        for (const p of v2.blockPositions(b)) if (checked(p) && !seen.has(keyToHex(p.keyHi, p.keyLo))) n++;
      }
      return n;
    },
    recover(seen, first) {
      const v2 = book.v2;
      if (v2 === undefined) return undefined;
      const recovery = new BoardRecovery(v2, { wanted: checked, known: (hi, lo) => seen.has(keyToHex(hi, lo)), maxPly: opts.maxPly });
      if (!recovery.hasGames) return undefined;
      const positions: AuditPosition[] = [];
      let missing = 0;
      for (const b of recovery) {
        const moves = legalBookMoves(b.pos, probe);
        if (moves.length === 0) {
          missing++;
          continue;
        }
        const root = recovery.startFen(b.game);
        const start = positionFromFen(root);
        if (!start.ok) throw start.error;
        const line = Array.from(b.line, (m) => {
          const u = makeUci(m, start.value.chess960);
          start.value.play(m);
          return u;
        });
        positions.push(auditPosition(b.pos, moves, 0, b.ply, root, line));
      }
      missing += recovery.missing;
      // In move order, as the walk's: by ply, then the order the games met them.
      positions.sort((a, b) => a.ply - b.ply);
      positions.forEach((p, i) => (p.index = first + i));
      return { positions, missing };
    },
    close: () => book.close(),
  };
}

/**
 * Whether a journal record answers for every move a position now needs: each has a verdict, and
 * one above the margin was confirmed (a journal of a run with a larger margin may hold one that
 * was not).
 */
function covers(r: JournalRecord | undefined, p: AuditPosition, margin: number): r is JournalRecord {
  // The same position reached by another line differs in its move counters only.
  if (r === undefined || !samePlacement(r.fen, p.fen)) return false;
  return p.moves.every((m) => r.moves.some((v) => v.uci === m.uci && (v.loss <= margin || v.confirmed === true)));
}

/** FENs equal but for the halfmove clock and move number. */
function samePlacement(a: string, b: string): boolean {
  return a.split(' ').slice(0, 4).join(' ') === b.split(' ').slice(0, 4).join(' ');
}

export async function runAudit(path: string, format: '.bin' | '.tbk', opts: AuditOptions): Promise<AuditResult> {
  const started = Date.now();
  const book = await openForAudit(path, format, opts);
  let positions: AuditPosition[];
  let unreached: number | null = null;
  let recovered: number | null = null;
  try {
    const walk = walkBook(book.roots, book.probe, { maxPly: opts.maxPly });
    positions = walk.positions;
    const more = book.recover?.(walk.seen, positions.length);
    if (more !== undefined) {
      positions = [...positions, ...more.positions];
      recovered = more.positions.length;
      if (opts.maxPly >= 1024) unreached = more.missing;
    } else if (opts.maxPly >= 1024) {
      // Counting the unreached takes a pass over the whole book: only for an audit of all of it.
      const n = book.unreached(walk.seen);
      unreached = n < 0 ? null : n;
    }
  } finally {
    book.close();
  }
  // An empty book, or one whose moves all fall under the thresholds, leaves nothing to search:
  // said before a journal is created beside the book, as `book reach` refuses such a book.
  if (positions.length === 0) {
    const thresholds = format === '.bin' ? `--min-weight ${opts.minWeight}` : `--min-games ${opts.minGames}`;
    throw new BookError('ERR_AUDIT_NOTHING', `${path}: no book move passes ${thresholds} from the start position${format === '.tbk' ? " or a game's set-up position" : ''}: nothing to audit`, path);
  }
  const journal = AuditJournal.open(opts.journal, opts.limits, opts.fresh);
  let searched = 0;
  let nodes = 0;
  try {
    const todo = positions.filter((p) => !covers(journal.done.get(p.key), p, opts.margin));
    opts.onStart?.(todo.length, positions.length);
    let flagged = 0;
    await auditInParallel(
      todo.map((p) => ({ index: p.index, fen: p.fen, moves: p.moves.map((m) => m.uci), confirmAbove: opts.margin })),
      {
        threads: opts.threads,
        limits: opts.limits,
        hashMB: opts.hashMB,
        onVerdict: (v: PositionVerdict) => {
          journal.append(positions[v.index]!.key, v);
          searched++;
          nodes += v.nodes;
          flagged += v.moves.filter((m) => m.loss > opts.margin).length;
          opts.onProgress?.(searched, flagged);
        },
      },
    );
  } finally {
    journal.close();
  }
  const moves: AuditedMove[] = [];
  for (const p of positions) {
    const r = journal.done.get(p.key)!;
    for (const m of p.moves) {
      const v = r.moves.find((x) => x.uci === m.uci)!;
      moves.push({ position: p, verdict: r, uci: m.uci, games: m.games, weight: m.weight, score: v.score, loss: v.loss, refutation: v.refutation, depth: v.depth, best: v.best ?? r.best, flagged: v.loss > opts.margin });
    }
  }
  return { format, positions, searched, fromJournal: positions.length - searched, moves, recovered, unreached, nodes, seconds: (Date.now() - started) / 1000 };
}

/**
 * Writes the verdicts into a version 2 `.tbk` (one crash-safe change of its notes): every
 * checked move gets its audit verdict and, where the engine's own games have not stored one,
 * its evaluation; flagged moves are forbidden, and a move the audit once forbade and now
 * clears is allowed again. A mark set by hand (tabiya serve) stays. The notes do not say who
 * set a mark, so the recorded verdict tells: the audit forbids only moves whose loss is above
 * the margin, so a forbidden move recorded within `margin` was forbidden by hand. Returns the
 * moves forbidden.
 */
export function markBook(path: string, moves: readonly AuditedMove[], margin: number): { marked: number; forbidden: number; chosen: AuditedMove[] } {
  return changeNotes(
    path,
    (book) => {
      let marked = 0;
      let forbidden = 0;
      const chosen: AuditedMove[] = [];
      for (const a of moves) {
        const pos = startPosition(a.position.fen);
        const m = parseUci(pos, a.uci);
        const best = parseUci(pos, a.best);
        if (!m.ok || !best.ok) continue;
        const note = book.notes.edit(pos.keyHi, pos.keyLo, m.value, pos.turn === 1);
        const auditForbade = note.forbidden && note.audit !== undefined && note.audit.loss > margin;
        note.audit = { loss: a.loss, best: best.value, depth: a.depth, refutation: a.refutation.join(' ') };
        // The engine's own games keep their mean evaluation (PostBook learning): left alone.
        if (note.dynWins + note.dynDraws + note.dynLosses === 0) {
          note.evalCp = Math.max(-32768, Math.min(32767, a.score));
          note.evalCount = 1;
        }
        // A move the user chose (a user value above 0: a repertoire's move) is not forbidden by
        // the audit: the choice stands, as a user value stops learning (Terra), and the caller
        // names it with its verdict; forbidding it would take it out of the repertoire's export
        // and the engine's play without a word. `book set --forbid` forbids it.
        if (a.flagged && note.userValue > 0) {
          if (!note.forbidden) chosen.push(a);
        } else if (a.flagged) note.forbidden = true;
        else if (auditForbade) note.forbidden = false;
        marked++;
        if (note.forbidden) forbidden++;
      }
      return { result: { marked, forbidden, chosen } };
    },
    { verify: true },
  );
}
