/**
 * The synchronous push parser: bytes in (any chunking), visitor calls out. It replays the main
 * line on one shared Position, reports every broken game with its location and skips it, and
 * runs anywhere (browser, worker, Node). `readPgn` (reader.ts) streams files through it.
 *
 *     const parser = new PgnParser(visitor);
 *     parser.begin('games.pgn');
 *     for (const chunk of chunks) parser.push(chunk);
 *     parser.end();
 */
import { MOVE_NULL } from '../core/move.js';
import { Position } from '../core/position.js';
import { WHITE } from '../core/types.js';
import { makeFen } from '../notation/fen.js';
import { SAN_AMBIGUOUS, SAN_ILLEGAL } from '../notation/san.js';
import { excerpt, quote } from '../core/result.js';
import { bytesEqual, decodeTagValue, decodeText, glyphNag, latin1 } from './bytes.js';
import { sanBytesToMove } from './sanBytes.js';
import type { PgnLimits } from './chunks.js';
import { MOVETEXT, OUTSIDE, PgnScanner, SKIP, TAGS } from './scanner.js';
import { setupGame } from './setup.js';
import type { PgnErrorKind, PgnGameError, PgnLocation, PgnVisitor } from './visitor.js';

export { DEFAULT_LIMITS, type PgnLimits } from './chunks.js';

export interface PgnParserOptions {
  /** Decode and replay moves (default true). Without it only tags and structure are read. */
  replay?: boolean;
  /** Read variations (default: when the visitor has variation hooks). */
  variations?: boolean;
  /** Per-game limits that bound time and memory on hostile input. */
  limits?: Partial<PgnLimits>;
}

const encoder = new TextEncoder();

export class PgnParser extends PgnScanner {
  /** The replay position, shared by all games (visitors must not keep it). */
  readonly pos = new Position();
  /** Games read cleanly and games skipped as broken, over all files. */
  games = 0;
  errors = 0;
  readonly errorsByKind: Partial<Record<PgnErrorKind, number>> = {};

  private readonly v: PgnVisitor;
  private readonly replay: boolean;
  private readonly variations: boolean;
  private readonly hasTag: boolean;
  /** FNV-1a hashes of the visitor's `tagNames` and the names (a tag not among them is not decoded), or undefined for all. */
  private readonly wantHashes: Int32Array | undefined;
  private readonly wantNames: readonly string[] = [];
  private readonly hasMove: boolean;
  private readonly hasVarMove: boolean;
  private readonly hasSan: boolean;
  private readonly hasComment: boolean;
  private readonly hasNag: boolean;
  private readonly hasNull: boolean;

  // The current game.
  private fen: string | undefined;
  private variant: string | undefined;
  private tags = 0;
  /** Hashes of this game's tag names, and the line of its last tag. */
  private readonly tagHashes: Int32Array;
  private lastTagLine = 0;
  /** endTags returned false: movetext is only checked for structure. */
  private quiet = false;
  /** The main line stopped (move returned false, or a null move nobody handles). */
  private stopped = false;
  private depth = 0;
  /** Per variation depth: ply at its start, the move it replaces, where it opened, whether it is replayed. */
  private readonly varPly: Int32Array;
  private readonly varMove: Int32Array;
  private readonly varLine: Int32Array;
  private readonly varReplayed: Uint8Array;
  /** Moves played so far on the line at each depth. */
  private readonly lineMoves: Int32Array;

  constructor(visitor: PgnVisitor, options: PgnParserOptions = {}) {
    super(options.limits);
    this.v = visitor;
    this.replay = options.replay ?? true;
    this.variations = options.variations ?? (visitor.variationMove !== undefined || visitor.beginVariation !== undefined);
    this.hasTag = visitor.tag !== undefined;
    if (visitor.tagNames !== undefined) {
      this.wantNames = visitor.tagNames;
      this.wantHashes = Int32Array.from(visitor.tagNames, (name) => {
        let h = 0x811c9dc5;
        for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
        return h;
      });
    }
    this.hasMove = visitor.move !== undefined;
    this.hasVarMove = visitor.variationMove !== undefined;
    this.hasSan = visitor.san !== undefined;
    this.hasComment = visitor.comment !== undefined;
    this.hasNag = visitor.nag !== undefined;
    this.hasNull = visitor.nullMove !== undefined;
    this.captureText = visitor.gameText !== undefined;
    const n = this.limits.maxDepth + 2;
    this.varPly = new Int32Array(n);
    this.varMove = new Int32Array(n);
    this.varLine = new Int32Array(n);
    this.varReplayed = new Uint8Array(n);
    this.lineMoves = new Int32Array(n);
    this.tagHashes = new Int32Array(this.limits.maxTags + 1);
  }

