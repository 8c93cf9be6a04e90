/**
 * The byte level of the PGN reader: a push scanner over Uint8Array chunks that finds tokens,
 * keeps line/column, streams comments and resynchronises after errors. It knows the game
 * states (between games, tags, movetext, skipping a broken game) because they change what a
 * byte means (`[` starts a tag or ends a game without result), but what tokens do to a game is
 * left to the subclass (parser.ts).
 *
 * A token cut by a chunk boundary is scanned again with the next chunk (chunks.ts); comments
 * and skipped text are streamed instead, so the carry never exceeds one token or one tag line.
 */
import { ByteBuffer } from './byteBuffer.js';
import { ChunkedInput, tokenTooLongMessage } from './chunks.js';
import { quote } from '../core/result.js';
import { SYMBOL, bytesEqual, decodeText, glyphNag, latin1 } from './bytes.js';
import { TAG, TAG_NO_NAME, TAG_NO_VALUE, TAG_OK, scanTagLine } from './tagLine.js';

export const OUTSIDE = 0;
export const TAGS = 1;
export const MOVETEXT = 2;
export const SKIP = 3;

const NORMAL = 0;
const BRACE = 1;
const LINE = 2;

export abstract class PgnScanner extends ChunkedInput {
  /** 1-based index of the current (or last) game in the file. */
  protected game = 0;
  protected g = OUTSIDE;
  private lex = NORMAL;
  /** The comment being read: wanted by the subclass, its text so far, where it opened. */
  private commentWanted = false;
  /** The comment went over the token limit: reported where it ends, so chunking cannot matter. */
  private commentTooLong = false;
  private readonly comment = new ByteBuffer();
  protected commentLine = 0;
  private commentColumn = 0;
  /** SKIP state: at the start of a line (only blanks so far), and was the previous line blank. */
  private skipAtStart = false;
  private skipPrevBlank = false;
  /** SKIP state: inside a {comment} or a ;comment, and whether the last byte ended a token. */
  private skipBrace = false;
  private skipSemi = false;
  private skipDelim = false;
  /** Absolute offset of the end of the line holding the last tag read. */
  private tagLineEnd = -1;

  // ----- what tokens mean: the subclass ---------------------------------------------------

  /** A tag pair; the name is buf[n0..n1), the raw value buf[v0..v1). */
  protected abstract onTag(buf: Uint8Array, n0: number, n1: number, v0: number, v1: number, tok: number): void;
  /** A symbol that should be a move (SAN, LAN, castling, `--`). */
  protected abstract onMove(buf: Uint8Array, s: number, e: number): void;
  protected abstract onResult(result: string, buf: Uint8Array, tok: number, end: number): void;
  protected abstract onNag(nag: number, tok: number): void;
  protected abstract onOpen(tok: number): void;
  protected abstract onClose(tok: number): void;
  /** A movetext token appears: starts a game (if between games) and its movetext. False if it failed. */
  protected abstract enterMovetext(tok: number): boolean;
  /** Should the comment that starts now be decoded and delivered? */
  protected abstract wantComment(): boolean;
  protected abstract onComment(text: string): void;
  /** Something that is not PGN. */
  protected abstract onBadToken(buf: Uint8Array, s: number, e: number): void;
  /** End of the current file. */
  protected abstract onEndOfFile(inComment: boolean): void;

  // ----- input -----------------------------------------------------------------------------

  /** Starts a new file: locations and game numbers restart. */
  protected beginFile(name: string): void {
    this.resetInput(name);
    this.game = 0;
    this.g = OUTSIDE;
    this.lex = NORMAL;
    this.tagLineEnd = -1;
  }

  /** Ends the current file. */
  protected endFile(): void {
    this.finishInput();
    const inComment = this.lex === BRACE;
    this.lex = NORMAL;
    this.onEndOfFile(inComment);
  }

  protected inGame(): boolean {
    return this.g === TAGS || this.g === MOVETEXT;
  }

  /** The game is over (or abandoned at `[`): back between games. */
  protected stopGame(): void {
    this.g = OUTSIDE;
    this.lex = NORMAL;
  }

  /** Switches to skipping the rest of a broken game. */
  protected startSkipping(): void {
    this.g = SKIP;
    this.lex = NORMAL;
    this.skipAtStart = false;
    this.skipPrevBlank = false;
    this.skipBrace = false;
    this.skipSemi = false;
    this.skipDelim = false;
  }

  // ----- the scan loop ------------------------------------------------------------------

