/**
 * One generated game at a time, written as Lichess writes its database dumps: the tags in
 * Lichess's order, the movetext on one line, clock comments in a share of the games.
 *
 * A game is made of real ones: game A's moves up to a random ply p ≤ SPLICE_PLIES whose
 * position another game B also reached (at its own ply q, by other moves where one is found),
 * then B's moves from there, and so on (see `moves`); the last game's result goes with its
 * moves. Then, as Lichess games end more often on time and less often in
 * a draw than master games, some games stop early at a random ply: lost on time by the side to
 * move, or resigned. Every prefix of a legal game is legal and a game only ends where its last
 * source game ended (checkmates and stalemates keep their results) or where the next move
 * would have been playable.
 *
 * Game n of a run depends only on the seed and n's batch, so any number of workers write the
 * same file.
 */
import { createRng, type Rng } from '../../src/match/rng.js';
import { ClockRun, writeClock } from './clock.js';
import { BLACK_WINS, DRAW, ENTRIES, SPLICE_PLIES, WHITE_WINS, type Corpus } from './corpus.js';
import { expectedScore, gameId, gaussian, ratingDiff, TIME_CONTROLS, weighted, type TimeControl } from './lichess.js';
import { pairing, type Players } from './players.js';

export interface GeneratorOptions {
  seed: number;
  /** Share of timed games with `[%clk]` comments. */
  clockShare: number;
  /** UTC times spread evenly from `start` (ms since 1970) over `span` ms, game by game. */
  start: number;
  span: number;
  /** Games in the whole run (for the times). */
  total: number;
}

/** Games lost on time (Lichess: about a third of decided games). */
const TIME_FORFEIT = 0.3;
/** Master draws that become resignations (Lichess has about 5 % draws, masters 39 %). */
const DRAW_RESIGNED = 0.85;
/** Source games one generated game is made of, at most. */
const MAX_SEGMENTS = 4;
/** Transposing plies, and games at each, tried in search of a game that came by another move. */
const PLY_TRIES = 4;
const MEMBER_TRIES = 8;
/** Games of arena tournaments. */
const TOURNAMENT = 0.12;

const RESULT_TEXT = ['1-0', '0-1', '1/2-1/2'];
const encoder = new TextEncoder();

export class GameGenerator {
  private out = new Uint8Array(1 << 22);
  private at = 0;
  private readonly clock = new ClockRun();
  private readonly pickTc = weighted(TIME_CONTROLS, (t) => t.share);
  private readonly unknownOpening = encoder.encode('[ECO "?"]\n[Opening "?"]\n');
  private readonly days = new Map<number, string>();
  // The current game's segments: plies segFrom[s] .. segFrom[s] + segCount[s] of game segGame[s].
  private readonly segGame = new Int32Array(MAX_SEGMENTS);
  private readonly segFrom = new Int32Array(MAX_SEGMENTS);
  private readonly segCount = new Int32Array(MAX_SEGMENTS);
  private segments = 0;

  /** `openingHeaders[i]`: the `[ECO]` and `[Opening]` lines of opening i (see openings.ts). */
  constructor(
    private readonly c: Corpus,
    private readonly players: Players,
    private readonly openingHeaders: readonly Uint8Array[],
    private readonly opts: GeneratorOptions,
  ) {}

