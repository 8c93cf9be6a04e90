/**
 * Labelling positions with another engine's evaluation (`tabiya tune label`): a UCI engine
 * searches each position, and the score of its search becomes the line's EPD `ce` (labels.ts
 * `withCe`), which `tune fit --lambda` blends into its targets.
 *
 * The engines are the match runner's players (src/match/player.ts): the same handshake, option
 * set-up, deadlines and fault handling, over any transport (child processes in the CLI,
 * scripted engines in tests). The score is the one the UCI client keeps for a search: the last
 * exact score of the principal line, a bound only when no exact one came.
 *
 * Each engine is told `ucinewgame` once, when it starts, and never between positions: the
 * positions are unrelated, but a new game clears the engine's hash table, a cost that grows with
 * its size (Stockfish 15.1 at 5000 nodes a position: 36% more time with Hash=256, none at 16).
 * The price is that a score depends on the positions the same engine searched before it; a
 * fixed-node search of the same file in the same order by one engine gives the same labels again.
 *
 * `concurrency` engines each take the next position nobody has taken, and the results are handed
 * over in the input order (a result waits for those before it). An engine that dies or stalls on a
 * position costs that position only: it is killed, a fresh one is started, and the work goes
 * on. An engine that cannot be started, at first or after a fault, ends the job.
 */
import { err, ok, ParseError, type Result } from '../core/result.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import type { EngineReply, EngineScore, GoLimits } from '../protocol/engineClient.js';
import type { EngineSpec } from '../match/engineSpec.js';
import { EngineFault, EnginePlayer, within, type SpawnEngine, type Timeouts } from '../match/player.js';
import { fenOfFields } from './labels.js';

/** The largest |ce|: the side to move is mated on the board (`mate 0`); a mate in N moves is 32000 − N. */
export const CE_MATE = 32000;

/**
 * A search's score as EPD `ce` (the side to move's point of view, as UCI reports it):
 * `cp X` is X (kept within ±32000, what labels.ts reads), `mate N` is ±(32000 − |N|), positive
 * when the side to move mates (N > 0), −32000 for `mate 0`.
 */
export function ceOfScore(score: EngineScore): number {
  if (score.kind === 'cp') return Math.max(-CE_MATE, Math.min(CE_MATE, score.value));
  const n = Math.min(Math.abs(score.value), CE_MATE - 1);
  return score.value > 0 ? CE_MATE - n : n - CE_MATE;
}

/**
 * The FEN an engine searches for a line: its four EPD fields, with the line's move counters when
 * it is a FEN that has them (else `0 1`), checked to be a legal position of standard chess.
 */
export function searchFen(line: string): Result<string, ParseError> {
  const fen = fenOfFields(line);
  if (!fen.ok) return fen;
  const pos = positionFromFen(fen.value);
  if (!pos.ok) return pos;
  // A UCI engine reads X-FEN castling as standard chess unless told UCI_Chess960 for the game.
  if (pos.value.chess960) return err(new ParseError('ERR_LABEL_960', 'a Chess960 position (castling with a king or rook off its standard square) is not searched'));
  return ok(fen.value);
}

/** What the engine gave for one position. */
export type LabelResult =
  | { kind: 'score'; score: EngineScore }
  /** The search ended without any score. */
  | { kind: 'none' }
  /** The engine died or stalled on the position (it was replaced); why, with its last output. */
  | { kind: 'fault'; message: string };

export interface LabelOptions {
  spec: EngineSpec;
  spawn: SpawnEngine;
  timeouts: Timeouts;
  /** The search of every position (nodes, depth or movetime). */
  limits: GoLimits;
  /** Engines searching at once (default 1). */
  concurrency?: number;
  /** Each position's result, in the input order; an exception here ends the job. */
  onResult(index: number, result: LabelResult): void;
  /** The number of positions searched so far, after each search (in any order: for progress). */
  onSearched?(searched: number): void;
  /** Each option the engine does not offer or accept, said once, when the engines have started. */
  onWarning?(warning: string): void;
}

