/**
 * The games of an SPSA run (spsa.ts): `concurrency` workers, each with two processes of the
 * engine, one playing at θ + c·δ and one at θ − c·δ. A worker takes the next step, sets both
 * processes' options with `setoption` (no restart between pairs), plays the pair on the step's
 * opening with colours swapped (match/game.ts: the same clocks, adjudication and fault handling
 * as `tabiya match`), and θ moves as soon as the pair ends: with several workers the steps
 * overlap, each perturbing the θ of its start, as OpenBench's workers do.
 *
 * A pair in which an engine crashed, stalled or played an illegal move says nothing about the
 * parameters: it is dropped (counted, named) and the process replaced. A loss on time counts, as
 * in a match: how a parameter spends the clock is part of its strength.
 */
import type { AdjudicationRules } from '../match/adjudicate.js';
import type { EngineSpec } from '../match/engineSpec.js';
import { playGame, type GameRecord } from '../match/game.js';
import type { OpeningSource } from '../match/openings.js';
import { EngineFault, EnginePlayer, type SpawnEngine, type Timeouts } from '../match/player.js';
import type { EngineOption } from '../protocol/engineClient.js';
import { stepRng, type Spsa, type SpsaStep } from './spsa.js';

/** What one finished pair did. */
export interface SpsaPair {
  step: SpsaStep;
  games: GameRecord[];
  /** The θ+ side's points minus the θ− side's; undefined when the pair was dropped. */
  result?: number;
  /** Why the pair was dropped (an engine fault), with the engine's last output. */
  dropped?: string;
}

export interface SpsaRunOptions {
  /** The engine; its `name` is suffixed with + and − for the two sides. */
  spec: EngineSpec;
  spawn: SpawnEngine;
  timeouts: Timeouts;
  /** Step k plays opening k − 1. */
  openings: OpeningSource;
  rules: AdjudicationRules;
  spsa: Spsa;
  seed: number;
  /** The first step to play (1, or one past the last of a resumed run) and the last (the schedule's pairs). */
  firstStep: number;
  lastStep: number;
  concurrency: number;
  signal?: AbortSignal;
  /** Called after θ has moved, in finishing order; the run waits for it (it saves the state). */
  onPair(pair: SpsaPair): void | Promise<void>;
  onWarning?(message: string): void;
}

export interface SpsaOutcome {
  /** The steps whose pairs finished (played or dropped). */
  finished: number;
  /** One past the highest finished step: where a resumed run starts. */
  nextStep: number;
  restarts: number;
  stopped: 'completed' | 'interrupted';
}

/** The engine's options as its handshake lists them (one process, started and quit). */
export async function engineOptions(spec: EngineSpec, spawn: SpawnEngine, timeouts: Timeouts): Promise<{ name: string; options: ReadonlyMap<string, EngineOption> }> {
  const p = await EnginePlayer.launch(spec, spawn, timeouts);
  const out = { name: p.client.engineName ?? spec.name, options: new Map(p.client.options) };
  await p.quit(timeouts);
  return out;
}

/** A game ended by one of these says nothing about the parameters. */
const DROPPING = new Set(['disconnect', 'stall', 'illegal']);

const points = (r: GameRecord, color: number): number => (r.result === '1/2-1/2' ? 0.5 : r.result === (color === 0 ? '1-0' : '0-1') ? 1 : 0);

export async function runSpsa(o: SpsaRunOptions): Promise<SpsaOutcome> {
  const sides = [
    { ...o.spec, name: `${o.spec.name}+` },
    { ...o.spec, name: `${o.spec.name}-` },
  ];
  const launch = (side: number): Promise<EnginePlayer> => EnginePlayer.launch(sides[side]!, o.spawn, o.timeouts);
  const slots = Math.max(1, Math.min(o.concurrency, o.lastStep - o.firstStep + 1));
  const started = await Promise.allSettled(Array.from({ length: slots * 2 }, (_, i) => launch(i % 2)));
  const players = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(players.map((p) => p.quit(o.timeouts)));
    throw failed.reason;
  }
  for (const w of players[0]!.warnings) o.onWarning?.(w);

  const out: SpsaOutcome = { finished: 0, nextStep: o.firstStep, restarts: 0, stopped: 'completed' };
  let next = o.firstStep;
  let fatal: { error: unknown } | undefined;
  let booking = Promise.resolve();
  const names = o.spsa.params.map((p) => p.name);

  const pair = async (pl: EnginePlayer, mi: EnginePlayer, step: SpsaStep): Promise<SpsaPair | undefined> => {
    pl.warnings = pl.client.setOptions(names.map((n, i) => [n, String(step.plus[i])] as const));
    mi.warnings = mi.client.setOptions(names.map((n, i) => [n, String(step.minus[i])] as const));
    for (const w of [...pl.warnings, ...mi.warnings]) throw new EngineFault('config', w);
    const opening = o.openings.get(step.k - 1);
    const games: GameRecord[] = [];
    for (const plusColor of [0, 1]) {
      const [white, black] = plusColor === 0 ? [pl, mi] : [mi, pl];
      const rec = await playGame({ number: 2 * step.k - 1 + plusColor, round: step.k, white, black, opening, rules: o.rules, timeouts: o.timeouts, ...(o.signal ? { signal: o.signal } : {}) });
      if (rec.result === '*') return undefined;
      games.push(rec);
      if (rec.fault && DROPPING.has(rec.fault.kind)) {
        return { step, games, dropped: `game ${rec.number}: ${rec.reason}${rec.detail ? ` (${rec.detail})` : ''}` };
      }
    }
    const result = points(games[0]!, 0) - points(games[0]!, 1) + points(games[1]!, 1) - points(games[1]!, 0);
    return { step, games, result };
  };

  const work = async (slot: number): Promise<void> => {
    try {
      while (fatal === undefined && !o.signal?.aborted && next <= o.lastStep) {
        const k = next++;
        for (const side of [0, 1]) {
          const p = players[slot * 2 + side]!;
          if (p.needsRestart) {
            await p.quit(o.timeouts);
            players[slot * 2 + side] = await launch(side);
            out.restarts++;
          }
        }
        const step = o.spsa.step(k, stepRng(o.seed, k));
        const done = await pair(players[slot * 2]!, players[slot * 2 + 1]!, step);
        if (done === undefined) break;
        if (done.result !== undefined) o.spsa.update(step, done.result);
        out.finished++;
        if (k + 1 > out.nextStep) out.nextStep = k + 1;
        booking = booking.then(() => o.onPair(done));
        await booking;
      }
    } catch (e) {
      fatal ??= { error: e };
    }
  };
  await Promise.all(Array.from({ length: slots }, (_, slot) => work(slot)));
  await Promise.all(players.map((p) => p.quit(o.timeouts)));
  if (fatal !== undefined) throw fatal.error;
  if (o.signal?.aborted) out.stopped = 'interrupted';
  return out;
}