  /** Scans buf[i..end); returns where it stopped (end, or the start of an unfinished token). */
  protected scan(buf: Uint8Array, i: number, end: number, final: boolean): number {
    while (i < end) {
      if (this.lex !== NORMAL) {
        i = this.lex === BRACE ? this.scanBrace(buf, i, end, final) : this.scanLine(buf, i, end);
        if (this.lex !== NORMAL && i < end) return i;
        continue;
      }
      if (this.g === SKIP) {
        i = this.scanSkip(buf, i, end, final);
        if (this.g === SKIP && i < end) return i;
        continue;
      }
      const c = buf[i]!;
      if (c <= 32 && SPACE[c] === 1) {
        if (c === 10) {
          this.line++;
          this.lineStart = this.base + i + 1;
        } else if (c === 13) {
          if (i + 1 < end) {
            if (buf[i + 1] !== 10) {
              this.line++;
              this.lineStart = this.base + i + 1;
            }
          } else if (!final) return i;
          else {
            this.line++;
            this.lineStart = this.base + i + 1;
          }
        }
        i++;
        continue;
      }
      if (this.g !== OUTSIDE && this.base + i - this.gameStart > this.limits.maxGameBytes) {
        this.fail('too-long', `game longer than ${this.limits.maxGameBytes} bytes`, i);
        continue;
      }
      // Moves: the hot path.
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
        let j = i + 1;
        while (j < end && SYMBOL[buf[j]!] === 1) j++;
        if (j === end && !final) return i;
        if (j - i > this.limits.maxTokenBytes) this.tokenTooLong(i);
        else if (this.g === MOVETEXT || this.enterMovetext(i)) this.onMove(buf, i, j);
        i = j;
        continue;
      }
      if (c >= 48 && c <= 57) {
        const r = this.scanDigits(buf, i, end, final);
        if (r < 0) return i;
        i = r;
        continue;
      }
      switch (c) {
        case 91: // [
          i = this.scanTag(buf, i, end, final);
          if (i < 0) return -i - 1;
          continue;
        case 123: // {
          if (this.g === OUTSIDE) this.commentWanted = false;
          else if (this.g === MOVETEXT || this.enterMovetext(i)) this.commentWanted = this.wantComment();
          else continue;
          this.startComment(i);
          this.lex = BRACE;
          i++;
          continue;
        case 59: // ;
          this.commentWanted = this.g === MOVETEXT && this.wantComment();
          this.startComment(i);
          this.lex = LINE;
          i++;
          continue;
        case 37: // % escape line, only in the first column
          if (this.base + i === this.lineStart) {
            this.commentWanted = false;
            this.startComment(i);
            this.lex = LINE;
            i++;
            continue;
          }
          break;
        case 40: // (
          if (this.g === MOVETEXT || this.enterMovetext(i)) this.onOpen(i);
          i++;
          continue;
        case 41: // )
          if (this.g === MOVETEXT || this.enterMovetext(i)) this.onClose(i);
          i++;
          continue;
        case 42: // *
          if (this.g === MOVETEXT || this.enterMovetext(i)) this.onResult('*', buf, i, i + 1);
          i++;
          continue;
        case 60: // < > reserved for future use: ignored
        case 62:
          i++;
          continue;
      }
      // Rare tokens: NAGs, glyphs, null moves, stray bytes.
      let j = i + 1;
      if (c === 36) while (j < end && buf[j]! >= 48 && buf[j]! <= 57) j++;
      else if (c === 33 || c === 63) while (j < end && (buf[j] === 33 || buf[j] === 63)) j++;
      else if (c === 43 || c === 45 || c === 61) while (j < end && SYMBOL[buf[j]!] === 1) j++;
      else if (c >= 128) while (j < end && buf[j]! > 32 && NON_ASCII_STOP[buf[j]!] !== 1) j++;
      if (j === end && !final) return i;
      if (c === 0xef && buf[i + 1] === 0xbb && buf[i + 2] === 0xbf && (this.base + i === 0 || (this.g === OUTSIDE && this.base + i === this.lineStart))) {
        // A byte-order mark: at the start of the input, or at the start of a line between games,
        // where files that each begin with one were joined (`cat`, `zstdcat` of monthly dumps).
        i += 3;
        continue;
      }
      if (j - i > this.limits.maxTokenBytes) {
        this.tokenTooLong(i);
        i = j;
        continue;
      }
      this.rareToken(buf, i, j);
      i = j;
    }
    return end;
  }

  /**
   * A token (move, number, NAG, tag line…) over the token limit. A cut token is carried to the
   * next chunk only up to the same limit (chunks.ts), so the verdict does not depend on chunking.
   */
  private tokenTooLong(tok: number): void {
    this.fail('too-long', tokenTooLongMessage(this.limits.maxTokenBytes), tok);
  }

  private rareToken(buf: Uint8Array, s: number, e: number): void {
    const c = buf[s]!;
    if (this.g !== MOVETEXT && !this.enterMovetext(s)) return;
    if (c === 36 && e > s + 1) {
      this.onNag(Math.min(parseInt(latin1(buf, s + 1, e), 10), 255), s);
    } else if (c === 45 && e === s + 2 && buf[s + 1] === 45) {
      this.onMove(buf, s, e); // -- null move
    } else {
      // Glyphs and "½-½" are short: a long run of stray bytes is not decoded whole.
      const text = e - s > 8 ? '' : c >= 128 ? decodeText(buf, s, e) : latin1(buf, s, e);
      if (text === '½-½') this.onResult('1/2-1/2', buf, s, e);
      else {
        const nag = glyphNag(text);
        if (nag >= 0) this.onNag(nag, s);
        else this.onBadToken(buf, s, e);
      }
    }
  }

  /** Move numbers (skipped), results, castling with zeros. Returns the new index, or -1 to wait for more bytes. */
  private scanDigits(buf: Uint8Array, i: number, end: number, final: boolean): number {
    let j = i + 1;
    while (j < end && buf[j]! >= 48 && buf[j]! <= 57) j++;
    if (j === end && !final) return -1;
    const d = buf[j];
    if (d === 46) {
      // Move number: "12." or "12...", possibly glued to the move ("12.Nf3").
      while (j < end && buf[j] === 46) j++;
      if (j === end && !final) return -1;
      if (j - i > this.limits.maxTokenBytes) this.tokenTooLong(i);
      else if (this.g !== MOVETEXT) this.enterMovetext(i);
      return j;
    }
    if (d !== 45 && d !== 47) {
      if (j - i > this.limits.maxTokenBytes) this.tokenTooLong(i);
      else if (j - i === 4 && buf[i] === 48 && buf[i + 1] === 48 && buf[i + 2] === 48 && buf[i + 3] === 48) {
        // "0000", UCI's null move, which python-chess also reads in SAN: taken for the move
        // number 0 it vanished, and the next move went to the wrong side.
        if (this.g === MOVETEXT || this.enterMovetext(i)) this.onMove(buf, i, j);
      } else if (this.g !== MOVETEXT) this.enterMovetext(i);
      return j; // a bare number: a move number without its dot
    }
    while (j < end && SYMBOL[buf[j]!] === 1) j++;
    if (j === end && !final) return -1;
    if (j - i > this.limits.maxTokenBytes) {
      this.tokenTooLong(i);
      return j;
    }
    if (this.g !== MOVETEXT && !this.enterMovetext(i)) return j;
    const n = j - i;
    const c0 = buf[i]!;
    if (n === 3 && buf[i + 1] === 45 && ((c0 === 49 && buf[i + 2] === 48) || (c0 === 48 && buf[i + 2] === 49))) {
      this.onResult(c0 === 49 ? '1-0' : '0-1', buf, i, j);
    } else if ((n === 7 && bytesEqual(buf, i, j, '1/2-1/2')) || (n === 3 && bytesEqual(buf, i, j, '1/2'))) {
      this.onResult('1/2-1/2', buf, i, j);
    } else {
      this.onMove(buf, i, j); // 0-0, 0-0-0, or something unreadable
    }
    return j;
  }

  /** A tag pair `[Name "value"]`. Returns the new index, or -(index+1) to wait for more bytes. */
  private scanTag(buf: Uint8Array, i: number, end: number, final: boolean): number {
    if (this.g === MOVETEXT) {
      if (i + 1 >= end && !final) return -i - 1;
      if (buf[i + 1] === 37) {
        // "[%clk …]" outside braces: an unbraced comment command; skip it.
        let j = i + 2;
        while (j < end && buf[j] !== 93 && buf[j] !== 10 && buf[j] !== 13) j++;
        if (j === end && !final) return -i - 1;
        if (j - i > this.limits.maxTokenBytes) this.tokenTooLong(i);
        return buf[j] === 93 ? j + 1 : j;
      }
      this.onNextGame(i);
      return i;
    }
    // Find the end of the line first, so a tag cut by a chunk boundary is waited for. The
    // other tags of the line reuse it: a long line of tags is then read in linear time.
    let eol: number;
    if (this.tagLineEnd > this.base + i) eol = this.tagLineEnd - this.base;
    else {
      eol = i + 1;
      while (eol < end && buf[eol] !== 10 && buf[eol] !== 13) eol++;
      if (eol === end && !final) return -i - 1;
      this.tagLineEnd = this.base + eol;
      if (eol - i > this.limits.maxTokenBytes) {
        this.tokenTooLong(i);
        return eol;
      }
    }
    if (this.g === OUTSIDE) this.startGame(i);
    const r = scanTagLine(buf, i, eol);
    if (r !== TAG_OK) {
      const what =
        r === TAG_NO_NAME ? 'no tag name' : r === TAG_NO_VALUE ? `no quoted value after tag name ${quote(latin1(buf, TAG[0]!, Math.min(TAG[1]!, TAG[0]! + 41)), 40)}` : 'an unterminated value';
      this.fail(eol === end ? 'truncated' : 'bad-tag', `malformed tag with ${what}: ${quote(decodeText(buf, i, Math.min(eol, i + 81)), 80)}`, i);
      return eol;
    }
    const after = TAG[4]!;
    this.onTag(buf, TAG[0]!, TAG[1]!, TAG[2]!, TAG[3]!, i);
    return after;
  }

  /** Called when a game starts with its first tag. */
  protected abstract startGame(tok: number): void;
  /** A tag line appears in movetext: the game lacks its result; the next game starts at `tok`. */
  protected abstract onNextGame(tok: number): void;

  /** Inside `{…}`: streams to the closing brace. */
  private scanBrace(buf: Uint8Array, i: number, end: number, final: boolean): number {
    const s = i;
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c === 125) {
        this.lex = NORMAL;
        if (this.commentWanted) this.deliverComment(buf, s, i);
        this.endComment(i, true);
        return i + 1;
      }
      if (c === 10 || c === 13) {
        if (c === 13) {
          if (i + 1 >= end && !final) break;
          if (buf[i + 1] === 10) i++;
        }
        this.line++;
        this.lineStart = this.base + i + 1;
      } else if (c === 91 && this.base + i === this.lineStart) {
        // A line starting with "[Event " inside a comment: the comment was never closed.
        if (i + 7 > end && !final) break;
        if (bytesEqual(buf, i, end, '[Event ')) {
          this.lex = NORMAL;
          if (this.g === OUTSIDE) return i;
          this.fail('truncated', `comment opened at line ${this.commentLine} is not closed before the next game`, i, false, undefined, this.commentLine);
          return i;
        }
      }
    }
    if (this.commentWanted) this.appendComment(buf, s, i);
    return i;
  }

  private startComment(i: number): void {
    this.comment.clear();
    this.commentTooLong = false;
    this.commentLine = this.line;
    this.commentColumn = this.column(i);
  }

  /**
   * A comment ended at buf[i]: one over the token limit, or (a brace comment, even one nobody
   * reads) one that takes the game past its byte limit, breaks the game. Both are decided here,
   * where the comment ends, and not at a chunk boundary inside it.
   */
  private endComment(i: number, brace: boolean): void {
    const tooLong = this.commentTooLong;
    this.commentTooLong = false;
    if (this.g === OUTSIDE || this.g === SKIP) return;
    const where = { line: this.commentLine, column: this.commentColumn };
    if (tooLong) this.fail('too-long', `comment longer than ${this.limits.maxTokenBytes} bytes`, i, true, where);
    else if (brace && this.base + i - this.gameStart > this.limits.maxGameBytes) {
      this.fail('too-long', `comment makes the game longer than ${this.limits.maxGameBytes} bytes`, i, true, where);
    }
  }

  /** A `;` comment or `%` escape line: to the end of the line (the newline is left for the main loop). */
  private scanLine(buf: Uint8Array, i: number, end: number): number {
    const s = i;
    while (i < end && buf[i] !== 10 && buf[i] !== 13) i++;
    if (i < end) {
      this.lex = NORMAL;
      if (this.commentWanted) this.deliverComment(buf, s, i);
      this.endComment(i, false);
    } else if (this.commentWanted) this.appendComment(buf, s, i);
    return i;
  }

  private appendComment(buf: Uint8Array, s: number, e: number): void {
    if (this.comment.length + e - s > this.limits.maxTokenBytes) {
      this.commentWanted = false;
      this.commentTooLong = true;
      this.comment.clear();
      return;
    }
    this.comment.append(buf, s, e);
  }

  private deliverComment(buf: Uint8Array, s: number, e: number): void {
    if (this.comment.length === 0 && e - s <= this.limits.maxTokenBytes) {
      this.onComment(decodeText(buf, s, e));
      return;
    }
    this.appendComment(buf, s, e);
    if (this.commentWanted) this.onComment(decodeText(this.comment.view(), 0, this.comment.length));
    this.comment.clear();
  }

  /**
   * Skipping a broken game: up to a line that starts with "[" + letter after a blank line, or
   * with "[Event ", or just past the game's result token (outside comments), where the next game
   * may start without tags, as python-chess and pgn-extract read on after a broken game. Lines
   * are only looked at, never buffered.
   */
  private scanSkip(buf: Uint8Array, i: number, end: number, final: boolean): number {
    while (i < end) {
      const c = buf[i]!;
      if (c === 10 || c === 13) {
        if (c === 13) {
          if (i + 1 >= end && !final) return i;
          if (buf[i + 1] === 10) i++;
        }
        this.line++;
        this.lineStart = this.base + i + 1;
        this.skipPrevBlank = this.skipAtStart;
        this.skipAtStart = true;
        this.skipSemi = false;
        this.skipDelim = true;
        i++;
        continue;
      }
      if (!this.skipAtStart) {
        const n = this.skipText(buf, i, end, final);
        if (n < 0) return i;
        if (this.g !== SKIP) return n;
        i = n;
        continue;
      }
      if (c === 0xef) {
        // A byte-order mark at the start of a line (files joined): read as white space.
        if (i + 3 > end && !final) return i;
        if (buf[i + 1] === 0xbb && buf[i + 2] === 0xbf) {
          i += 3;
          continue;
        }
      }
      if (c === 91) {
        if (i + 7 > end && !final) return i;
        const letter = buf[i + 1]! | 32;
        if (letter >= 97 && letter <= 122 && (this.skipPrevBlank || bytesEqual(buf, i, end, '[Event '))) {
          this.g = OUTSIDE;
          return i;
        }
      }
      if (c !== 32 && c !== 9) this.skipAtStart = false;
      else {
        this.skipDelim = true;
        i++;
      }
    }
    return i;
  }

  /**
   * The text of a broken game, from `i` to the end of its line (or of the bytes at hand): comments
   * are passed over, and a result token that stands alone ends the game, returning the index just
   * past it with the state back between games. Returns -1 to wait for more bytes.
   */
  private skipText(buf: Uint8Array, i: number, end: number, final: boolean): number {
    while (i < end) {
      const c = buf[i]!;
      if (c === 10 || c === 13) return i;
      if (this.skipSemi) {
        i++;
        continue;
      }
      if (this.skipBrace) {
        if (c === 125) {
          this.skipBrace = false;
          this.skipDelim = true;
        }
        i++;
        continue;
      }
      if (c === 123) this.skipBrace = true;
      else if (c === 59) this.skipSemi = true;
      else if (this.skipDelim && (c === 49 || c === 48 || c === 42)) {
        const n = resultLength(buf, i, end, final);
        if (n < 0) return -1;
        if (n > 0) {
          this.g = OUTSIDE;
          return i + n;
        }
      }
      this.skipDelim = SPACE[c] === 1 || c === 41 || c === 40;
      i++;
    }
    return i;
  }
}

