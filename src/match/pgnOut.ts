/**
 * A finished game as PGN text, written by the PGN writer: the Seven Tag Roster, FEN/SetUp for
 * set-up positions, cutechess's extra tags (PlyCount, TimeControl, Termination, game times), and
 * per-move comments `{+0.97/18 0.25s}` (mover's score in pawns, depth, time) with `{book}` on
 * opening moves and the result reason closing the last comment, as cutechess writes it.
 */
import { STARTING_FEN } from '../notation/fen.js';
import { writeGame } from '../pgn/writer.js';
import type { EngineScore } from '../protocol/engineClient.js';
import type { GameRecord, MoveRecord } from './game.js';
import { formatTc, type TimeControl } from './tc.js';

export interface PgnOptions {
  event: string;
  site: string;
  /** Round tag value (the pair number by default). */
  round: string;
  /**
   * cutechess-cli's minimal PGN (`--pgnout FILE min`): the tags the PGN standard requires (the
   * Seven Tag Roster, FEN and SetUp for a set-up position, the variant) and no per-move
   * `{score/depth time}` comments; the result's reason is kept.
   */
  minimal: boolean;
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function dateTag(d: Date): string {
  return `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`;
}

function timeTag(d: Date): string {
  return `${dateTag(d)} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

/** PGN's TimeControl: `-` when nothing is timed. */
export function pgnTimeControl(tc: TimeControl): string {
  return tc.infinite && tc.movetimeMs === 0 ? '-' : formatTc(tc);
}

/** `+0.97`, `-M3` (mate in moves). */
export function scoreText(s: EngineScore): string {
  if (s.kind === 'mate') return `${s.value >= 0 ? '+' : '-'}M${Math.abs(s.value)}`;
  const p = s.value / 100;
  return `${p >= 0 ? '+' : ''}${p.toFixed(2)}`;
}

/** The comment of one move, without braces, or '' when there is nothing to say. */
export function moveComment(m: MoveRecord): string {
  if (m.book) return 'book';
  const parts: string[] = [];
  if (m.score) parts.push(m.depth !== undefined ? `${scoreText(m.score)}/${m.depth}` : scoreText(m.score));
  if (m.timeMs !== undefined) parts.push(`${(m.timeMs / 1000).toFixed(m.timeMs < 100 ? 3 : 2)}s`);
  return parts.join(' ');
}

/** The game as PGN text, ending with a blank line. */
export function formatGamePgn(g: GameRecord, opts: PgnOptions): string {
  const tags: [string, string][] = [
    ['Event', opts.event],
    ['Site', opts.site],
    ['Date', dateTag(g.startedAt)],
    ['Round', opts.round],
    ['White', g.white],
    ['Black', g.black],
    ['Result', g.result],
  ];
  if (g.fen !== STARTING_FEN || g.chess960) {
    tags.push(['FEN', g.fen], ['SetUp', '1']);
    if (g.chess960) tags.push(['Variant', 'fischerandom']);
  }
  if (!opts.minimal) addTimingTags(tags, g);

  // A brace would end the comment (PGN standard 8.2.5); dropping it could turn an engine's
  // "e2}{e4" into a legal "e2e4" in the record, so braces become parentheses.
  const ending = (g.reason + (g.detail ? `: ${g.detail}` : '')).replace(/\{/g, '(').replace(/\}/g, ')');
  const comments = g.moves.map((m) => (opts.minimal ? '' : moveComment(m)));
  const last = comments.length - 1;
  if (last >= 0) comments[last] = comments[last] ? `${comments[last]}, ${ending}` : ending;
  // A game without moves (an engine failed to start) carries the reason before its result.
  if (last < 0) return writeGame({ tags, moves: [], gameComments: [ending], result: g.result });
  return writeGame({ tags, moves: g.moves.map((m) => m.san), comments, result: g.result });
}

/** cutechess-cli's tags beyond the standard's: game times, PlyCount, Termination, the clocks. */
function addTimingTags(tags: [string, string][], g: GameRecord): void {
  const end = new Date(g.startedAt.getTime() + g.durationMs);
  tags.push(['GameDuration', duration(g.durationMs)], ['GameEndTime', timeTag(end)], ['GameStartTime', timeTag(g.startedAt)]);
  tags.push(['PlyCount', String(g.moves.length)], ['Termination', g.termination]);
  const wtc = pgnTimeControl(g.whiteTc);
  const btc = pgnTimeControl(g.blackTc);
  if (wtc === btc) tags.push(['TimeControl', wtc]);
  else tags.push(['WhiteTimeControl', wtc], ['BlackTimeControl', btc]);
}
