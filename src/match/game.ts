/**
 * One game between two engine players (match-runner.md §4): set up the opening, then for the
 * side to move check the board, ask for a move against the runner's clock, validate and play
 * it, and run the adjudicators. Every way an engine can fail ends the game with a reason in
 * cutechess's words and a PGN termination; the failing player is left `dead` so the runner
 * replaces it.
 *
 * The clock starts right after `go` is written and stops when the move line has been read; no
 * polling sleeps, nothing slow between the two.
 */
import type { Position } from '../core/position.js';
import { WHITE } from '../core/types.js';
import { positionFromFen } from '../notation/fen.js';
import { makeSan, sanToMove } from '../notation/san.js';
import { makeUci, parseUci } from '../notation/uci.js';
import type { EngineNotice, EngineReply, EngineScore, GoLimits, SearchInfo } from '../protocol/engineClient.js';
import { Adjudicator, COLOR_WORD, boardOutcome, forfeit, type AdjudicationRules, type GameEnd, type GameResult } from './adjudicate.js';
import { Clock } from './clock.js';
import type { Opening } from './openings.js';
import { EngineFault, quoteEngineLine, type EnginePlayer, type Timeouts } from './player.js';
import { countOf } from './report.js';
import type { TimeControl } from './tc.js';
import { gameTimeUse, type GameTimeUse } from './timeUse.js';

export interface MoveRecord {
  uci: string;
  san: string;
  /** An opening (book) move: not timed, no engine output. */
  book: boolean;
  /** The mover's score, from the mover's point of view. */
  score?: EngineScore;
  depth?: number;
  /** Time the move took on the runner's clock, ms. */
  timeMs?: number;
  /** The mover's time left right after the move, before the increment, ms (timed clocks only). */
  clockMs?: number;
}

/** A runner-side fault attributed to one colour. */
export type FaultKind = 'time' | 'disconnect' | 'stall' | 'illegal' | 'claim';

export interface GameRecord extends GameEnd {
  number: number;
  round: number;
  white: string;
  black: string;
  whiteTc: TimeControl;
  blackTc: TimeControl;
  /** Root position of the game (before the opening moves). */
  fen: string;
  chess960: boolean;
  moves: MoveRecord[];
  openingSource: string;
  /** Extra words for the PGN's final comment (the engine's illegal move, a fault's cause). */
  detail?: string;
  fault?: { color: number; kind: FaultKind };
  /** White's and Black's time use (absent for a game that never started). */
  time?: [GameTimeUse, GameTimeUse];
  startedAt: Date;
  durationMs: number;
}

export interface GameSetup {
  number: number;
  round: number;
  white: EnginePlayer;
  black: EnginePlayer;
  opening: Opening;
  rules: AdjudicationRules;
  timeouts: Timeouts;
  /** Aborts the game (SPRT stop, interrupt): it ends as `*`, `Game interrupted`. */
  signal?: AbortSignal;
}

type Waited = { tag: 'reply'; reply: EngineReply; at: number } | { tag: 'error'; error: unknown } | { tag: 'deadline' } | { tag: 'abort' };

