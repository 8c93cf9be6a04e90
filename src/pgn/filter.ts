/**
 * Game filters shared by `tabiya pgn filter` and `tabiya book make`: tag conditions (Elo,
 * players, result, date range, set-up, any tag) decided as soon as the tags are read, so
 * rejected games are never replayed; then main-line conditions (plies, duplicates).
 *
 *     const filter = new PgnFilter({ minElo: 2400, results: ['1-0', '0-1'], dedupe: true });
 *     await readPgn(files, filterVisitor(filter, bookBuilder));
 *     filter.accepted; filter.rejected.elo;
 */
import { MOVE_NULL } from '../core/move.js';
import { Position } from '../core/position.js';
import { positionFromFen } from '../notation/fen.js';
import { GameHash, HashSet64 } from './dedupe.js';
import { copyPosition } from './setup.js';
import type { PgnGameError, PgnLocation, PgnVisitor } from './visitor.js';

export interface PgnFilterOptions {
  /** Both players rated at least this (games without both ratings are dropped). */
  minElo?: number;
  /** Keep games where White or Black contains one of these (case-insensitive). */
  players?: readonly string[];
  /**
   * Keep games where White contains one of these (case-insensitive): one player's games with
   * one colour, as pgn-extract's -Tw and the Lichess explorer's player tab with a colour.
   */
  whites?: readonly string[];
  /** Keep games where Black contains one of these (case-insensitive). */
  blacks?: readonly string[];
  /** Keep games whose Result tag is one of these. */
  results?: readonly string[];
  /** Drop games that start from a [FEN] set-up. */
  fromStart?: boolean;
  minPlies?: number;
  maxPlies?: number;
  /** Date bounds, `YYYY`, `YYYY.MM` or `YYYY.MM.DD` (also with `-`); inclusive. */
  dateFrom?: string;
  dateTo?: string;
  /** Tags that must have exactly these values. */
  tags?: readonly { name: string; value: string }[];
  /**
   * Keep games whose main line reaches one of these positions (FEN), from its start to its last
   * move, in any move order: positions are compared by their Polyglot key (pieces, side to move,
   * castling rights, an en-passant capture that can be made), not by move counters.
   */
  positions?: readonly string[];
  /** Keep only the first of games with the same start position, main line and result. */
  dedupe?: boolean;
}

export type FilterReason = 'elo' | 'player' | 'result' | 'setup' | 'date' | 'tag' | 'plies' | 'position' | 'duplicate';

/** Parses `Name=value` (a --tag condition). */
export function parseTagCondition(s: string): { name: string; value: string } | undefined {
  const i = s.indexOf('=');
  if (i <= 0) return undefined;
  return { name: s.slice(0, i).trim(), value: s.slice(i + 1) };
}

/** Why `s` is not a date bound `YYYY[.MM[.DD]]` (also with `-` or `/`) of the Gregorian calendar, or undefined. */
export function dateBoundError(s: string): string | undefined {
  const m = /^(\d{4})(?:[.\-/](\d{1,2}))?(?:[.\-/](\d{1,2}))?$/.exec(s.trim());
  if (m === null) return `"${s}" is not a date YYYY[.MM[.DD]]`;
  const year = Number(m[1]);
  if (m[2] === undefined) return undefined;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return `"${s}": month ${month} is not 1..12`;
  if (m[3] === undefined) return undefined;
  const day = Number(m[3]);
  // Day 0 of the next month is the last day of this one.
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > last) return `"${s}": day ${day} is not 1..${last} (${year}.${String(month).padStart(2, '0')} has ${last} days)`;
  return undefined;
}

/** A date bound as YYYYMMDD with missing parts filled by `fill` ('00' or '99'), or undefined if it is not a date. */
export function parseDateBound(s: string, fill: '00' | '99'): number | undefined {
  if (dateBoundError(s) !== undefined) return undefined;
  const m = /^(\d{4})(?:[.\-/](\d{1,2}))?(?:[.\-/](\d{1,2}))?$/.exec(s.trim())!;
  return Number(m[1] + (m[2]?.padStart(2, '0') ?? fill) + (m[3]?.padStart(2, '0') ?? fill));
}

/** Earliest and latest YYYYMMDD a PGN Date ("1990.??.??") can stand for; undefined without a year. */
function dateRange(d: string | undefined): [number, number] | undefined {
  const m = /^(\d{4})[.\-/]?([\d?]{1,2})?[.\-/]?([\d?]{1,2})?/.exec(d ?? '');
  if (m === null) return undefined;
  const part = (x: string | undefined, fill: string): string => (x === undefined || x.includes('?') ? fill : x.padStart(2, '0'));
  return [Number(m[1] + part(m[2], '00') + part(m[3], '00')), Number(m[1] + part(m[2], '99') + part(m[3], '99'))];
}

