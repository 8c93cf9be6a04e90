/**
 * A book's notes in a PGN tree, both ways: what the explorer's PGN export writes at each move
 * (its NAG, its comment, and a `[%tabiya value=N forbidden]` command for the user value and the
 * forbidden mark, commands in comments as lichess writes `[%clk …]` and `[%eval …]`), and the PGN
 * visitor of `book annotate --notes`, which reads them back from the main line and every
 * variation. So a repertoire exported, edited in another program (ChessBase, Scid, a text
 * editor) and read back keeps its values, marks, NAGs and comments.
 *
 * The export also names each line's opening where it changes, a comment of its own at the move
 * (`{B90 Sicilian Defense: Najdorf Variation}`, src/serve/subtree.ts). Given the opening names,
 * the visitor follows the same rule along every line and takes such a comment, where the export
 * would write it, for the name it is, not for a note: a round trip does not turn names into the
 * book's comments.
 *
 * A position the tree reaches by two move orders is written out once: where the export reaches it
 * again, the move ends with a comment naming the line that continues it, `{transposes to 1.d4
 * Nf6 2.c4}`, as a printed repertoire or a Chessable course says so rather than print the same
 * moves twice (two copies of one move would be two places to edit it, and only the last would
 * count on reading back). The visitor takes such a comment, where its line reaches the same
 * position from the game's start, for the reference it is, not for a note.
 *
 * Unlike Terra's annotate (annotate.ts: main line only, a NAG sets the user value), a NAG here is
 * the move's NAG and nothing more; only the command sets a value, so an exported book reads back
 * as it was. A move with no annotation is left as the book has it, unless the reader is asked for
 * every move (`book annotate --notes --replace`: the PGN's notes replace the book's, so a comment
 * deleted in another program is deleted from the book too). Browser-safe.
 */
import type { Position } from '../../core/position.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { playMoveList } from '../../notation/moveList.js';
import { makeSan } from '../../notation/san.js';
import { openingText, type Opening, type OpeningIndex } from '../../serve/openings.js';
import { LinesVisitor } from './annotate.js';

/** One move's notes as a PGN gives them; a field left undefined is not given. */
export interface PgnNote {
  keyHi: number;
  keyLo: number;
  move: number;
  black: boolean;
  value?: number;
  forbidden?: boolean;
  nag?: number;
  comment?: string;
  /** With `everyMove`: the move in SAN and the game of the PGN it was first met in (from 1), to name it. */
  san?: string;
  game?: number;
}

// One command per comment; its name then words separated by blanks.
const TABIYA = /\[%tabiya\s([^[\]]*)\]/g;

/** The command for a move's user value and forbidden mark, or '' when it has neither. */
export function noteCommand(value: number | null, forbidden: boolean): string {
  const parts: string[] = [];
  if (value !== null && value >= 0) parts.push(`value=${value}`);
  if (forbidden) parts.push('forbidden');
  return parts.length === 0 ? '' : `[%tabiya ${parts.join(' ')}]`;
}

/**
 * A comment's tabiya command read and taken out: the value (0..100) and forbidden mark it sets,
 * the rest of the text with its blanks collapsed (a writer wraps long comments), and what in the
 * command was not understood.
 */
