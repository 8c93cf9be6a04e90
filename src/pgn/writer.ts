/**
 * Export-format PGN: the seven-tag roster first, then the other tags in order; movetext with
 * move numbers, lines wrapped at 79 columns, comments as `{…}`, NAGs as `$n`. Options strip
 * comments, NAGs and variations (pgn-extract's -C -N -V). The output reads back identically
 * (tags, moves, comments, NAGs, variations) and is accepted by pgn-extract and polyglot.
 *
 *     writeGame({ tags: { White: 'A', Black: 'B', Result: '1-0' }, moves: ['e4', 'e5', 'Qh5'], result: '1-0' });
 */
import type { PgnGame, PgnNode } from './game.js';

export interface WriteOptions {
  comments?: boolean;
  nags?: boolean;
  variations?: boolean;
  /** Longest movetext line (default 79, the PGN standard's export limit). */
  lineLength?: number;
}

/**
 * A game to write: tags, the main line as SAN strings with optional per-move comments (what the
 * match runner records), and the result. A PgnGame (trees, from readGames) is written as well.
 */
export interface GameRecord {
  /** Tags as an object or as ordered pairs. */
  tags?: Readonly<Record<string, string>> | readonly (readonly [string, string])[];
  moves: readonly string[];
  /** The comment after each move (same index), e.g. `[%clk …]` or an engine's score. */
  comments?: readonly (string | undefined)[];
  /** Comments before the first move. */
  gameComments?: readonly string[];
  /** The result token (default: the Result tag, else '*'). */
  result?: string;
}

const ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'] as const;
const ROSTER_DEFAULT: Record<string, string> = { Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?' };
const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '*']);

const escapeTag = (v: string): string => v.replace(/[\r\n\t]+/g, ' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"');
const tagName = (n: string): string => (/^[A-Za-z0-9][A-Za-z0-9_+#=:-]*$/.test(n) ? n : n.replace(/[^A-Za-z0-9_]/g, '_') || '_');

/** Writes one game in export format; the text ends with a blank line, ready to concatenate. */
export function writeGame(game: GameRecord | PgnGame, options: WriteOptions = {}): string {
  const pairs: [string, string][] = Array.isArray(game.tags)
    ? game.tags.map(([n, v]) => [n, v] as [string, string])
    : Object.entries((game.tags ?? {}) as Record<string, string>);
  const tags = new Map<string, string>();
  for (const [n, v] of pairs) if (!tags.has(n)) tags.set(n, v);
  let result = game.result ?? tags.get('Result') ?? '*';
  if (!RESULTS.has(result)) result = '*';
  const out: string[] = [];
  for (const name of ROSTER) out.push(`[${name} "${escapeTag(tags.get(name) ?? (name === 'Result' ? result : ROSTER_DEFAULT[name]!))}"]`);
  for (const [n, v] of tags) if (!(ROSTER as readonly string[]).includes(n)) out.push(`[${tagName(n)} "${escapeTag(v)}"]`);

  const { turn, fullmoves } = startOf(tags.get('FEN'));
  const tokens: string[] = [];
  const w = new TokenWriter(tokens, options);
  // With SAN strings, `comments` are per move; in a PgnGame they come before the first move.
  const record = game.moves.some((m) => typeof m === 'string') || (game as GameRecord).gameComments !== undefined;
  const before = record ? (game as GameRecord).gameComments : ((game as PgnGame).comments ?? (game as GameRecord).gameComments);
  if (before !== undefined) for (const c of before) w.comment(c);
  const nodes = (game.moves as readonly (string | PgnNode)[]).map((m, i): PgnNode => {
    if (typeof m !== 'string') return m;
    const c = (game as GameRecord).comments?.[i];
    return c === undefined || c === '' ? { san: m } : { san: m, comments: [c] };
  });
  w.line(nodes, turn, fullmoves);
  tokens.push(result);
  return `${out.join('\n')}\n\n${wrap(tokens, options.lineLength ?? 79)}\n\n`;
}

/** Writes several games. */
export function writeGames(games: readonly (GameRecord | PgnGame)[], options: WriteOptions = {}): string {
  return games.map((g) => writeGame(g, options)).join('');
}

/** Side to move (0 white, 1 black) and move number at the start, from a FEN tag. */
function startOf(fen: string | undefined): { turn: number; fullmoves: number } {
  if (fen === undefined) return { turn: 0, fullmoves: 1 };
  const f = fen.trim().split(/\s+/);
  const n = parseInt(f[5] ?? '1', 10);
  return { turn: f[1] === 'b' ? 1 : 0, fullmoves: Number.isFinite(n) && n > 0 ? n : 1 };
}

class TokenWriter {
  private readonly comments: boolean;
  private readonly nags: boolean;
  private readonly variations: boolean;
  /** A black move must repeat its number ("12...") after a comment or variation. */
  private needNumber = true;

  constructor(
    private readonly tokens: string[],
    options: WriteOptions,
  ) {
    this.comments = options.comments ?? true;
    this.nags = options.nags ?? true;
    this.variations = options.variations ?? true;
  }

  comment(text: string): void {
    if (!this.comments) return;
    // Braces cannot be escaped inside a PGN comment.
    const words = text.replace(/}/g, ')').split(/\s+/).filter((x) => x !== '');
    if (words.length === 0) {
      this.tokens.push('{}');
    } else {
      words[0] = `{${words[0]}`;
      words[words.length - 1] = `${words[words.length - 1]}}`;
      for (const word of words) this.tokens.push(word);
    }
    this.needNumber = true;
  }

  line(nodes: readonly PgnNode[], turn: number, fullmoves: number): void {
    this.needNumber = true;
    let t = turn;
    let n = fullmoves;
    for (const node of nodes) {
      if (node.before !== undefined) for (const c of node.before) this.comment(c);
      if (t === 0) this.tokens.push(`${n}.`);
      else if (this.needNumber) this.tokens.push(`${n}...`);
      this.tokens.push(node.san);
      this.needNumber = false;
      if (this.nags && node.nags !== undefined) for (const nag of node.nags) this.tokens.push(`$${nag}`);
      if (node.comments !== undefined) for (const c of node.comments) this.comment(c);
      if (this.variations && node.variations !== undefined) {
        for (const v of node.variations) {
          this.tokens.push('(');
          const start = this.tokens.length;
          this.line(v, t, n);
          if (this.tokens.length === start) this.tokens.pop();
          else this.tokens.push(')');
          this.needNumber = true;
        }
      }
      if (t === 1) n++;
      t ^= 1;
    }
  }
}

/** Joins tokens with spaces into lines of at most `width` characters ("(" and ")" hug their neighbours). */
function wrap(tokens: readonly string[], width: number): string {
  const lines: string[] = [];
  let cur = '';
  let glue = false;
  for (const tok of tokens) {
    const tight = glue || tok === ')';
    const add = cur === '' ? tok : tight ? tok : ` ${tok}`;
    if (cur !== '' && cur.length + add.length > width) {
      // A line must not start with "%" (an escape line to PGN readers): take the word before along.
      const cut = tok[0] === '%' ? cur.lastIndexOf(' ') : -2;
      if (cut === -1) cur += add;
      else if (cut >= 0) {
        lines.push(cur.slice(0, cut));
        cur = `${cur.slice(cut + 1)} ${tok}`;
      } else {
        lines.push(cur);
        cur = tok;
      }
    } else cur += add;
    glue = tok === '(';
  }
  if (cur !== '') lines.push(cur);
  return lines.join('\n');
}