export class PgnFilter {
  readonly rejected: Record<FilterReason, number> = { elo: 0, player: 0, result: 0, setup: 0, date: 0, tag: 0, plies: 0, position: 0, duplicate: 0 };
  accepted = 0;
  private readonly players: string[];
  private readonly whites: string[];
  private readonly blacks: string[];
  private readonly from: number | undefined;
  private readonly to: number | undefined;
  private readonly seen: HashSet64 | undefined;
  /** The keys of the positions a game must reach (options.positions), as lo/hi pairs. */
  private readonly targets: number[] = [];

  constructor(readonly options: PgnFilterOptions) {
    this.players = (options.players ?? []).map((p) => p.toLowerCase());
    this.whites = (options.whites ?? []).map((p) => p.toLowerCase());
    this.blacks = (options.blacks ?? []).map((p) => p.toLowerCase());
    this.from = options.dateFrom === undefined ? undefined : parseDateBound(options.dateFrom, '00');
    this.to = options.dateTo === undefined ? undefined : parseDateBound(options.dateTo, '99');
    if (options.dateFrom !== undefined && this.from === undefined) throw new RangeError(`date-from: ${dateBoundError(options.dateFrom)}`);
    if (options.dateTo !== undefined && this.to === undefined) throw new RangeError(`date-to: ${dateBoundError(options.dateTo)}`);
    this.seen = options.dedupe ? new HashSet64() : undefined;
    const pos = new Position();
    for (const fen of options.positions ?? []) {
      const r = positionFromFen(fen, pos);
      if (!r.ok) throw new RangeError(`position: "${fen}" is not a FEN: ${r.error.message}`);
      this.targets.push(pos.keyLo, pos.keyHi);
    }
  }

  /** Whether the game must reach a position (options.positions). */
  get wantsPosition(): boolean {
    return this.targets.length > 0;
  }

  /** Whether `pos` is one of the positions of options.positions. */
  isTarget(pos: Position): boolean {
    const t = this.targets;
    for (let i = 0; i < t.length; i += 2) if (t[i] === pos.keyLo && t[i + 1] === pos.keyHi) return true;
    return false;
  }

  /** Whether conditions on the main line exist (then games must be replayed before deciding). */
  get needsMoves(): boolean {
    return this.options.minPlies !== undefined || this.options.maxPlies !== undefined || this.seen !== undefined || this.targets.length > 0;
  }

  /** Why the tags exclude the game, or undefined. */
  checkTags(tags: ReadonlyMap<string, string>): FilterReason | undefined {
    const o = this.options;
    if (o.minElo !== undefined) {
      const w = Number(tags.get('WhiteElo') || NaN);
      const b = Number(tags.get('BlackElo') || NaN);
      if (!(w >= o.minElo && b >= o.minElo)) return 'elo';
    }
    if (this.players.length > 0) {
      const w = (tags.get('White') ?? '').toLowerCase();
      const b = (tags.get('Black') ?? '').toLowerCase();
      if (!this.players.some((p) => w.includes(p) || b.includes(p))) return 'player';
    }
    if (this.whites.length > 0) {
      const w = (tags.get('White') ?? '').toLowerCase();
      if (!this.whites.some((p) => w.includes(p))) return 'player';
    }
    if (this.blacks.length > 0) {
      const b = (tags.get('Black') ?? '').toLowerCase();
      if (!this.blacks.some((p) => b.includes(p))) return 'player';
    }
    if (o.results !== undefined && o.results.length > 0 && !o.results.includes(tags.get('Result') ?? '*')) return 'result';
    if (o.fromStart && (tags.has('FEN') || tags.get('SetUp') === '1')) return 'setup';
    if (this.from !== undefined || this.to !== undefined) {
      const r = dateRange(tags.get('Date'));
      if (r === undefined || (this.from !== undefined && r[1] < this.from) || (this.to !== undefined && r[0] > this.to)) return 'date';
    }
    if (o.tags !== undefined) for (const t of o.tags) if (tags.get(t.name) !== t.value) return 'tag';
    return undefined;
  }

  /**
   * Why the main line excludes the game, or undefined; records the game as seen. `reached`: the
   * line passed through one of options.positions (ignored without them).
   */
  checkMoves(plies: number, hashLo: number, hashHi: number, reached = false): FilterReason | undefined {
    const o = this.options;
    if ((o.minPlies !== undefined && plies < o.minPlies) || (o.maxPlies !== undefined && plies > o.maxPlies)) return 'plies';
    if (this.targets.length > 0 && !reached) return 'position';
    if (this.seen !== undefined && !this.seen.add(hashLo, hashHi)) return 'duplicate';
    return undefined;
  }

  reject(reason: FilterReason): void {
    this.rejected[reason]++;
  }
}