/** Plays the game; never throws for engine misbehaviour. */
export async function playGame(setup: GameSetup): Promise<GameRecord> {
  const started = new Date();
  const t0 = performance.now();
  const players = [setup.white, setup.black] as const;
  const root = positionFromFen(setup.opening.fen);
  if (!root.ok) throw new RangeError(`${setup.opening.source}: ${root.error.message}`);
  const pos = root.value;
  const chess960 = pos.chess960;
  const moves: MoveRecord[] = [];
  const uciMoves: string[] = [];
  const record = (end: GameEnd, extra: Partial<GameRecord> = {}): GameRecord => ({
    ...end,
    number: setup.number,
    round: setup.round,
    white: setup.white.spec.name,
    black: setup.black.spec.name,
    whiteTc: setup.white.spec.tc,
    blackTc: setup.black.spec.tc,
    fen: setup.opening.fen,
    chess960,
    moves,
    openingSource: setup.opening.source,
    time: gameTimeUse({ fen: setup.opening.fen, moves }),
    startedAt: started,
    durationMs: performance.now() - t0,
    ...extra,
  });

  // 1. Opening moves: forced, untimed; stop before a move that would end the game (cutechess #666).
  for (const u of setup.opening.moves) {
    const m = parseUci(pos, u);
    if (!m.ok) throw new RangeError(`${setup.opening.source}: ${m.error.message}`);
    const san = makeSan(pos, m.value);
    pos.play(m.value);
    if (boardOutcome(pos)) {
      pos.undo();
      break;
    }
    moves.push({ uci: makeUci(m.value, chess960), san, book: true });
    uciMoves.push(makeUci(m.value, chess960));
  }

  const notices: { color: number; notice: EngineNotice }[] = [];
  const finish = (end: GameEnd, extra: Partial<GameRecord> = {}): GameRecord => {
    for (const p of players) {
      p.client.onNotice = undefined;
      if (!p.dead) p.client.gameOver(end.result, end.reason);
      p.games++;
    }
    return record(end, extra);
  };
  const faultEnd = (color: number, kind: FaultKind, e: unknown): GameRecord => {
    const stall = e instanceof EngineFault && e.kind === 'stall';
    players[color]!.kill(stall ? 'stalled' : 'disconnected');
    const reason = stall ? `${COLOR_WORD[color]}'s connection stalls` : `${COLOR_WORD[color]} disconnects`;
    const detail = (e instanceof Error ? e.message : String(e)) + players[color]!.diagnostics();
    return finish(forfeit(pos, color, reason, stall ? 'stalled connection' : 'abandoned'), { detail, fault: { color, kind: stall ? 'stall' : kind } });
  };

  // 2. New game on both engines, in parallel.
  const ready = await Promise.allSettled(
    players.map((p, color) => p.newGame({ fen: setup.opening.fen, chess960, limits: p.spec.tc, opponent: players[color ^ 1]!.spec.name }, setup.timeouts)),
  );
  for (let color = 0; color < 2; color++) {
    const r = ready[color]!;
    if (r.status === 'rejected') return faultEnd(color, 'disconnect', r.reason);
  }
  // Only now: what an engine said before answering the new game's ping (e.g. HoiChess's
  // "1-0 {White mates}" after its mating move) belongs to its last game.
  players.forEach((p, color) => (p.client.onNotice = (notice) => notices.push({ color, notice })));
  // Opening moves reach xboard engines with the first search.
  const clocks = [new Clock(setup.white.spec.tc), new Clock(setup.black.spec.tc)] as const;
  // Opening moves count towards a moves/time period (cutechess does; an xboard engine counts them).
  for (const [i, m] of moves.entries()) if (m.book) clocks[(pos.turn + moves.length - i) % 2]!.bookMove();
  const adjudicator = new Adjudicator(setup.rules);

  for (;;) {
    // 3.1 The board, then claims made in passing.
    const over = boardOutcome(pos);
    if (over) return finish(over);
    const notice = notices.shift();
    if (notice) {
      const c = notice.color;
      const kind = notice.notice.kind;
      if (kind === 'resign' || (kind === 'claim' && claimsOwnLoss(c, notice.notice.result))) return finish(resignation(c));
      return finish(forfeit(pos, c, `${COLOR_WORD[c]} makes an invalid result claim`, 'rules infraction'), { detail: notice.notice.text, fault: { color: c, kind: 'claim' } });
    }
    if (setup.signal?.aborted) return finish({ result: '*', reason: 'Game interrupted', termination: 'unterminated' });

    // 3.2 Ask the side to move.
    const side = pos.turn;
    const player = players[side]!;
    const clock = clocks[side]!;
    const limits = goLimits(clocks[0], clocks[1], side);
    let pending: Promise<EngineReply>;
    try {
      pending = player.go({ fen: setup.opening.fen, moves: uciMoves, chess960 }, limits);
    } catch (e) {
      return faultEnd(side, 'disconnect', e);
    }
    const startAt = performance.now();
    let waited = await race(pending, clock.timed ? clock.allowance() + setup.timeouts.graceMs : setup.timeouts.untimedMoveMs, setup.signal);
    if (waited.tag === 'deadline' && !clock.timed) {
      // A search without a clock has no time to lose, but a hung one would hold the match for
      // ever: past the cap the engine is asked for its move, which counts; silence is a stall.
      player.client.stop();
      const late = await race(pending, setup.timeouts.stopWaitMs, undefined);
      if (late.tag === 'deadline') {
        const why = `no move ${setup.timeouts.untimedMoveMs} ms into a search without a clock, nor ${setup.timeouts.stopWaitMs} ms after stop`;
        return faultEnd(side, 'stall', new EngineFault('stall', why));
      }
      waited = late;
    }

    if (waited.tag === 'abort') {
      // Collect the move the engine still owes, so the process is idle (or gone) when it is reused or quit.
      player.client.stop();
      const late = await race(pending, setup.timeouts.stopWaitMs, undefined);
      if (late.tag !== 'reply') player.kill('stalled after stop');
      return finish({ result: '*', reason: 'Game interrupted', termination: 'unterminated' });
    }
    if (waited.tag === 'error') return faultEnd(side, 'disconnect', waited.error);
    if (waited.tag === 'deadline') {
      // 3.3 Out of time: ask for the move now; a late move is a time loss, silence also a stall.
      player.client.stop();
      const late = await race(pending, setup.timeouts.stopWaitMs, undefined);
      const elapsed = performance.now() - startAt;
      const allowance = clock.allowance();
      clock.spend(elapsed);
      if (late.tag !== 'reply') player.kill(late.tag === 'error' ? 'disconnected' : 'stalled');
      return finish(forfeit(pos, side, `${COLOR_WORD[side]} loses on time`, 'time forfeit'), {
        detail: `${Math.round(elapsed)} ms used, ${Math.round(elapsed - allowance)} ms over${late.tag === 'reply' ? '' : '; no move after stop'}`,
        fault: { color: side, kind: 'time' },
      });
    }
    const reply = waited.reply;
    const elapsed = waited.at - startAt;

    // 3.4 The clock.
    const allowance = clock.allowance();
    const clockLeft = clock.timed ? clock.timeLeft - elapsed : undefined;
    if (!clock.spend(elapsed)) {
      return finish(forfeit(pos, side, `${COLOR_WORD[side]} loses on time`, 'time forfeit'), {
        detail: `${Math.round(elapsed)} ms used, ${Math.round(elapsed - allowance)} ms over`,
        fault: { color: side, kind: 'time' },
      });
    }

    // 3.5 What the engine said.
    if (reply.kind === 'resign') return finish(resignation(side));
    if (reply.kind === 'claim') {
      // "0-1 {White resigns}" from White: the protocol's other way to resign (CECP, cutechess).
      if (claimsOwnLoss(side, reply.result)) return finish(resignation(side));
      return finish(forfeit(pos, side, `${COLOR_WORD[side]} makes an invalid result claim`, 'rules infraction'), {
        detail: quoteEngineLine(`${reply.result} {${reply.comment}}`),
        fault: { color: side, kind: 'claim' },
      });
    }
    if (reply.kind === 'rejected') {
      return finish(forfeit(pos, side, `${COLOR_WORD[side]} claims a legal move is illegal`, 'rules infraction'), {
        detail: quoteEngineLine(reply.message),
        fault: { color: side, kind: 'claim' },
      });
    }
    const m = readMove(pos, reply.move, player.spec.proto === 'xboard');
    if (m < 0) {
      // The engine's own text, quoted printable and short: it goes into the PGN's last comment.
      const said = quoteEngineLine(reply.move);
      return finish(forfeit(pos, side, `${COLOR_WORD[side]} makes an illegal move: ${said || '(none)'}`, 'illegal move'), {
        detail: `illegal move "${said}" in ${positionDescription(pos)}`,
        fault: { color: side, kind: 'illegal' },
      });
    }

    // 3.6 Play it and adjudicate.
    const san = makeSan(pos, m);
    pos.play(m);
    if (reply.kind === 'move' && reply.drawClaim !== undefined && boardOutcome(pos)?.result !== '1/2-1/2') {
      // A draw claimed before a move that does not draw (cutechess: "forfeits by invalid draw claim").
      pos.undo();
      return finish(forfeit(pos, side, `${COLOR_WORD[side]} makes an invalid result claim`, 'rules infraction'), {
        detail: `${reply.drawClaim}, then ${reply.move}`,
        fault: { color: side, kind: 'claim' },
      });
    }
    const resetting = pos.halfmoves === 0;
    const uci = makeUci(m, chess960);
    uciMoves.push(uci);
    moves.push(moveRecord(uci, san, reply.info, elapsed, clockLeft));
    const adj = adjudicator.afterMove(pos, side, reply.info.score, resetting);
    if (adj && !boardOutcome(pos)) return finish(adj);
  }
}

