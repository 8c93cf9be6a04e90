/**
 * The match scheduler: plays the schedule's games with up to `concurrency` at a time, each with
 * its own engine processes taken from a per-engine pool (an engine plays one game at a time),
 * books results as they come, checks the SPRT after every game, and stops on a decision, on an
 * interrupt, or (without `recover`) after an engine fault.
 *
 * Before the first game one process of every engine is started (`startEngines`): a wrong
 * command, an engine that exits at once or never completes its handshake is a start-up error,
 * not a string of forfeits. Engines are reused between games unless they died, stalled or asked
 * for restarts; a fresh process replaces a dead one. An engine that cannot be restarted later
 * loses that game; after `maxStartFailures` failures in a row the match stops, since every later
 * game would fail too.
 * Games cut short by a stop are not counted and not written (fastchess's rule).
 */
import { sprt as sprtStatus, trinomialCounts, type SprtConfig, type SprtStatus } from '../stats/sprt.js';
import { COLOR_WORD, type AdjudicationRules, type GameEnd } from './adjudicate.js';
import type { EngineSpec } from './engineSpec.js';
import { playGame, type GameRecord } from './game.js';
import type { Opening, OpeningSource } from './openings.js';
import { EngineFault, EnginePlayer, type SpawnEngine, type Timeouts } from './player.js';
import type { StopReason } from './report.js';
import type { ScheduledGame } from './schedule.js';
import { Scoreboard, pentaOf } from './scoreboard.js';
import type { GameTimeUse } from './timeUse.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import { XboardClient } from '../protocol/xboard/client.js';

/** A game a resumed match already played: what its journal line kept. */
export interface DoneGame {
  result: GameEnd['result'];
  fault?: { color: number; kind: string };
  /** White's and Black's time use (journals written before it was kept have none). */
  time?: [GameTimeUse, GameTimeUse];
}

export interface MatchPlan {
  engines: EngineSpec[];
  schedule: ScheduledGame[];
  /** Openings; the standard start position when absent. */
  openings?: OpeningSource;
  rules: AdjudicationRules;
  sprt?: SprtConfig;
  concurrency: number;
  /** Pause between games of one worker, ms. */
  waitMs: number;
  /** Restart a faulty engine and go on (otherwise stop after the games in flight). */
  recover: boolean;
  timeouts: Timeouts;
  /** Games per opening, to know whether pentanomial counts exist. */
  repeat: number;
  /** Game numbers already played (resume), with their results. */
  done?: ReadonlyMap<number, DoneGame>;
  maxStartFailures?: number;
  /** Processes already started by `startEngines`, by engine; otherwise runMatch starts them. */
  started?: EnginePlayer[][];
}

export interface MatchHooks {
  onGameStart?(g: ScheduledGame): void;
  /** Called in finishing order; the runner waits for it before the next result is booked. */
  onGameEnd?(record: GameRecord, g: ScheduledGame, board: Scoreboard, sprt: SprtStatus | undefined): void | Promise<void>;
  onWarning?(message: string): void;
}

export interface MatchOutcome {
  board: Scoreboard;
  stopped: StopReason;
  sprt?: SprtStatus;
  /** Why the match stopped early. */
  message?: string;
}

const START: Opening = { fen: STARTING_FEN, moves: [], source: 'start position' };

/** An engine as a shell would run it, for messages. */
export function commandLine(spec: EngineSpec): string {
  return [spec.cmd, ...spec.args].map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}

/** Engines that could not be started before the first game: the match cannot be played. */
export class EngineStartError extends Error {
  constructor(readonly failures: readonly { engine: string; command: string; reason: string }[]) {
    super(failures.map((f) => `engine ${f.engine} did not start (command: ${f.command}): ${f.reason}`).join('\n'));
    this.name = 'EngineStartError';
  }
}

/** Why a process could not be started, in words, from the system's error code. */
function startReason(spec: EngineSpec, fault: EngineFault): string {
  const m = fault.message.startsWith(`${spec.name}: `) ? fault.message.slice(spec.name.length + 2) : fault.message;
  if (/\bENOENT\b/.test(m)) return `${m} (no such command${spec.dir !== undefined ? ` or directory ${spec.dir}` : ''})`;
  if (/\bEACCES\b/.test(m)) return `${m} (not executable)`;
  return m;
}

/**
 * Starts one process of every engine that plays in `games`, `parallel` at a time (as many as
 * the games played at once start, so a loaded machine meets the handshake deadline as it
 * would mid-match), and completes their handshakes, before the first game. Returns the players
 * by engine (the first pool of `runMatch`, through `plan.started`); if any engine fails, the
 * others are shut down and an EngineStartError names every engine that failed, its command and
 * why.
 */
