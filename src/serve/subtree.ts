/**
 * The part of a book below a position, for export: walked depth first along the book moves
 * (weight above 0, or a move the user gave a value, a NAG or a comment; not forbidden), the
 * user's choices first (user value above 0, highest first), then the rest most played first,
 * moves set to 0 ("never play") last, to a depth and a node budget so a request stays bounded. Written as one PGN game whose variations are the alternatives
 * (Recursive Annotation Variations, PGN standard 8.2.5) tagged with the main line's opening
 * (ECO and Opening), each line's opening written where it changes, or as the Polyglot entries
 * of the positions on the way. A position reached again by another move order (a transposition)
 * is followed once: where it comes again the move says which line goes on from it (pgnNotes.ts).
 */
import { noteCommand, transpositionText } from '../book/rich/pgnNotes.js';
import type { Position } from '../core/position.js';
import { encodeMove } from '../book/polyglot/format.js';
import { encodeBook, type EntryInput } from '../book/polyglot/writer.js';
import type { BookPolicyConfig } from '../book/select/config.js';
import { STARTING_FEN, makeFen } from '../notation/fen.js';
import { makeSan } from '../notation/san.js';
import type { PgnGame, PgnNode } from '../pgn/game.js';
import { writeGame } from '../pgn/writer.js';
import type { MoveFacts } from './explorer.js';
import { openingText, type Opening, type OpeningIndex } from './openings.js';

export interface TreeNode {
  move: number;
  facts: MoveFacts;
  children: TreeNode[];
  /** The position after the move was followed already, by these moves from the tree's root: its children are there. */
  transposes?: number[];
}

export interface Subtree {
  fen: string;
  roots: TreeNode[];
  nodes: number;
  /** The budget ran out before the depth was reached everywhere. */
  truncated: boolean;
  /** Polyglot entries of every position walked (all of its book moves; the followed ones at the repertoire side's). */
  entries: EntryInput[];
  /** A repertoire for this side (0 White, 1 Black): at its moves only the chosen ones are followed. */
  side?: number;
}

type MovesOf = (pos: Position, policy: BookPolicyConfig) => Promise<MoveFacts[]>;

/**
 * The subtree below `pos`. With `side`, a repertoire for that side, as a Chessable course or a
 * ChessBase repertoire database holds one: at its own moves only the moves chosen (a user value
 * above 0, highest first; where none is chosen, the one move the book leads with), at the
 * opponent's every book reply.
 */
export async function walkSubtree(moves: MovesOf, pos: Position, policy: BookPolicyConfig, depth: number, budget: number, side?: number): Promise<Subtree> {
  const out: Subtree = { fen: makeFen(pos), roots: [], nodes: 0, truncated: false, entries: [], ...(side === undefined ? {} : { side }) };
  const seen = new Set<string>();
  // The positions followed so far, with the plies left below them and the way there: one reached
  // again by another move order (1.d4 Nf6 2.c4 e6 and 1.c4 Nf6 2.d4 e6) is not written out twice.
  // Two copies of its moves would double the tree and give each move two places to edit, of which
  // reading the PGN back keeps only the last; ChessBase's and Scid's trees, kept by position, show
  // it once too.
  const followedAt = new Map<string, { depth: number; line: number[] }>();
  const line: number[] = [];
  const walk = async (d: number): Promise<TreeNode[]> => {
    if (d === 0) return [];
    const here = await moves(pos, policy);
    const followed = pos.turn === side ? repertoireChoice(exportOrder(here)) : exportOrder(here);
    const key = `${pos.keyHi >>> 0}:${pos.keyLo >>> 0}`;
    if (followed.length > 0) followedAt.set(key, { depth: d, line: [...line] });
    if (!seen.has(key)) {
      seen.add(key);
      // Heaviest first within a position, as make-book writes them; at the repertoire's side,
      // only the moves it follows (a chosen move without games gets weight 1).
      const kept = pos.turn === side ? followed.map((m) => ({ ...m, weight: Math.max(m.weight, 1) })) : here;
      for (const m of [...kept].sort((a, b) => b.weight - a.weight)) if (m.weight > 0) out.entries.push({ key: { hi: pos.keyHi, lo: pos.keyLo }, move: encodeMove(m.move), weight: Math.min(m.weight, 0xffff) });
    }
    const nodes: TreeNode[] = [];
    for (const m of followed) {
      if (out.nodes >= budget) {
        out.truncated = true;
        break;
      }
      out.nodes++;
      pos.play(m.move);
      // Followed already at least as deep: the move says where it goes on. (Followed less deep,
      // as when the first way there was longer, it is followed again, to the depth asked for.)
      const there = d > 1 ? followedAt.get(`${pos.keyHi >>> 0}:${pos.keyLo >>> 0}`) : undefined;
      line.push(m.move);
      const children = there !== undefined && there.depth >= d - 1 ? [] : await walk(d - 1);
      line.pop();
      pos.undo();
      nodes.push({ move: m.move, facts: m, children, ...(there !== undefined && there.depth >= d - 1 ? { transposes: there.line } : {}) });
    }
    return nodes;
  };
  out.roots = await walk(depth);
  return out;
}

