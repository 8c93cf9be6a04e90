/**
 * The WebAssembly engine core (src/wasm, built to dist/wasm/core.wasm) seen from TypeScript.
 * Browser-safe: the caller compiles the module from bytes it fetched or read
 * (src/node/wasmCore.ts reads the built file in Node).
 */
import type { Position } from '../../core/position.js';

interface CoreExports {
  memory: WebAssembly.Memory;
  setupClear(): void;
  setupPiece(sq: number, piece: number): void;
  setupFinish(turn: number, castling: number, rooks: number, ep: number, halfmoves: number, chess960: number): void;
  setupHistory(word: number, halfmoves: number, keyLo: number, keyHi: number): void;
  keyLo(): number;
  keyHi(): number;
  pieceAt(sq: number): number;
  turn(): number;
  castling(): number;
  epSquare(): number;
  halfmoves(): number;
  ply(): number;
  play(m: number): void;
  playNull(): void;
  undo(): void;
  inCheck(): number;
  isInsufficientMaterial(): number;
  hasInsufficientMaterial(color: number): number;
  repetitions(limit: number): number;
  isDraw(nullAt: number): number;
  hasNonPawnMaterial(): number;
  moveAt(i: number): number;
  legalMoves(): number;
  computePins(): void;
  pinsLo(): number;
  pinsHi(): number;
  isLegalNotInCheck(m: number): number;
  noisyMoves(): number;
  quietMoves(): number;
  prepareCheckInfo(): void;
  givesCheck(m: number): number;
  seeGe(m: number, threshold: number): number;
  perft(depth: number, bulk: number): number;
  perftCheckKeys(depth: number): number;
  keyErrorCount(): number;
  leafKeysLo(): number;
  leafKeysHi(): number;
}

/** Reads an AssemblyScript string (UTF-16, byte length in the word before it) from memory. */
function readString(memory: WebAssembly.Memory, ptr: number): string {
  if (ptr === 0) return '';
  const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0]!;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, bytes >>> 1));
}

export class WasmCore {
  private readonly x: CoreExports;

  /** One instance: one board of its own (instances share nothing). */
  constructor(module: WebAssembly.Module) {
    // A failed bounds check (checked build) or assertion calls abort with its message.
    const abort = (msg: number, file: number, line: number, col: number): never => {
      const memory = this.x.memory;
      throw new Error(`wasm core: ${readString(memory, msg)} at ${readString(memory, file)}:${line}:${col}`);
    };
    const instance = new WebAssembly.Instance(module, { env: { abort } });
    this.x = instance.exports as unknown as CoreExports;
  }

  /**
   * Copies the position into the core: its current state and, unless `history` is false, the
   * plies played since it was set up (its state stack: the keys the repetition tests read,
   * and what undo needs to take those plies back).
   */
  setPosition(pos: Position, history = true): void {
    const x = this.x;
    x.setupClear();
    for (let sq = 0; sq < 64; sq++) if (pos.board[sq] !== 0) x.setupPiece(sq, pos.board[sq]!);
    let rooks = 0;
    for (let i = 0; i < 4; i++) if ((pos.castling & (1 << i)) !== 0) rooks |= (pos.castleRook[i]! & 255) << (8 * i);
    x.setupFinish(pos.turn, pos.castling, rooks, pos.epSquare, pos.halfmoves, pos.chess960 ? 1 : 0);
    if (!history) return;
    const st = pos.stack;
    for (let i = 0; i < pos.ply; i++) x.setupHistory(st[i << 2]!, st[(i << 2) + 1]!, st[(i << 2) + 2]!, st[(i << 2) + 3]!);
  }

  /** The position in the core: pieces by square and the scalar state, to compare with a Position. */
  state(): { board: number[]; turn: number; castling: number; epSquare: number; halfmoves: number; ply: number } {
    const x = this.x;
    const board: number[] = [];
    for (let sq = 0; sq < 64; sq++) board.push(x.pieceAt(sq));
    return { board, turn: x.turn(), castling: x.castling(), epSquare: x.epSquare(), halfmoves: x.halfmoves(), ply: x.ply() };
  }

  /** Plays a legal move. */
  play(m: number): void {
    this.x.play(m);
  }

  /** Passes the move (not when in check). */
  playNull(): void {
    this.x.playNull();
  }

  /** Takes back the last move or null move. */
  undo(): void {
    this.x.undo();
  }

  inCheck(): boolean {
    return this.x.inCheck() !== 0;
  }

  isInsufficientMaterial(): boolean {
    return this.x.isInsufficientMaterial() !== 0;
  }

  hasInsufficientMaterial(color: number): boolean {
    return this.x.hasInsufficientMaterial(color) !== 0;
  }

  /** Position.repetitions: earlier occurrences back to the last irreversible move, up to `limit`. */
  repetitions(limit = 2): number {
    return this.x.repetitions(limit);
  }

  /** The search's draw test (engine/search/draw.ts isDraw), `nullAt` the ply of the line's last null move or -1. */
  isDraw(nullAt = -1): boolean {
    return this.x.isDraw(nullAt) !== 0;
  }

  hasNonPawnMaterial(): boolean {
    return this.x.hasNonPawnMaterial() !== 0;
  }

  private list(n: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(this.x.moveAt(i));
    return out;
  }

  /** The legal moves, in generation order. */
  legalMoves(): number[] {
    return this.list(this.x.legalMoves());
  }

  /** Computes the side to move's pinned pieces (lo, hi) for the staged calls below. */
  computePins(): [number, number] {
    this.x.computePins();
    return [this.x.pinsLo(), this.x.pinsHi()];
  }

  /** Legality of any 16-bit move; not in check, after computePins. */
  isLegalNotInCheck(m: number): boolean {
    return this.x.isLegalNotInCheck(m) !== 0;
  }

  /** Captures, en passant and promotions in generation order; not in check, after computePins. */
  noisyMoves(): number[] {
    return this.list(this.x.noisyMoves());
  }

  /** Quiet moves and castling in generation order; not in check, after computePins. */
  quietMoves(): number[] {
    return this.list(this.x.quietMoves());
  }

  /** Prepares givesCheck for the position as it is now. */
  prepareCheckInfo(): void {
    this.x.prepareCheckInfo();
  }

  /** Does legal move m give check? After prepareCheckInfo. */
  givesCheck(m: number): boolean {
    return this.x.givesCheck(m) !== 0;
  }

  /** Does legal move m win at least `threshold` in a static exchange? */
  seeGe(m: number, threshold: number): boolean {
    return this.x.seeGe(m, threshold) !== 0;
  }

  /** The Polyglot key of the position in the core, as (lo, hi) int32 halves like Position's. */
  key(): [number, number] {
    return [this.x.keyLo(), this.x.keyHi()];
  }

  /** Perft of the position in the core; `bulk` counts the last ply from the move list. */
  perft(depth: number, bulk = true): number {
    const n = this.x.perft(depth, bulk ? 1 : 0);
    if (n < 0) throw new RangeError(`perft depth ${depth} is too deep`);
    return n;
  }

  /**
   * Perft that checks the incremental key against one computed from scratch at every node,
   * and that undo restores it: the leaf count, the number of bad keys, and the XOR of all
   * leaf keys (lo, hi).
   */
  perftCheckKeys(depth: number): { nodes: number; keyErrors: number; leafKeys: [number, number] } {
    const nodes = this.x.perftCheckKeys(depth);
    return { nodes, keyErrors: this.x.keyErrorCount(), leafKeys: [this.x.leafKeysLo(), this.x.leafKeysHi()] };
  }
}