export async function startEngines(
  engines: readonly EngineSpec[],
  games: readonly ScheduledGame[],
  spawn: SpawnEngine,
  timeouts: Timeouts,
  parallel = 2,
): Promise<EnginePlayer[][]> {
  const needed = [...new Set(games.flatMap((g) => [g.white, g.black]))].sort((a, b) => a - b);
  const launched: PromiseSettledResult<EnginePlayer>[] = [];
  let next = 0;
  const launcher = async (): Promise<void> => {
    while (next < needed.length) {
      const k = next++;
      [launched[k]] = await Promise.allSettled([EnginePlayer.launch(engines[needed[k]!]!, spawn, timeouts)]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, needed.length)) }, launcher));
  const pool: EnginePlayer[][] = engines.map(() => []);
  const failures: { engine: string; command: string; reason: string }[] = [];
  launched.forEach((r, k) => {
    const spec = engines[needed[k]!]!;
    if (r.status === 'fulfilled') pool[needed[k]!]!.push(r.value);
    else {
      const f = r.reason instanceof EngineFault ? r.reason : new EngineFault('disconnect', String(r.reason));
      failures.push({ engine: spec.name, command: commandLine(spec), reason: startReason(spec, f) });
    }
  });
  if (failures.length > 0) {
    await Promise.all(pool.flat().map((p) => p.quit(timeouts)));
    throw new EngineStartError(failures);
  }
  return pool;
}

/** The SPRT status of the first encounter: pentanomial when games come in pairs and the model allows it. */
export function sprtOf(board: Scoreboard, cfg: SprtConfig): SprtStatus {
  const e = board.encounter(0, 1);
  const penta = board.repeat === 2 && (cfg.model === 'logistic' || cfg.model === 'normalized');
  return sprtStatus(penta ? pentaOf(e) : trinomialCounts(e.wdl), cfg);
}