  /**
   * Starts a file (`name` is used in locations; '-' for stdin). A piece of a file (parallel
   * readers) can say where it starts: its first line, and how many games came before it.
   */
  begin(name = '-', at: { line?: number; gamesBefore?: number } = {}): void {
    this.beginFile(name);
    this.line = at.line ?? 1;
    this.game = at.gamesBefore ?? 0;
  }

  /** Ends the current file: a game left open is reported as missing its result or truncated. */
  end(): void {
    this.endFile();
  }

  /**
   * The input of the current file broke off (read or decompression error): reported as the
   * truncation of the game being read, or, between games or after a broken game (already
   * reported once), of the next one: the text that could not be read.
   */
  abortFile(message: string): void {
    if (this.g === SKIP) this.stopGame();
    this.fail('truncated', message, 0);
  }

  private loc(tok: number): PgnLocation {
    return { file: this.file, line: this.line, column: this.column(tok), game: this.game };
  }

  /** Whether hooks fire at the current point of the movetext. */
  private listening(): boolean {
    return !this.quiet && !this.stopped && (this.depth === 0 || this.variations);
  }

  // ----- game structure ----------------------------------------------------------------------

  protected startGame(tok: number): void {
    this.game++;
    this.g = TAGS;
    this.markGameStart(tok);
    this.fen = undefined;
    this.variant = undefined;
    this.tags = 0;
    this.v.beginGame?.(this.loc(tok));
  }

