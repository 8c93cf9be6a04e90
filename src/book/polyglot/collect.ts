/**
 * The PGN visitor that feeds make-book: it buffers each game's (key, move, colour) in typed
 * arrays while the reader replays it, and hands the whole game to a sink only at `endGame`,
 * so a game that turns out broken (`error`) leaves nothing behind.
 *
 * PolyGlot's rules (polyglot.md §2.2-2.3): the result comes from the [Result] tag ("1-0" →
 * White won, "0-1" → Black won, anything else counts as a draw); only plies 0..maxPly-1 are
 * recorded and the rest of the game is not even decoded (`move` returns false). Unlike
 * PolyGlot, a game with a [FEN] tag is replayed from its own position.
 */
import type { Position } from '../../core/position.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { encodeMove } from './format.js';

/** Where finished games go: the accumulator directly, or a buffer sent across threads. */
export interface GameSink {
  /** One game: `count` moves as (key low, key high, Polyglot move | colour << 15), result for White. */
  game(keysLo: Int32Array, keysHi: Int32Array, words: Uint16Array, count: number, whiteResult: number): void;
}

export class BookGameVisitor implements PgnVisitor {
  private keysLo = new Int32Array(256);
  private keysHi = new Int32Array(256);
  private words = new Uint16Array(256);
  private count = 0;
  private result = 0;
  /** Games handed to the sink, and moves in them. */
  games = 0;
  moves = 0;
  /** Broken games seen (each also passed to `onError`). */
  errors = 0;

  constructor(
    private readonly sink: GameSink,
    private readonly maxPly: number,
    private readonly onError: (e: PgnGameError) => void = () => {},
  ) {}

  beginGame(): void {
    this.count = 0;
    this.result = 0;
  }

  readonly tagNames = ['Result'];

  tag(name: string, value: string): void {
    if (name === 'Result') this.result = value === '1-0' ? 1 : value === '0-1' ? -1 : 0;
  }

  move(pos: Position, m: number, ply: number): boolean {
    if (ply >= this.maxPly) return false;
    const n = this.count;
    if (n === this.words.length) this.grow();
    this.keysLo[n] = pos.keyLo;
    this.keysHi[n] = pos.keyHi;
    this.words[n] = encodeMove(m) | (pos.turn << 15);
    this.count = n + 1;
    return true;
  }

  endGame(): void {
    this.games++;
    this.moves += this.count;
    this.sink.game(this.keysLo, this.keysHi, this.words, this.count, this.result);
    this.count = 0;
  }

  error(e: PgnGameError): void {
    this.count = 0;
    this.errors++;
    this.onError(e);
  }

  private grow(): void {
    const n = this.words.length * 2;
    const lo = new Int32Array(n);
    const hi = new Int32Array(n);
    const w = new Uint16Array(n);
    lo.set(this.keysLo);
    hi.set(this.keysHi);
    w.set(this.words);
    this.keysLo = lo;
    this.keysHi = hi;
    this.words = w;
  }
}