export async function runMatch(plan: MatchPlan, spawn: SpawnEngine, hooks: MatchHooks = {}, signal?: AbortSignal): Promise<MatchOutcome> {
  const board = new Scoreboard(
    plan.engines.map((e) => e.name),
    plan.repeat,
  );
  for (const g of plan.schedule) {
    const d = plan.done?.get(g.number);
    if (d) board.add(g, d.result, d.fault as { color: number; kind: 'time' } | undefined, d.time);
  }
  const stopGames = new AbortController();
  const onOuterAbort = (): void => stopGames.abort();
  signal?.addEventListener('abort', onOuterAbort, { once: true });
  let stopped: StopReason = 'completed';
  let message: string | undefined;
  let sprt = plan.sprt ? sprtOf(board, plan.sprt) : undefined;
  let llrNoted = false;
  const stop = (why: StopReason, msg?: string): void => {
    if (stopped === 'completed') {
      stopped = why;
      message = msg;
    }
    stopGames.abort();
  };
  /** Set when no new game may start but the games in progress are to finish (a fault without recovery). */
  let draining = false;
  const drain = (why: StopReason, msg: string): void => {
    if (stopped === 'completed') {
      stopped = why;
      message = msg;
    }
    draining = true;
  };
  if (sprt?.decision) stop('sprt');

  const queue = plan.schedule.filter((g) => !plan.done?.has(g.number));
  let pool: EnginePlayer[][];
  try {
    pool = plan.started ?? (queue.length > 0 && !stopGames.signal.aborted ? await startEngines(plan.engines, queue, spawn, plan.timeouts, 2 * plan.concurrency) : plan.engines.map(() => []));
  } catch (e) {
    signal?.removeEventListener('abort', onOuterAbort);
    throw e;
  }
  const startFailures = plan.engines.map(() => 0);
  const warned = new Set<string>();
  const warnOnce = (p: EnginePlayer): void => {
    for (const w of p.warnings) {
      if (!warned.has(w)) {
        warned.add(w);
        hooks.onWarning?.(w);
      }
    }
  };
  for (const p of pool.flat()) warnOnce(p);

  let next = 0;
  let booking = Promise.resolve();

  const acquire = async (index: number): Promise<EnginePlayer | EngineFault> => {
    const idle = pool[index]!;
    while (idle.length > 0) {
      const p = idle.pop()!;
      if (!p.dead) return p;
    }
    try {
      const p = await EnginePlayer.launch(plan.engines[index]!, spawn, plan.timeouts);
      startFailures[index] = 0;
      warnOnce(p);
      return p;
    } catch (e) {
      startFailures[index]!++;
      return e instanceof EngineFault ? e : new EngineFault('disconnect', String(e));
    }
  };

  const release = async (p: EnginePlayer, index: number): Promise<void> => {
    if (p.needsRestart || stopGames.signal.aborted) await p.quit(plan.timeouts);
    else pool[index]!.push(p);
  };

  const play = async (g: ScheduledGame): Promise<GameRecord | undefined> => {
    const [white, black] = await Promise.all([acquire(g.white), acquire(g.black)]);
    const opening = plan.openings ? plan.openings.get(g.opening) : START;
    if (white instanceof EngineFault || black instanceof EngineFault) {
      // A side that cannot start loses; the other side's engine goes back to the pool.
      for (const [p, idx] of [[white, g.white], [black, g.black]] as const) if (p instanceof EnginePlayer) await release(p, idx);
      const color = white instanceof EngineFault ? 0 : 1;
      const f = (color === 0 ? white : black) as EngineFault;
      if (f.kind === 'config') {
        stop('error', f.message);
        return undefined;
      }
      for (const [idx, which] of [[g.white, 0], [g.black, 1]] as const) {
        if (startFailures[idx]! >= (plan.maxStartFailures ?? 3)) {
          stop('fault', `${plan.engines[idx]!.name} failed to start ${startFailures[idx]} times in a row: ${(which === 0 ? white : black) instanceof EngineFault ? ((which === 0 ? white : black) as EngineFault).message : ''}`);
          return undefined;
        }
      }
      if (stopGames.signal.aborted) return undefined;
      const stall = f.kind === 'stall';
      return {
        result: color === 0 ? '0-1' : '1-0',
        reason: stall ? `${COLOR_WORD[color]}'s connection stalls` : `${COLOR_WORD[color]} disconnects`,
        termination: stall ? 'stalled connection' : 'abandoned',
        detail: f.message,
        fault: { color, kind: stall ? 'stall' : 'disconnect' },
        number: g.number,
        round: g.round,
        white: plan.engines[g.white]!.name,
        black: plan.engines[g.black]!.name,
        whiteTc: plan.engines[g.white]!.tc,
        blackTc: plan.engines[g.black]!.tc,
        fen: opening.fen,
        chess960: false,
        moves: [],
        openingSource: opening.source,
        startedAt: new Date(),
        durationMs: 0,
      };
    }
    // A Chess960 opening for an xboard engine whose `feature variants` has no fischerandom: the
    // match stops (cutechess refuses the variant) rather than the engine losing on a castling it cannot read.
    const root = opening.fen === STARTING_FEN ? undefined : positionFromFen(opening.fen);
    if (root?.ok && root.value.chess960) {
      for (const [p, idx] of [[white, g.white], [black, g.black]] as const) {
        if (p.client instanceof XboardClient && !p.client.supportsVariant('fischerandom')) {
          await release(white, g.white);
          await release(black, g.black);
          stop('error', `${plan.engines[idx]!.name} does not play Chess960 (fischerandom is not in its feature variants), and the opening at ${opening.source} is a Chess960 position`);
          return undefined;
        }
      }
    }
    const rec = await playGame({ number: g.number, round: g.round, white, black, opening, rules: plan.rules, timeouts: plan.timeouts, signal: stopGames.signal });
    await release(white, g.white);
    await release(black, g.black);
    return rec;
  };

  const book = async (rec: GameRecord, g: ScheduledGame): Promise<void> => {
    board.add(g, rec.result, rec.fault, rec.time);
    if (plan.sprt) sprt = sprtOf(board, plan.sprt);
    if (sprt?.note !== undefined && !llrNoted) {
      // Once: the LLR stays undefined for many games in a row, and a line each would drown the output.
      llrNoted = true;
      hooks.onWarning?.(`--sprt: ${sprt.note}`);
    }
    await hooks.onGameEnd?.(rec, g, board, sprt);
    if (sprt?.decision) stop('sprt');
    else if (rec.fault && !plan.recover && (rec.fault.kind === 'disconnect' || rec.fault.kind === 'stall')) {
      // As cutechess and docs/match.md have it: no new game starts, the games in progress finish.
      drain('fault', `game ${g.number}: ${rec.reason}${rec.detail ? ` (${rec.detail})` : ''}; stopping (recovery is off)`);
    }
  };

  let failure: unknown;
  const worker = async (): Promise<void> => {
    try {
      await work();
    } catch (e) {
      // A failure of our own (a PGN write, say) stops the match; engines are still shut down below.
      failure ??= e;
      stop('error', e instanceof Error ? e.message : String(e));
    }
  };
  const work = async (): Promise<void> => {
    let first = true;
    while (!stopGames.signal.aborted && !draining && next < queue.length) {
      if (!first && plan.waitMs > 0) await new Promise((r) => setTimeout(r, plan.waitMs));
      first = false;
      if (stopGames.signal.aborted || draining) break;
      const g = queue[next++]!;
      hooks.onGameStart?.(g);
      const rec = await play(g);
      if (!rec || rec.result === '*') continue;
      // Results are booked one at a time so PGN, journal and statistics stay in step.
      booking = booking.then(() => book(rec, g));
      await booking;
    }
  };

  try {
    const workers = Array.from({ length: Math.max(1, Math.min(plan.concurrency, queue.length)) }, () => worker());
    await Promise.all(workers);
  } finally {
    signal?.removeEventListener('abort', onOuterAbort);
    if (signal?.aborted && stopped === 'completed') stopped = 'interrupted';
    await Promise.all(pool.flat().map((p) => p.quit(plan.timeouts)));
  }
  if (failure !== undefined) throw failure;
  const out: MatchOutcome = { board, stopped };
  if (sprt) out.sprt = sprt;
  if (message !== undefined) out.message = message;
  return out;
}