export function readNoteCommand(comment: string): { value?: number; forbidden?: boolean; text: string; unknown: string[] } {
  const out: { value?: number; forbidden?: boolean; text: string; unknown: string[] } = { text: '', unknown: [] };
  out.text = comment
    .replace(TABIYA, (_m, body: string) => {
      for (const word of body.trim().split(/\s+/)) {
        const v = /^value=(\d{1,3})$/.exec(word);
        if (v !== null && Number(v[1]) <= 100) out.value = Number(v[1]);
        else if (word === 'forbidden') out.forbidden = true;
        else if (word === 'allowed') out.forbidden = false;
        else if (word !== '') out.unknown.push(word);
      }
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
  return out;
}

/** The comment that refers a transposition to the line (moves from `root`) where its continuation is written. */
export function transpositionText(root: Position, line: readonly number[]): string {
  const p = root.clone();
  const out: string[] = [];
  for (const m of line) {
    const san = makeSan(p, m);
    out.push(p.turn === 0 ? `${p.fullmoves}.${san}` : out.length === 0 ? `${p.fullmoves}...${san}` : san);
    p.play(m);
  }
  return `transposes to ${out.join(' ')}`;
}

const TRANSPOSES = /(?:^|\s)transposes to ([^{}]+)$/;

/**
 * `flat` (blanks collapsed) without the export's transposition reference at its end: only one
 * whose line, played from `root`, reaches the position `after` the move (a comment of the user's
 * that reads "transposes to the Catalan" is a note).
 */
function withoutTransposition(flat: string, root: Position | undefined, after: { hi: number; lo: number } | undefined): string {
  const m = TRANSPOSES.exec(flat);
  if (m === null || root === undefined || after === undefined) return flat;
  const p = root.clone();
  if (!playMoveList(p, m[1]!).ok || p.keyHi >>> 0 !== after.hi || p.keyLo >>> 0 !== after.lo) return flat;
  return flat.slice(0, m.index).trim();
}

/** A NAG that judges the move itself (PGN standard 10: $1..$9), not the position or anything else. */
function isMoveAssessment(nag: number): boolean {
  return nag >= 1 && nag <= 9;
}

/** Whether the PGN gives any of a move's notes. */
export function isAnnotated(n: PgnNote): boolean {
  return n.value !== undefined || n.forbidden !== undefined || n.nag !== undefined || n.comment !== undefined;
}

/** What `book annotate --notes` read. */
export interface PgnNotesStats {
  lines: number;
  /** Moves with an annotation (a move annotated in several places counts once, the last wins). */
  moves: number;
  skipped: number;
  /** Words of tabiya commands not understood, with where (file:line is the caller's). */
  unknown: string[];
}

/**
 * Collects the annotated moves of every line, main line and variations alike: a comment or NAG
 * belongs to the move just before it at the same depth. A later annotation of the same move (in
 * this file or a later one) replaces an earlier one field by field.
 */
export class PgnNotesVisitor extends LinesVisitor {
  readonly stats: PgnNotesStats = { lines: 0, moves: 0, skipped: 0, unknown: [] };
  /** By `hi:lo:move`, in the order first met: the annotated moves, or every move with `everyMove`. */
  readonly notes = new Map<string, PgnNote>();
  private pending: PgnNote[] = [];
  /** The move just read at each variation depth (0: the main line). */
  private last: (PgnNote | undefined)[] = [];
  /** At each depth, the opening in effect after the move just read, and before it. */
  private current: (Opening | undefined)[] = [];
  private before: (Opening | undefined)[] = [];
  /** At each depth, the opening name the export writes at the move just read, until a comment is taken for it. */
  private named: (string | undefined)[] = [];
  /** The game's start, and at each depth the position after the move just read: a transposition's line is checked against them. */
  private root: Position | undefined;
  private after: ({ hi: number; lo: number } | undefined)[] = [];

  /**
   * `openings`: the names the export writes (without them every comment is a note);
   * `everyMove`: keep the moves without an annotation too (with no field given).
   */
  constructor(
    onError: (e: PgnGameError) => void = () => {},
    private readonly openings?: OpeningIndex,
    private readonly everyMove = false,
  ) {
    super(onError);
  }

  beginGame(): void {
    this.pending = [];
    this.last = [];
    this.current = [];
    this.before = [];
    this.named = [];
    this.after = [];
  }

  endTags(pos: Position): void {
    this.root = pos.clone();
    // The export starts from its position's own name (subtree.ts), whatever the way there.
    this.current[0] = this.openings?.of(pos);
  }

  move(pos: Position, m: number): void {
    this.last[0] = this.at(pos, m);
    this.name(pos, m, 0);
  }

  variationMove(pos: Position, m: number, _ply: number, depth: number): void {
    this.last[depth] = this.at(pos, m);
    this.name(pos, m, depth);
  }

  beginVariation(depth: number): void {
    // A comment before the variation's first move is about the position, not a move.
    this.last[depth] = undefined;
    this.named[depth] = undefined;
    // The variation replaces the move just read on the line that contains it: the name in effect before that move.
    this.current[depth] = this.before[depth - 1];
  }

  nullMove(_pos: Position, _ply: number, depth: number): boolean {
    // A null move in a variation (a threat shown as "--"): what follows it is not about the move before.
    this.last[depth] = undefined;
    this.named[depth] = undefined;
    // The main line stops there, as without this hook.
    return depth > 0;
  }

  /** The opening the export names at move `m` of `pos` (its rule: OpeningIndex.renamed), and the one then in effect. */
  private name(pos: Position, m: number, depth: number): void {
    this.before[depth] = this.current[depth];
    this.named[depth] = undefined;
    pos.play(m);
    this.after[depth] = { hi: pos.keyHi >>> 0, lo: pos.keyLo >>> 0 };
    const renamed = this.openings?.renamed(pos, this.current[depth]);
    pos.undo();
    if (renamed === undefined) return;
    this.named[depth] = openingText(renamed);
    this.current[depth] = renamed;
  }

  nag(nag: number, depth: number): void {
    const n = this.last[depth];
    if (n === undefined) return;
    // The move's NAG is its move assessment ($1..$9: !, ?, !!, ??, !?, ?!, forced, singular,
    // worst; PGN standard 10) wherever it stands: writers put it first, but a novelty ($146, "N")
    // or the position's judgement (+=, $14) may come before it (Bb5 $146 $1). A move without one
    // keeps its first NAG.
    if (n.nag === undefined || (isMoveAssessment(nag) && !isMoveAssessment(n.nag))) n.nag = nag;
  }

  comment(text: string, depth: number): void {
    const n = this.last[depth];
    if (n === undefined) return;
    // The first comment of a move the export names, when it is that name (or starts with it: a
    // program that joins a move's comments into one), is the name, not a note.
    const name = this.named[depth];
    if (name !== undefined) {
      const flat = text.replace(/\s+/g, ' ').trim();
      if (flat === name || flat.startsWith(`${name} `)) {
        text = flat.slice(name.length);
        this.named[depth] = undefined;
      }
    }
    // The export's reference to where a transposed position goes on (its last comment at the
    // move, or the end of one a program joined), wrapped anywhere by the writer.
    if (/transposes\s+to\s/.test(text)) text = withoutTransposition(text.replace(/\s+/g, ' ').trim(), this.root, this.after[depth]);
    const c = readNoteCommand(text);
    if (c.value !== undefined) n.value = c.value;
    if (c.forbidden !== undefined) n.forbidden = c.forbidden;
    for (const w of c.unknown) if (this.stats.unknown.length < 20) this.stats.unknown.push(w);
    if (c.text !== '') n.comment = n.comment === undefined ? c.text : `${n.comment} ${c.text}`;
  }

  protected drop(): void {
    this.pending = [];
    this.stats.skipped++;
  }

  private at(pos: Position, move: number): PgnNote {
    const n: PgnNote = { keyHi: pos.keyHi >>> 0, keyLo: pos.keyLo >>> 0, move, black: pos.turn === 1 };
    if (this.everyMove) {
      n.san = makeSan(pos, move);
      n.game = this.stats.lines + this.stats.skipped + 1;
    }
    this.pending.push(n);
    return n;
  }

  protected apply(): void {
    for (const n of this.pending) {
      const annotated = isAnnotated(n);
      if (!annotated && !this.everyMove) continue;
      const k = `${n.keyHi}:${n.keyLo}:${n.move}`;
      const had = this.notes.get(k);
      if (had === undefined) {
        this.notes.set(k, n);
        if (annotated) this.stats.moves++;
      } else {
        if (annotated && !isAnnotated(had)) this.stats.moves++;
        if (n.value !== undefined) had.value = n.value;
        if (n.forbidden !== undefined) had.forbidden = n.forbidden;
        if (n.nag !== undefined) had.nag = n.nag;
        if (n.comment !== undefined) had.comment = n.comment;
      }
    }
    this.stats.lines++;
    this.pending = [];
  }
}