/**
 * The moves of a position an export follows, in its order. A move added by hand for a
 * repertoire has no games (weight 0) but carries the user's value or notes, and it is the line
 * the user chose: it leads, as a user value leads the book's own choice (Terra's user-set group,
 * docs/rich-books.md); a move set to 0 comes last, its notes kept, never as the main line, and
 * a forbidden move after it (its mark written as a command, so the tree reads back whole).
 */
export function exportOrder(moves: readonly MoveFacts[]): MoveFacts[] {
  const rank = (m: MoveFacts): number => (m.forbidden ? -3 : m.userValue === null ? -1 : m.userValue === 0 ? -2 : m.userValue);
  const noted = (m: MoveFacts): boolean => m.userValue !== null || m.nag !== null || m.comment !== null || m.forbidden;
  // Array.prototype.sort is stable: moves of one rank keep the book's order (most played first).
  return moves.filter((m) => m.weight > 0 || noted(m)).sort((a, b) => rank(b) - rank(a));
}

/**
 * The moves a repertoire follows at its own side's turn: those chosen, or else the book's first.
 * A forbidden move is never followed, whatever its user value: no policy plays it
 * (src/book/select/index.ts), so a repertoire through it would be a line the engine never plays.
 */
export function repertoireChoice(ordered: readonly MoveFacts[]): MoveFacts[] {
  const chosen = ordered.filter((m) => m.userValue !== null && m.userValue > 0 && !m.forbidden);
  return chosen.length > 0 ? chosen : ordered.filter((m) => m.userValue !== 0 && !m.forbidden).slice(0, 1);
}

/**
 * The subtree as one PGN game: the chosen line (exportOrder), the others as variations. Written by
 * `writeGame` (export format: tokens wrapped at 79 columns, variations included, tag values
 * escaped), so a wide tree does not become one line of thousands of characters.
 */
export function subtreePgn(tree: Subtree, pos: Position, book: string, openings?: { index: OpeningIndex; atRoot: Opening | undefined }): string {
  const tags: [string, string][] = [
    ['Event', tree.side === undefined ? `tabiya book ${book}` : `tabiya book ${book}: ${tree.side === 0 ? 'White' : 'Black'} repertoire`],
    ['Site', '?'],
    ['Date', '????.??.??'],
    ['Round', '-'],
    ['White', '?'],
    ['Black', '?'],
    ['Result', '*'],
  ];
  // A Chess960 start says so, or a reader takes its castling for standard chess (Lichess's import does).
  if (tree.fen !== STARTING_FEN) tags.push(...(pos.chess960 ? [['Variant', 'Chess960'] as [string, string]] : []), ['SetUp', '1'], ['FEN', tree.fen]);
  // The opening of the main line, as Lichess and ChessBase tag a game: its deepest named
  // position, the way to the exported position included (`atRoot`).
  const opening = openings === undefined ? undefined : mainLineOpening(tree.roots, pos, openings.index, openings.atRoot);
  if (opening !== undefined) tags.push(['ECO', opening.eco], ['Opening', opening.name]);
  const moves = line(pos, tree.roots, pos.clone(), openings === undefined ? undefined : { index: openings.index, current: openings.index.of(pos) });
  const game: PgnGame = { tags, moves, result: '*' };
  const about: string[] = [];
  if (tree.side !== undefined) about.push(`${tree.side === 0 ? 'White' : 'Black'} repertoire: ${tree.side === 0 ? "White's" : "Black's"} chosen moves (or the book's first where none is chosen), every book reply of the opponent`);
  if (tree.truncated) about.push(`cut at ${tree.nodes} moves`);
  if (about.length > 0) game.comments = about;
  return writeGame(game).replace(/\n+$/, '\n');
}