/** A result claim that gives the game to the opponent: a resignation in the protocol's other words. */
function claimsOwnLoss(color: number, result: string | undefined): boolean {
  return result === (color === WHITE ? '0-1' : '1-0');
}

/** A resignation loses whatever the material (unlike a forfeit). */
function resignation(color: number): GameEnd {
  return { result: color === WHITE ? '0-1' : '1-0', reason: `${COLOR_WORD[color]} resigns`, termination: 'normal' };
}

/** Clocks as `go` sends them: both sides' remaining times, the mover's moves to go. */
function goLimits(white: Clock, black: Clock, side: number): GoLimits {
  const tc = (side === WHITE ? white : black).tc;
  const l: GoLimits = {};
  if (tc.depth > 0) l.depth = tc.depth;
  if (tc.nodes > 0) l.nodes = tc.nodes;
  if (tc.movetimeMs > 0) l.movetime = tc.movetimeMs;
  else if (!tc.infinite) {
    l.wtime = white.timeLeft;
    l.btime = black.timeLeft;
    if (white.tc.incMs > 0) l.winc = white.tc.incMs;
    if (black.tc.incMs > 0) l.binc = black.tc.incMs;
    const mover = side === WHITE ? white : black;
    if (mover.tc.moves > 0) l.movestogo = mover.movesLeft;
  }
  if (l.depth === undefined && l.nodes === undefined && l.movetime === undefined && l.wtime === undefined) l.infinite = true;
  return l;
}

