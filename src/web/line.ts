/**
 * The line on the board: a start position, the moves played from it (UCI) and how far along
 * the user stands. Stepping back keeps the moves after the cursor; a different move there
 * replaces them. PGN out (with a FEN tag when the start is not the initial position) and in
 * (tags, comments, variations, NAGs and results are skipped).
 */
import type { Position } from '../core/position.js';
import { unwrap } from '../core/result.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../notation/fen.js';
import { playMoveList } from '../notation/moveList.js';
import { makeSan } from '../notation/san.js';
import { makeUci, parseUci } from '../notation/uci.js';

export class Line {
  startFen = STARTING_FEN;
  moves: string[] = [];
  sans: string[] = [];
  /** Moves played to reach the position shown (0..moves.length). */
  at = 0;

  /** The position after the first `n` moves (default: the cursor). */
  position(n = this.at): Position {
    const pos = unwrap(positionFromFen(this.startFen));
    for (let i = 0; i < n; i++) pos.play(unwrap(parseUci(pos, this.moves[i]!)));
    return pos;
  }

  fen(): string {
    return makeFen(this.position());
  }

  /** Plays a UCI move at the cursor if it is legal there; false if not. */
  play(uci: string): boolean {
    const pos = this.position();
    const m = parseUci(pos, uci);
    if (!m.ok) return false;
    const norm = makeUci(m.value, false);
    if (this.moves[this.at] !== norm) {
      this.moves.length = this.at;
      this.sans.length = this.at;
      this.moves.push(norm);
      this.sans.push(makeSan(pos, m.value));
    }
    this.at++;
    return true;
  }

  /** Sets the whole line; throws an Error naming the bad part. */
  set(fen: string, moves: readonly string[], at = moves.length): void {
    const r = positionFromFen(fen);
    if (!r.ok) throw new Error(`FEN: ${r.error.message}`);
    const pos = r.value;
    const sans: string[] = [];
    const ucis: string[] = [];
    for (const u of moves) {
      const m = parseUci(pos, u);
      if (!m.ok) throw new Error(`move ${ucis.length + 1}: ${m.error.message}`);
      sans.push(makeSan(pos, m.value));
      ucis.push(makeUci(m.value, false));
      pos.play(m.value);
    }
    this.startFen = makeFen(unwrap(positionFromFen(fen)));
    this.moves = ucis;
    this.sans = sans;
    this.at = Number.isInteger(at) ? Math.max(0, Math.min(at, ucis.length)) : ucis.length;
  }

  /** Reads a game: its FEN tag (if any) and main line. */
  loadPgn(text: string): void {
    const fenTag = /\[FEN\s+"([^"]*)"\]/i.exec(text)?.[1];
    let body = text.replace(/^\s*\[[^\]]*\]\s*$/gm, ' ').replace(/\{[^}]*\}/g, ' ').replace(/;[^\n]*/g, ' ');
    // Variations, innermost first.
    for (let prev = ''; prev !== body; ) {
      prev = body;
      body = body.replace(/\([^()]*\)/g, ' ');
    }
    body = body.replace(/\$\d+/g, ' ').replace(/(1-0|0-1|1\/2-1\/2|\*)\s*$/, ' ').replace(/[!?]+/g, '');
    const start = fenTag ?? STARTING_FEN;
    const r = positionFromFen(start);
    if (!r.ok) throw new Error(`FEN tag: ${r.error.message}`);
    const played = playMoveList(r.value, body);
    if (!played.ok) throw new Error(played.error.message);
    const pos = unwrap(positionFromFen(start));
    const ucis = played.value.map((m) => {
      const u = makeUci(m, false);
      pos.play(m);
      return u;
    });
    this.set(start, ucis);
  }

  /** The line as PGN (moves up to the end, not only to the cursor). */
  pgn(tags: Record<string, string> = {}, result = '*'): string {
    const all: Record<string, string> = { Event: 'tabiya explorer', Site: '?', Date: today(), Round: '-', White: '?', Black: '?', Result: result, ...tags };
    if (this.startFen !== STARTING_FEN) {
      all.SetUp = '1';
      all.FEN = this.startFen;
    }
    const head = Object.entries(all).map(([k, v]) => `[${k} "${v.replace(/["\\]/g, '')}"]`);
    const start = unwrap(positionFromFen(this.startFen));
    let ply = (start.fullmoves - 1) * 2 + start.turn;
    const words: string[] = [];
    this.sans.forEach((san, i) => {
      if (ply % 2 === 0) words.push(`${ply / 2 + 1}.`);
      else if (i === 0) words.push(`${(ply - 1) / 2 + 1}...`);
      words.push(san);
      ply++;
    });
    words.push(result);
    return `${head.join('\n')}\n\n${wrap(words)}\n`;
  }
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
}

function wrap(words: string[]): string {
  const lines: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur.length + w.length + 1 > 79) {
      lines.push(cur);
      cur = w;
    } else cur = cur === '' ? w : `${cur} ${w}`;
  }
  if (cur !== '') lines.push(cur);
  return lines.join('\n');
}