/** The opening of the deepest named position of the main line (the first move of each position), else `atRoot`. */
function mainLineOpening(roots: readonly TreeNode[], pos: Position, index: OpeningIndex, atRoot: Opening | undefined): Opening | undefined {
  const moves: number[] = [];
  for (let nodes = roots; nodes.length > 0; nodes = nodes[0]!.children) moves.push(nodes[0]!.move);
  return index.along(pos, moves) ?? atRoot;
}

/**
 * Opening names in the tree: at each move that reaches a position the list names with a name
 * other than the one in effect, the name as a comment of its own, `{B90 Sicilian Defense: Najdorf
 * Variation}`, as ChessBase and Lichess show a line's name where it changes. The tags name the
 * main line only (pgn-extract -e and a Lichess study chapter name one line per game); these
 * name every variation. The name in effect at the exported position is its own (`of`), whatever
 * the way there, so that `book annotate --notes` can tell these comments from the user's by the
 * same rule (src/book/rich/pgnNotes.ts) and does not read them back as notes.
 */
interface Naming {
  index: OpeningIndex;
  current: Opening | undefined;
}

/** The book moves as PGN nodes: the first of each position continues the line, the others are its variations. */
function line(pos: Position, nodes: readonly TreeNode[], root: Position, naming: Naming | undefined): PgnNode[] {
  if (nodes.length === 0) return [];
  /** The move as a PGN node, and the naming in effect after it. */
  const node = (n: TreeNode): [PgnNode, Naming | undefined] => {
    const out: PgnNode = { san: makeSan(pos, n.move) };
    const comments: string[] = [];
    let after = naming;
    if (naming !== undefined) {
      pos.play(n.move);
      const renamed = naming.index.renamed(pos, naming.current);
      pos.undo();
      if (renamed !== undefined) {
        comments.push(openingText(renamed));
        after = { index: naming.index, current: renamed };
      }
    }
    // The book's annotations: the NAG as $n right after the move, then the comment, which
    // starts with the user value and forbidden mark as a command (pgnNotes.ts), so that
    // `book annotate --notes` reads the tree back as it was.
    if (n.facts.nag !== null) out.nags = [n.facts.nag];
    const text = [noteCommand(n.facts.userValue, n.facts.forbidden), n.facts.comment ?? ''].filter((t) => t !== '').join(' ');
    if (text !== '') comments.push(text);
    if (n.transposes !== undefined) comments.push(transpositionText(root, n.transposes));
    if (comments.length > 0) out.comments = comments;
    return [out, after];
  };
  const [main, next] = node(nodes[0]!);
  const variations: PgnNode[][] = [];
  for (const alt of nodes.slice(1)) {
    const [first, then] = node(alt);
    pos.play(alt.move);
    variations.push([first, ...line(pos, alt.children, root, then)]);
    pos.undo();
  }
  if (variations.length > 0) main.variations = variations;
  pos.play(nodes[0]!.move);
  const rest = line(pos, nodes[0]!.children, root, next);
  pos.undo();
  return [main, ...rest];
}

/** The subtree's positions as a Polyglot book. */
export function subtreeBin(tree: Subtree): Uint8Array {
  return encodeBook(tree.entries);
}