  protected onTag(buf: Uint8Array, n0: number, n1: number, v0: number, v1: number, tok: number): void {
    let h = 0x811c9dc5;
    for (let i = n0; i < n1; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
    if (this.tags > 0 && this.line > this.lastTagLine + 1 && (this.hasTagHash(h) || (n1 - n0 === 5 && bytesEqual(buf, n0, n1, 'Event')))) {
      // After a blank line, a tag the game already has, or an Event tag (which starts games, as
      // in the resynchronisation after errors): the game had no movetext at all.
      this.fail('missing-result', 'the game has tags but no movetext or result', tok, false);
      this.startGame(tok);
    }
    if (this.tags >= this.limits.maxTags) {
      this.fail('too-long', `more than ${this.limits.maxTags} tags`, tok);
      return;
    }
    this.tagHashes[this.tags++] = h;
    this.lastTagLine = this.line;
    const len = n1 - n0;
    if (len === 3 && bytesEqual(buf, n0, n1, 'FEN')) this.fen = decodeTagValue(buf, v0, v1);
    else if (len === 7 && bytesEqual(buf, n0, n1, 'Variant')) this.variant = decodeTagValue(buf, v0, v1);
    if (this.hasTag && this.wanted(h, buf, n0, n1)) this.v.tag!(latin1(buf, n0, n1), decodeTagValue(buf, v0, v1));
  }

  /** Whether the visitor reads the tag named buf[n0, n1), whose hash is h. */
  private wanted(h: number, buf: Uint8Array, n0: number, n1: number): boolean {
    const hashes = this.wantHashes;
    if (hashes === undefined) return true;
    for (let i = 0; i < hashes.length; i++) if (hashes[i] === h && bytesEqual(buf, n0, n1, this.wantNames[i]!) && n1 - n0 === this.wantNames[i]!.length) return true;
    return false;
  }

  private hasTagHash(h: number): boolean {
    for (let i = 0; i < this.tags; i++) if (this.tagHashes[i] === h) return true;
    return false;
  }

  protected enterMovetext(tok: number): boolean {
    if (this.g === OUTSIDE) this.startGame(tok);
    if (this.g !== TAGS) return this.g === MOVETEXT;
    this.g = MOVETEXT;
    const bad = setupGame(this.pos, this.fen, this.variant);
    if (bad !== undefined) {
      this.fail(bad.kind, bad.kind === 'bad-fen' ? `[FEN] tag: ${bad.message}` : `[Variant] tag: ${bad.message}`, tok);
      return false;
    }
    this.depth = 0;
    this.lineMoves[0] = 0;
    this.stopped = false;
    this.quiet = this.v.endTags !== undefined && this.v.endTags(this.pos) === false;
    return true;
  }

  protected onResult(result: string, buf: Uint8Array, tok: number, end: number): void {
    if (this.depth > 0) {
      const opened = this.varLine[this.depth]!;
      this.fail('unmatched-parenthesis', `result ${result} inside the variation opened at line ${opened}`, tok, true, undefined, opened);
      return;
    }
    if (this.captureText) this.v.gameText!(this.gameText(buf, end));
    this.stopGame();
    this.games++;
    this.v.endGame?.(result);
  }

  protected onNextGame(tok: number): void {
    if (this.depth > 0) {
      const opened = this.varLine[this.depth]!;
      this.fail('unmatched-parenthesis', `the variation opened at line ${opened} is not closed before the next game`, tok, false, undefined, opened);
    } else {
      this.fail('missing-result', 'the game has no result token before the next game', tok, false);
    }
  }

  protected onEndOfFile(inComment: boolean): void {
    if (this.g === TAGS) this.fail('missing-result', 'the file ends after the tags, before any movetext or result', 0);
    else if (this.g === MOVETEXT) {
      if (inComment) this.fail('truncated', `the file ends inside the comment opened at line ${this.commentLine}`, 0, true, undefined, this.commentLine);
      else if (this.depth > 0) this.fail('truncated', `the file ends inside the variation opened at line ${this.varLine[this.depth]}`, 0, true, undefined, this.varLine[this.depth]);
      else this.fail('missing-result', 'the file ends before the game has a result', 0);
    }
    this.stopGame();
  }

  protected fail(kind: PgnErrorKind, message: string, tok: number, resync = true, where?: { line: number; column: number }, opened?: number): void {
    if (this.g === OUTSIDE && resync) this.startGame(tok);
    const e: PgnGameError = { ...this.loc(tok), ...where, kind, message };
    if (opened !== undefined) e.opened = opened;
    this.errors++;
    this.errorsByKind[kind] = (this.errorsByKind[kind] ?? 0) + 1;
    this.v.error?.(e);
    if (resync) this.startSkipping();
    else this.stopGame();
  }

  protected onBadToken(buf: Uint8Array, s: number, e: number): void {
    // The decoder drops a leading byte-order mark, which is what is unexpected here: keep it.
    const bom = buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf ? 3 : 0;
    this.fail('bad-token', `unexpected ${quote((bom ? '\uFEFF' : '') + decodeText(buf, s + bom, Math.min(e, s + 41)), 40)}`, s);
  }

  // ----- moves ---------------------------------------------------------------------------------

  protected onMove(buf: Uint8Array, s: number, e: number): void {
    const depth = this.depth;
    if (this.quiet || this.stopped || (depth > 0 && !this.variations)) return;
    if (this.hasSan) this.v.san!(latin1(buf, s, e), depth);
    if (!this.replay) return;
    const pos = this.pos;
    const m = sanBytesToMove(pos, buf, s, e);
    if (m < 0) {
      this.notAMove(buf, s, e, m);
      return;
    }
    if (pos.ply >= this.limits.maxPlies) {
      this.fail('too-long', `more than ${this.limits.maxPlies} plies`, s);
      return;
    }
    if (depth === 0) {
      if (this.hasMove && this.v.move!(pos, m, pos.ply) === false) {
        this.stopped = true;
        return;
      }
    } else if (this.hasVarMove) this.v.variationMove!(pos, m, pos.ply, depth);
    pos.play(m);
    this.lineMoves[depth]++;
  }

  /** A symbol that is not a legal move: a null move, an "e.p." suffix, a glyph, or an error. */
  private notAMove(buf: Uint8Array, s: number, e: number, code: number): void {
    const text = latin1(buf, s, e);
    if (text === '--' || text === 'Z0' || text === '0000') return this.nullMove(s);
    if (text === 'e.p.' || text === 'ep') return;
    const nag = glyphNag(text);
    if (nag >= 0) return this.onNag(nag, s);
    const kind = code === SAN_ILLEGAL ? 'illegal-move' : code === SAN_AMBIGUOUS ? 'ambiguous-move' : 'unreadable-move';
    const what = kind === 'illegal-move' ? 'illegal move' : kind === 'ambiguous-move' ? 'ambiguous move' : 'unreadable move';
    this.fail(kind, `${what} ${this.moveLabel()} ${excerpt(text, 40)}${this.depth > 0 ? ' in a variation' : ''} (position ${makeFen(this.pos)})`, s);
  }

  private moveLabel(): string {
    return `${this.pos.fullmoves}${this.pos.turn === WHITE ? '.' : '...'}`;
  }

  private nullMove(tok: number): void {
    const pos = this.pos;
    const depth = this.depth;
    if (pos.inCheck()) {
      this.fail('illegal-move', `null move ${this.moveLabel()} -- while in check (position ${makeFen(pos)})`, tok);
      return;
    }
    if (depth === 0) {
      if (!this.hasNull || this.v.nullMove!(pos, pos.ply, 0) === false) {
        this.stopped = true;
        return;
      }
    } else if (this.hasNull) this.v.nullMove!(pos, pos.ply, depth);
    if (pos.ply >= this.limits.maxPlies) {
      this.fail('too-long', `more than ${this.limits.maxPlies} plies`, tok);
      return;
    }
    pos.playNull();
    this.lineMoves[depth]++;
  }

  protected onNag(nag: number, _tok: number): void {
    if (this.hasNag && this.listening()) this.v.nag!(nag, this.depth);
  }

  protected wantComment(): boolean {
    return this.hasComment && this.listening();
  }

  protected onComment(text: string): void {
    this.v.comment!(text, this.depth);
  }

  // ----- variations ----------------------------------------------------------------------------

  protected onOpen(tok: number): void {
    const d = this.depth + 1;
    if (d > this.limits.maxDepth) {
      this.fail('too-long', `variations nested deeper than ${this.limits.maxDepth}`, tok);
      return;
    }
    const listening = !this.quiet && !this.stopped && this.variations;
    this.varReplayed[d] = 0;
    if (listening && this.replay) {
      if (this.lineMoves[d - 1] === 0) {
        this.fail('bad-token', 'a variation "(" that does not follow a move', tok);
        return;
      }
      const pos = this.pos;
      this.varMove[d] = pos.moveAt(1);
      pos.undo();
      this.varPly[d] = pos.ply;
      this.varReplayed[d] = 1;
    }
    this.varLine[d] = this.line;
    this.lineMoves[d] = 0;
    this.depth = d;
    if (listening) this.v.beginVariation?.(d);
  }

  protected onClose(tok: number): void {
    const d = this.depth;
    if (d === 0) {
      this.fail('unmatched-parenthesis', '")" without a matching "("', tok);
      return;
    }
    if (this.varReplayed[d] === 1) {
      const pos = this.pos;
      while (pos.ply > this.varPly[d]!) pos.undo();
      const m = this.varMove[d]!;
      if (m === MOVE_NULL) pos.playNull();
      else pos.play(m);
    }
    this.depth = d - 1;
    if (!this.quiet && !this.stopped && this.variations) this.v.endVariation?.(d);
  }
}

/** Parses a whole PGN text or byte array synchronously; returns the parser for its counts. */
export function parsePgn(input: string | Uint8Array, visitor: PgnVisitor, options: PgnParserOptions & { file?: string } = {}): PgnParser {
  const parser = new PgnParser(visitor, options);
  parser.begin(options.file ?? '-');
  parser.push(typeof input === 'string' ? encoder.encode(input) : input);
  parser.end();
  return parser;
}
