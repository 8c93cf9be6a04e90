/**
 * Boards of a version 2 book's stored positions, recovered from its games. A book stores keys,
 * so a tool that needs boards (the audit, the reach index) walks the book from the start
 * position through book moves; what no such walk reaches, games set up from a FEN or
 * transpositions of lines played too rarely to be followed, is still the position of some
 * stored game. Replaying the games (each move checked, games.ts) until every wanted key has
 * been met gives each its board, with the game that reached it first and that game's moves to
 * it. Browser-safe.
 *
 * Each stored position records the highest ply at which a game reached it, so no game is
 * replayed past the highest of the wanted ones, and the replay stops as soon as all are met.
 * The boards come one at a time, in the one position the replay plays in: a large book has
 * hundreds of thousands of them, far too many to keep as positions (a Position keeps its undo
 * stack), and a caller that walks on from a board can make later ones known (`known` is asked
 * again when a game meets a key, so those are skipped).
 */
import { Position } from '../../core/position.js';
import { KeyTable } from '../polyglot/lines.js';
import type { GameReader } from './gameReader.js';
import { ILLEGAL_CODE, IllegalMoveCode, NEXT_CODE, NO_MORE_MOVES, codeAt, damagedGame, nextMove } from './games.js';
import type { StoredPosition } from './positions.js';
import type { TbkBook } from './tbkBook.js';

/** A stored position's board as a game reached it; valid until the next one is asked for. */
export interface RecoveredBoard {
  /** The board (the replay goes on in it: read it, copy it, do not change it). */
  pos: Position;
  game: number;
  /** Plies from the game's start. */
  ply: number;
  /** The moves the game played from its start (BoardRecovery.startFen) to this position. */
  line: Uint16Array;
}

export interface RecoverOptions {
  /** The stored positions whose boards are wanted (those the caller's thresholds keep). */
  wanted: (p: StoredPosition) => boolean;
  /** Keys whose boards the caller has already (reached by its walk); asked again when a game meets one. */
  known: (keyHi: number, keyLo: number) => boolean;
  /** Only positions a game reaches before this ply. */
  maxPly?: number;
}

/** Bits of the filter a replayed key is tested against before the key table (see `filter`). */
const FILTER_BITS = 21;

/** Every wanted stored position the caller does not know, with its board (see the module comment). */
export class BoardRecovery implements Iterable<RecoveredBoard> {
  /** Wanted positions the caller did not know when the recovery began. */
  readonly wanted: number;
  /** Of those, the ones a game reached: given as boards, or known by then. */
  met = 0;
  private readonly targets: KeyTable;
  /**
   * One bit per value of the key's low FILTER_BITS bits, set for the targets: most replayed
   * positions are no target, and this test reads 256 kB where the key table, at a few hundred
   * thousand targets, spreads over megabytes (one cache miss a ply).
   */
  private readonly filter = new Int32Array(1 << (FILTER_BITS - 5));
  private readonly limit: number;
  private readonly games: GameReader | undefined;

  constructor(
    book: TbkBook,
    private readonly opts: RecoverOptions,
  ) {
    this.targets = new KeyTable(1024);
    let deepest = -1;
    for (let b = 0; b < book.blockCount; b++) {
      for (const p of book.blockPositions(b)) {
        const hi = p.keyHi | 0;
        const lo = p.keyLo | 0;
        if (!opts.wanted(p) || opts.known(hi, lo)) continue;
        this.targets.add(hi, lo, this.targets.size);
        const f = lo & ((1 << FILTER_BITS) - 1);
        this.filter[f >>> 5] |= 1 << (f & 31);
        deepest = Math.max(deepest, p.maxPly);
      }
    }
    this.wanted = this.targets.size;
    this.limit = Math.min(deepest + 1, opts.maxPly ?? Infinity);
    this.games = book.gameReader(1 << 20);
  }

  /** The book keeps its games (a book built with a --min-games cut does not). */
  get hasGames(): boolean {
    return this.games !== undefined;
  }

  /** Wanted positions that no game reached (before maxPly), or all of them when the book keeps no games. */
  get missing(): number {
    return this.wanted - this.met;
  }

  /** The start position of a game, as a FEN. */
  startFen(game: number): string {
    return this.games!.startFen(game);
  }

  *[Symbol.iterator](): Generator<RecoveredBoard> {
    const games = this.games;
    if (games === undefined || this.wanted === 0) return;
    const { targets, filter, limit } = this;
    const met = new Uint8Array(this.wanted);
    const line = new Uint16Array(Math.max(1, limit));
    const pos = new Position();
    for (let g = 0; g < games.count && this.met < this.wanted; g++) {
      const rec = games.record(g);
      games.setStart(g, pos);
      const { bytes, offset } = games.codes(g);
      for (let ply = 0, i = 0; ply < limit; ply++) {
        const hi = pos.keyHi | 0;
        const lo = pos.keyLo | 0;
        const f = lo & ((1 << FILTER_BITS) - 1);
        if ((filter[f >>> 5]! & (1 << (f & 31))) !== 0) {
          const t = targets.get(hi, lo);
          if (t >= 0 && met[t] === 0) {
            met[t] = 1;
            this.met++;
            if (!this.opts.known(hi, lo)) yield { pos, game: g, ply, line: line.subarray(0, ply) };
          }
        }
        const m = nextMove(pos, bytes, offset, rec.codes, i);
        if (m === NO_MORE_MOVES) break;
        if (m === ILLEGAL_CODE) throw damagedGame(games.name, g, new IllegalMoveCode(ply, codeAt(bytes, offset, NEXT_CODE[0]! - 1)));
        i = NEXT_CODE[0]!;
        line[ply] = m;
        pos.play(m);
      }
    }
  }
}