const PENDING = 0;
const REJECTED = 1;
const STREAM = 2;
const BUFFER = 3;

/**
 * Wraps a visitor so it only sees the games the filter accepts. With tag conditions only, games
 * stream through unchanged. With main-line conditions the main line is buffered and, once the
 * game is accepted, replayed into `inner` (tags, main-line moves and gameText; not comments or
 * variations). Errors are always passed on.
 */
export function filterVisitor(filter: PgnFilter, inner: PgnVisitor): PgnVisitor {
  let mode = PENDING;
  /** Why the current game's tags were rejected (undone if the game turns out broken: counted once). */
  let rejectedFor: FilterReason | undefined;
  let loc: PgnLocation | undefined;
  let tags: [string, string][] = [];
  const map = new Map<string, string>();
  const start = new Position();
  const replay = new Position();
  let moves = new Uint16Array(512);
  let plies = 0;
  const hash = new GameHash();
  let text: Uint8Array | undefined;
  const wantsPosition = filter.wantsPosition;
  /** The reader's position (one object for the whole game), to see the one after the last move. */
  let line: Position | undefined;
  let reached = false;

  const record = (m: number): void => {
    if (plies === moves.length) {
      const grown = new Uint16Array(moves.length * 2);
      grown.set(moves);
      moves = grown;
    }
    moves[plies++] = m;
    hash.add(m);
  };

  const forwardHead = (): void => {
    inner.beginGame?.(loc!);
    if (inner.tag !== undefined) for (const [n, v] of tags) inner.tag(n, v);
  };

  const v: PgnVisitor = {
    beginGame(l) {
      loc = l;
      tags = [];
      map.clear();
      mode = PENDING;
      text = undefined;
    },
    tag(name, value) {
      tags.push([name, value]);
      map.set(name, value);
    },
    endTags(pos) {
      const reason = filter.checkTags(map);
      if (reason !== undefined) {
        filter.reject(reason);
        rejectedFor = reason;
        mode = REJECTED;
        return false;
      }
      if (!filter.needsMoves) {
        mode = STREAM;
        forwardHead();
        return inner.endTags?.(pos);
      }
      mode = BUFFER;
      copyPosition(start, pos);
      hash.reset(pos.keyLo, pos.keyHi);
      plies = 0;
      line = pos;
      reached = wantsPosition && filter.isTarget(pos);
      return true;
    },
    move(pos, m, ply) {
      if (mode === STREAM) return inner.move?.(pos, m, ply);
      if (wantsPosition && !reached) reached = filter.isTarget(pos);
      record(m);
      return undefined;
    },
    // Null moves are part of the main line: counted as plies (as `pgn stats` counts them) and
    // hashed, so games that differ only after one are not taken for duplicates. An inner visitor
    // without this hook sees its main line end there, as the reader would end it.
    nullMove(pos, ply, depth) {
      if (mode === STREAM) return inner.nullMove === undefined ? false : inner.nullMove(pos, ply, depth);
      if (wantsPosition && !reached) reached = filter.isTarget(pos);
      record(MOVE_NULL);
      return undefined;
    },
    gameText(bytes) {
      if (mode === STREAM) inner.gameText?.(bytes);
      else text = bytes; // still valid at endGame, which follows at once
    },
    endGame(result) {
      if (mode === STREAM) {
        filter.accepted++;
        inner.endGame?.(result);
      } else if (mode === BUFFER) {
        hash.add(result.charCodeAt(0) * 256 + result.length);
        // The position after the last move: the reader has played it on its position by now.
        if (wantsPosition && !reached) reached = filter.isTarget(line!);
        const reason = filter.checkMoves(plies, hash.lo, hash.hi, reached);
        if (reason !== undefined) {
          filter.reject(reason);
          return;
        }
        filter.accepted++;
        forwardHead();
        copyPosition(replay, start);
        if (inner.endTags?.(replay) !== false && inner.move !== undefined) {
          for (let i = 0; i < plies; i++) {
            const m = moves[i]!;
            if (m === MOVE_NULL) {
              if (inner.nullMove === undefined || inner.nullMove(replay, i, 0) === false) break;
              replay.playNull();
              continue;
            }
            if (inner.move(replay, m, i) === false) break;
            replay.play(m);
          }
        }
        if (text !== undefined) inner.gameText?.(text);
        inner.endGame?.(result);
      }
      mode = PENDING;
    },
    error(e: PgnGameError) {
      // A game is filtered or broken, not both: the error is reported, so it counts as broken.
      if (mode === REJECTED && rejectedFor !== undefined) filter.rejected[rejectedFor]--;
      mode = PENDING;
      inner.error?.(e);
    },
  };
  if (inner.gameText === undefined) delete v.gameText;
  return v;
}