export interface LabelRun {
  /** The name the engine gave (`id name`), else the definition's. */
  engineName: string;
  /** Engines started again after a fault. */
  restarts: number;
}

/** Searches every FEN with `opts.concurrency` engines; rejects only when an engine cannot be started or `onResult` throws. */
export async function labelPositions(fens: readonly string[], opts: LabelOptions): Promise<LabelRun> {
  const { spec, timeouts } = opts;
  const count = Math.max(1, Math.min(opts.concurrency ?? 1, fens.length));
  const start = async (): Promise<EnginePlayer> => {
    const p = await EnginePlayer.launch(spec, opts.spawn, timeouts);
    try {
      await p.newGame({ fen: STARTING_FEN, chess960: false, limits: spec.tc }, timeouts);
    } catch (e) {
      p.kill();
      const f = e instanceof EngineFault ? e : new EngineFault('disconnect', e instanceof Error ? e.message : String(e));
      throw new EngineFault(f.kind, `${spec.name}: ${f.message}${p.diagnostics()}`);
    }
    return p;
  };
  const started = await Promise.allSettled(Array.from({ length: count }, start));
  const players = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(players.map((p) => p.quit(timeouts)));
    throw failed.reason;
  }
  for (const w of players[0]!.warnings) opts.onWarning?.(w);
  const run: LabelRun = { engineName: players[0]!.client.engineName ?? spec.name, restarts: 0 };
  let next = 0;
  let fatal: { error: unknown } | undefined;
  // Results that wait for an earlier one, by index.
  const waiting = new Map<number, LabelResult>();
  let handed = 0;
  const settle = (i: number, result: LabelResult): void => {
    waiting.set(i, result);
    for (let r = waiting.get(handed); r !== undefined; r = waiting.get(handed)) {
      waiting.delete(handed);
      opts.onResult(handed++, r);
    }
    opts.onSearched?.(handed + waiting.size);
  };
  const work = async (slot: number): Promise<void> => {
    try {
      while (fatal === undefined && next < fens.length) {
        const i = next++;
        const result = await searchOne(players[slot]!, fens[i]!, opts.limits, timeouts);
        settle(i, result);
        if (result.kind === 'fault') {
          players[slot]!.kill();
          run.restarts++;
          players[slot] = await start();
        }
      }
    } catch (e) {
      fatal ??= { error: e };
    }
  };
  await Promise.all(players.map((_, slot) => work(slot)));
  await Promise.all(players.map((p) => p.quit(timeouts)));
  if (fatal !== undefined) throw fatal.error;
  return run;
}

/**
 * One search. A search with a time limit has its time plus `stopWaitMs` to answer, one without
 * `untimedMoveMs`; past that the engine is asked to stop (its answer then counts), and silence
 * for another `stopWaitMs` is a stall.
 */
async function searchOne(p: EnginePlayer, fen: string, limits: GoLimits, t: Timeouts): Promise<LabelResult> {
  const cap = limits.movetime !== undefined ? limits.movetime + t.stopWaitMs : t.untimedMoveMs;
  const pending = p.go({ fen, moves: [] }, limits);
  try {
    return resultOf(await within(pending, cap, 'the search'));
  } catch (e) {
    if (!(e instanceof EngineFault && e.kind === 'stall')) return faultOf(p, e);
  }
  p.client.stop();
  try {
    return resultOf(await within(pending, t.stopWaitMs, '"stop"'));
  } catch (e) {
    const stalled = e instanceof EngineFault && e.kind === 'stall';
    return faultOf(p, stalled ? new Error(`${p.spec.name}: no result ${cap} ms into the search, nor ${t.stopWaitMs} ms after stop`) : e);
  }
}

function resultOf(reply: EngineReply): LabelResult {
  const score = reply.info.score;
  return score === undefined ? { kind: 'none' } : { kind: 'score', score };
}

function faultOf(p: EnginePlayer, e: unknown): LabelResult {
  return { kind: 'fault', message: `${e instanceof Error ? e.message : String(e)}${p.diagnostics()}` };
}