/** Waits for the engine's reply, a deadline (ms from now) or an abort, whichever comes first. */
function race(pending: Promise<EngineReply>, ms: number, signal: AbortSignal | undefined): Promise<Waited> {
  return new Promise<Waited>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => settle({ tag: 'abort' });
    const settle = (w: Waited): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(w);
    };
    if (signal?.aborted) return settle({ tag: 'abort' });
    signal?.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (reply) => settle({ tag: 'reply', reply, at: performance.now() }),
      (error) => settle({ tag: 'error', error }),
    );
    if (Number.isFinite(ms)) timer = setTimeout(() => settle({ tag: 'deadline' }), Math.max(0, ms));
  });
}

/** The move an engine sent: UCI (king-takes-rook castling accepted too), or SAN from xboard engines. */
export function readMove(pos: Position, text: string, allowSan: boolean): number {
  const u = parseUci(pos, text);
  if (u.ok) return u.value;
  if (!allowSan) return -1;
  const s = sanToMove(pos, text);
  return s >= 0 ? s : -1;
}

function moveRecord(uci: string, san: string, info: SearchInfo, elapsed: number, clockLeft: number | undefined): MoveRecord {
  const r: MoveRecord = { uci, san, book: false, timeMs: Math.round(elapsed) };
  if (clockLeft !== undefined) r.clockMs = Math.round(clockLeft);
  if (info.score) r.score = info.score;
  if (info.depth !== undefined) r.depth = info.depth;
  return r;
}

function positionDescription(pos: Position): string {
  return `the position after ${countOf(pos.ply, 'ply', 'plies')} (${pos.turn === WHITE ? 'White' : 'Black'} to move)`;
}

export type { GameResult };