  /** Games [from, to) of the run, as PGN bytes (valid until the next call). */
  batch(index: number, from: number, to: number): Uint8Array {
    const rng = createRng((Math.imul(this.opts.seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
    this.at = 0;
    for (let n = from; n < to; n++) this.game(n, rng);
    return this.out.subarray(0, this.at);
  }

  private game(n: number, rng: Rng): void {
    const length = this.moves(rng);
    let plies = length;
    let result = this.c.result[this.segGame[this.segments - 1]!]!;
    let timeForfeit = false;
    const tc = this.pickTc(rng);
    if (length >= 4 && tc.speed !== 'Correspondence' && rng.next() < TIME_FORFEIT) {
      plies = 2 + rng.int(length - 2);
      result = plies % 2 === 0 ? BLACK_WINS : WHITE_WINS;
      timeForfeit = true;
    } else if (result === DRAW && length >= 4 && rng.next() < DRAW_RESIGNED) {
      plies = (length >> 1) + rng.int(length - (length >> 1));
      result = rng.next() < 0.5 ? WHITE_WINS : BLACK_WINS;
    }
    this.cut(plies);

    // The players: the stronger one wins a decided game as often as the ratings predict.
    const [x, y] = pairing(this.players, rng);
    const rx = this.rating(x, rng);
    const ry = this.rating(y, rng);
    const xWhite = result === DRAW ? rng.next() < 0.5 : (result === WHITE_WINS) === rng.next() < expectedScore(rx, ry);
    const [white, black, rw, rb] = xWhite ? [x, y, rx, ry] : [y, x, ry, rx];
    const score = result === WHITE_WINS ? 1 : result === BLACK_WINS ? 0 : 0.5;
    const expected = expectedScore(rw, rb);

    const time = this.opts.start + ((n + rng.next()) * this.opts.span) / this.opts.total;
    const day = this.day(time);
    const resultText = RESULT_TEXT[result]!;
    const speed = tc.speed;
    const event = speed !== 'Correspondence' && rng.next() < TOURNAMENT ? `Rated ${speed} tournament https://lichess.org/tournament/${gameId(rng.int(1 << 30), 77)}` : `Rated ${speed} game`;
    this.text(
      `[Event "${event}"]\n[Site "https://lichess.org/${gameId(n, this.opts.seed)}"]\n[Date "${day}"]\n[Round "-"]\n` +
        `[White "${this.players.names[white]}"]\n[Black "${this.players.names[black]}"]\n[Result "${resultText}"]\n` +
        `[UTCDate "${day}"]\n[UTCTime "${clockTime(time)}"]\n[WhiteElo "${rw}"]\n[BlackElo "${rb}"]\n` +
        `[WhiteRatingDiff "${ratingDiff(score, expected, rng)}"]\n[BlackRatingDiff "${ratingDiff(1 - score, 1 - expected, rng)}"]\n`,
    );
    const opening = this.opening();
    this.bytes(opening < 0 ? this.unknownOpening : this.openingHeaders[opening]!);
    this.text(`[TimeControl "${tc.tag}"]\n[Termination "${timeForfeit ? 'Time forfeit' : 'Normal'}"]\n\n`);
    this.movetext(plies, tc, timeForfeit, rng);
    this.text(`${resultText}\n\n`);
  }

  private rating(player: number, rng: Rng): number {
    return Math.min(3200, Math.max(600, this.players.ratings[player]! + Math.round(25 * gaussian(rng))));
  }

  /**
   * The game's moves as segments of source games: game A from its start to a ply p at most
   * SPLICE_PLIES deep whose position another game B reached by another move (a transposition),
   * then B from there, and so on up to MAX_SEGMENTS times while the current game has such
   * positions ahead, each further switch after the first a coin toss. A game without a
   * transposition is a source game's moves (cut short, most often: see `game`). Returns the
   * number of plies.
   */
  private moves(rng: Rng): number {
    const c = this.c;
    let g = rng.int(c.games);
    let from = 0;
    let plies = 0;
    this.segments = 0;
    for (;;) {
      const s = this.segments++;
      this.segGame[s] = g;
      this.segFrom[s] = from;
      const deepest = c.deepestTransposing[g]!;
      if (s + 1 === MAX_SEGMENTS || deepest <= from || (s > 0 && rng.next() < 0.5)) {
        this.segCount[s] = c.plies[g]! - from;
        return plies + this.segCount[s]!;
      }
      // A transposing ply of g past `from` (one exists: the deepest), then a game that came
      // there by another move. In some groups nearly all came by the same move: after a few
      // misses, another ply; after a few of those, a game that came the same way (the game
      // then goes on as that one).
      const row = g * ENTRIES;
      let p = from;
      let m = -1;
      search: for (let plyTries = 0; plyTries < PLY_TRIES; plyTries++) {
        p = from + 1 + rng.int(deepest - from);
        while (c.transposing[row + p] === 0) p = p === deepest ? from + 1 : p + 1;
        const own = row + p;
        const k = c.group[own]!;
        const start = c.groupStart[k]!;
        const others = c.groupStart[k + 1]! - start - 1;
        for (let tries = 0; tries < MEMBER_TRIES; tries++) {
          m = c.members[start + rng.int(others)]!;
          if (m === own) m = c.members[start + others]!;
          if (c.lastMove[m] !== c.lastMove[own]) break search;
        }
      }
      this.segCount[s] = p - from;
      plies += p - from;
      g = Math.floor(m / ENTRIES);
      from = m - g * ENTRIES;
    }
  }

  /** Keeps the first `plies` plies of the segments. */
  private cut(plies: number): void {
    let left = plies;
    for (let s = 0; s < this.segments; s++) {
      if (this.segCount[s]! >= left) {
        this.segCount[s] = left;
        this.segments = s + 1;
        return;
      }
      left -= this.segCount[s]!;
    }
  }

  /** Lichess's opening: the last position of the game with a name. */
  private opening(): number {
    const c = this.c;
    for (let s = this.segments - 1; s >= 0; s--) {
      const from = this.segFrom[s]!;
      const to = Math.min(from + this.segCount[s]!, SPLICE_PLIES);
      if (to <= from && s > 0) continue;
      const e = this.segGame[s]! * ENTRIES + Math.max(to, from);
      if (c.opening[e]! >= 0 && (c.openingPly[e]! > from || s === 0)) return c.opening[e]!;
    }
    return -1;
  }

  private movetext(plies: number, tc: TimeControl, flagged: boolean, rng: Rng): void {
    const c = this.c;
    const clocks = tc.speed !== 'Correspondence' && rng.next() < this.opts.clockShare;
    if (clocks) this.clock.start(tc.base, tc.increment, plies, flagged ? plies & 1 : -1, rng);
    this.reserve(plies * 40 + 64);
    const out = this.out;
    let at = this.at;
    let i = 0;
    for (let s = 0; s < this.segments; s++) {
      const base = c.first[this.segGame[s]!]! + this.segFrom[s]!;
      for (let j = base, end = base + this.segCount[s]!; j < end; j++, i++) {
        const white = (i & 1) === 0;
        if (white || clocks) {
          at = writeInt(out, at, (i >> 1) + 1);
          out[at++] = 46; // .
          if (!white) {
            out[at++] = 46;
            out[at++] = 46;
          }
          out[at++] = 32;
        }
        // Byte loops: a SAN is a few bytes, too short for subarray() and set() to pay.
        for (let b = c.moveStart[j]!, end = c.moveStart[j + 1]!; b < end; b++) out[at++] = c.san[b]!;
        out[at++] = 32;
        if (clocks) {
          for (let b = 0; b < CLOCK_OPEN.length; b++) out[at++] = CLOCK_OPEN[b]!;
          at = writeClock(out, at, this.clock.next(i & 1, rng));
          for (let b = 0; b < CLOCK_CLOSE.length; b++) out[at++] = CLOCK_CLOSE[b]!;
        }
      }
    }
    this.at = at;
  }

  private day(time: number): string {
    const d = Math.floor(time / 86_400_000);
    let s = this.days.get(d);
    if (s === undefined) {
      s = new Date(d * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '.');
      this.days.set(d, s);
    }
    return s;
  }

  private text(s: string): void {
    this.reserve(s.length * 3);
    this.at += encoder.encodeInto(s, this.out.subarray(this.at)).written;
  }

  private bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.out.set(b, this.at);
    this.at += b.length;
  }

  private reserve(n: number): void {
    if (this.at + n <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.at + n));
    grown.set(this.out.subarray(0, this.at));
    this.out = grown;
  }
}

const CLOCK_OPEN = encoder.encode('{ [%clk ');
const CLOCK_CLOSE = encoder.encode('] } ');

function writeInt(out: Uint8Array, at: number, v: number): number {
  let digits = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
  for (let d = digits - 1; d >= 0; d--, v = Math.floor(v / 10)) out[at + d] = 48 + (v % 10);
  return at + digits;
}

function clockTime(time: number): string {
  const s = Math.floor(time / 1000) % 86_400;
  const two = (v: number): string => (v < 10 ? '0' : '') + v;
  return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}