const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'].map((r) => Uint8Array.from(r, (ch) => ch.charCodeAt(0)));

/**
 * The length of the result token at `i` when one stands there, followed by white space, a
 * comment, a parenthesis, a tag or the end of the input; 0 when none does; -1 when the bytes at
 * hand end too soon to tell.
 */
function resultLength(buf: Uint8Array, i: number, end: number, final: boolean): number {
  for (const r of RESULTS) {
    let k = 0;
    while (k < r.length && i + k < end && buf[i + k] === r[k]) k++;
    if (k < r.length) {
      if (i + k >= end && !final) return -1;
      continue;
    }
    if (i + k >= end) return final ? k : -1;
    const after = buf[i + k]!;
    if (SPACE[after] === 1 || after === 123 || after === 59 || after === 40 || after === 41 || after === 91) return k;
  }
  return 0;
}

/**
 * White space between tokens: space, tab, line feed, vertical tab, form feed, carriage return,
 * and SUB (Ctrl-Z), which MS-DOS editors left at the end of text files. Any other control byte
 * has no place in PGN (the standard's section 4.1 allows printing characters and white space)
 * and is a bad token: read as a space, a NUL inside "N\0c6" would leave the novelty mark N and
 * the legal move c6, and the damage would pass unseen.
 */
const SPACE = new Uint8Array(33);
for (const c of [9, 10, 11, 12, 13, 26, 32]) SPACE[c] = 1;

/** Bytes that end a run of non-ASCII bytes (a glyph such as ± or ½-½). */
const NON_ASCII_STOP = new Uint8Array(256);
for (const ch of '{}()[];') NON_ASCII_STOP[ch.charCodeAt(0)] = 1;
