/**
 * `tabiya tune spsa --param NAME... --pairs N --openings FILE -o state.json`: tunes an engine's
 * numeric UCI options (tabiya's search parameters: `tabiya uci --tunable`) by SPSA from game
 * pairs (src/tune/spsa.ts, spsaRun.ts). Each parameter is a spin option the engine lists; its
 * start, range, perturbation and learning rate come from the option and from defaults, or from
 * `NAME=START,MIN,MAX[,C[,R]]`.
 *
 * The state (θ, the steps done, a history of θ) is written after every pair into `-o`, through a
 * temporary file: Ctrl-C loses at most the pairs in flight, and `--resume` continues the run
 * where it stopped, refusing if anything that decides the run has changed.
 *
 * `--pgnout` keeps the games (as `tabiya match --pgnout`): each pair's two games are appended when
 * the pair ends, before the state that counts them is saved, and the state records the PGN's size;
 * a resumed run cuts the PGN back to that size, so that it holds exactly the pairs the state counts.
 * The games are labelled positions for `tune fit` as much as a record.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { writeFileAtomicSync } from '../../book/node/atomicWrite.js';
import { withBookLock } from '../../book/node/richFile.js';
import { formatGamePgn } from '../../match/pgnOut.js';
import { makeEngineSpec, parseEngineKeys, type EngineSpec } from '../../match/engineSpec.js';
import { DEFAULT_TIMEOUTS, EngineFault } from '../../match/player.js';
import { parseTc } from '../../match/tc.js';
import { killAllEngines, spawnEngine } from '../../node/engineProcess.js';
import { AppendFile } from '../../node/matchFiles.js';
import { checkOutputs } from '../../node/outputs.js';
import { startProgress } from '../../node/progress.js';
import type { EngineOption } from '../../protocol/engineClient.js';
import { DEFAULT_C_SHARE, DEFAULT_R_END, DEFAULT_SCHEDULE, Spsa, paramProblem, type SpsaParam, type SpsaSchedule } from '../../tune/spsa.js';
import { engineOptions, runSpsa, type SpsaPair } from '../../tune/spsaRun.js';
import { CliError, intOption, numberOption } from '../errors.js';
import { report } from '../output.js';
import { loadOpenings } from './matchOpenings.js';
import { STOP_SIGNALS as SIGNALS, signalExitCode } from '../../node/stopSignals.js';

export interface TuneSpsaOptions {
  output: string;
  param?: string[];
  engine?: string[];
  pairs?: string;
  tc?: string;
  nodes?: string;
  openings?: string;
  concurrency?: string;
  seed?: string;
  rEnd?: string;
  cShare?: string;
  alpha?: string;
  gamma?: string;
  aRatio?: string;
  maxmoves?: string;
  startupMs?: string;
  pgnout?: string;
  resume?: boolean;
  status?: boolean;
  force?: boolean;
  quiet?: boolean;
  json?: boolean;
}

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
/** Keys of `--engine` that set the clock, which is the command's own (--tc, --nodes). */
const LIMIT_KEYS = ['tc', 'st', 'nodes', 'depth', 'timemargin'];
const STATE_FORMAT = 'tabiya-spsa';
/** Points of θ's history a state keeps (one every pairs/HISTORY_POINTS steps). */
const HISTORY_POINTS = 200;

/** What decides a run: a resumed run must have the same. */
interface Identity {
  engine: { cmd: string; args: string[]; options: [string, string][]; tc: string };
  openings: string;
  /** SHA-256 of the openings file: the suite's content, not only its name (states of older versions have none). */
  openingsDigest?: string;
  seed: number;
  schedule: SpsaSchedule;
  params: SpsaParam[];
  maxMoves?: number;
}

interface State {
  format: typeof STATE_FORMAT;
  version: 1;
  identity: Identity;
  /** The current estimate, not rounded, and as the engine takes it. */
  theta: Record<string, number>;
  values: Record<string, number>;
  nextStep: number;
  finished: number;
  dropped: number;
  /** The θ+ side's pairs, pentanomial: lost both, lost and drew, one point (two draws, or a win and a loss), won and drew, won both. */
  penta: number[];
  /** [pairs finished, θ...] every few pairs and at the end of each run, for a plot. */
  history: number[][];
  seconds: number;
  /** The --pgnout file and its size after the last pair this state counts. */
  pgn?: { path: string; bytes: number };
}

function fail(message: string): never {
  throw new CliError(`tune spsa: ${message}`, 2);
}

export async function tuneSpsaCommand(opts: TuneSpsaOptions): Promise<void> {
  if (opts.status) return showStatus(opts);
  // One run per state file, under the lock books use: two runs would both count pairs into it
  // and interleave their games in the PGN.
  try {
    await withBookLock(opts.output, () => runSpsaCommand(opts), { timeoutMs: 0 });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BOOK_LOCK') throw new CliError(`tune spsa: ${(e as Error).message.replace('try again when it has finished', 'another run of this state is going on: wait for it, or stop it')}`, 1);
    throw e;
  }
}

async function runSpsaCommand(opts: TuneSpsaOptions): Promise<void> {
  if (opts.param === undefined || opts.param.length === 0) fail('give at least one --param NAME (a spin option of the engine)');
  if (opts.openings === undefined) fail('give --openings SUITE (EPD, PGN or a Polyglot book)');
  const concurrency = intOption('--concurrency', opts.concurrency, 1, 64) ?? 1;
  const seed = intOption('--seed', opts.seed, 0, 2 ** 32 - 1) ?? 1;
  const maxMoves = intOption('--maxmoves', opts.maxmoves, 1, 100_000);
  // A loaded machine can take longer than the default to start an engine (tabiya compiles its
  // WebAssembly first); nothing else of the run depends on it, so a resumed run may change it.
  const startupMs = intOption('--startup-ms', opts.startupMs, 1, 3_600_000);
  const timeouts = startupMs === undefined ? DEFAULT_TIMEOUTS : { ...DEFAULT_TIMEOUTS, startupMs };
  const pairs = intOption('--pairs', opts.pairs, 1, 100_000_000) ?? 1000;
  const schedule: SpsaSchedule = {
    pairs,
    alpha: numberOption('--alpha', opts.alpha, 0.01, 2) ?? DEFAULT_SCHEDULE.alpha,
    gamma: numberOption('--gamma', opts.gamma, 0.01, 1) ?? DEFAULT_SCHEDULE.gamma,
    aRatio: numberOption('--a-ratio', opts.aRatio, 0, 10) ?? DEFAULT_SCHEDULE.aRatio,
  };
  const clock = clockKeys(opts);
  const spec = engineSpec(opts.engine, clock.keys);
  checkOutputs(
    [{ path: opts.output, kind: 'text', option: '-o' }, ...(opts.pgnout !== undefined ? [{ path: opts.pgnout, kind: 'pgn' as const, mode: 'append' as const, option: '--pgnout' }] : [])],
    [opts.openings],
    { force: opts.force || opts.resume },
  );
  let resumed: State | undefined;
  if (opts.resume) {
    if (!existsSync(opts.output)) fail(`--resume: ${opts.output} does not exist (start the run without --resume)`);
    resumed = readState(opts.output);
  } else if (existsSync(opts.output) && !opts.force) {
    // Offer --resume only for a file that is a saved run; anything else is named for what it is.
    let isRun = true;
    try {
      readState(opts.output);
    } catch {
      isRun = false;
    }
    throw new CliError(
      isRun
        ? `tune spsa: ${opts.output} exists: give --resume to continue its run, or --force to start a new one over it`
        : `tune spsa: ${opts.output} exists and is not a saved tune spsa run: give another -o, or --force to write over it`,
      1,
    );
  }
  const warn = (m: string): void => {
    if (!opts.quiet) process.stderr.write(`warning: ${m}\n`);
  };
  // The parameters: each must be a spin option the engine lists, or nothing would be tuned.
  let probe: { name: string; options: ReadonlyMap<string, EngineOption> };
  try {
    probe = await engineOptions(spec, spawnEngine, timeouts);
  } catch (e) {
    throw e instanceof EngineFault ? new CliError(`tune spsa: ${e.message}`, 1) : e;
  }
  const params = opts.param.map((p) => paramOf(p, probe.options, opts));
  const names = new Set<string>();
  for (const p of params) {
    if (names.has(p.name.toLowerCase())) fail(`--param ${p.name} is given twice`);
    names.add(p.name.toLowerCase());
  }
  // The suite last: a big one takes seconds to read and check, and every mistake above is said first.
  const openings = loadOpenings(new Map([['file', opts.openings], ['order', 'random']]), seed, warn, 'tune spsa');
  const identity: Identity = {
    engine: { cmd: spec.cmd, args: spec.args, options: spec.options.map(([k, v]) => [k, v]), tc: clock.text },
    openings: opts.openings,
    openingsDigest: createHash('sha256').update(readFileSync(opts.openings)).digest('hex'),
    seed,
    schedule,
    params,
    ...(maxMoves !== undefined ? { maxMoves } : {}),
  };
  if (resumed) {
    const diff = identityDiff(resumed.identity, identity);
    if (diff !== undefined) throw new CliError(`tune spsa: --resume: ${opts.output} is a run with ${diff}; give the same command to resume it`, 1);
    // Without --pgnout the games from here on would go nowhere while the state still names the
    // PGN as holding every pair it counts (and a later resume with it would build on that).
    if (resumed.pgn !== undefined && opts.pgnout === undefined) {
      throw new CliError(`tune spsa: --resume: ${opts.output} is a run with --pgnout ${resumed.pgn.path}; give the same command to resume it`, 1);
    }
  }
  const spsa = new Spsa(params, schedule, resumed ? params.map((p) => resumed.theta[p.name]!) : undefined);
  const state: State = resumed ?? {
    format: STATE_FORMAT,
    version: 1,
    identity,
    theta: {},
    values: {},
    nextStep: 1,
    finished: 0,
    dropped: 0,
    penta: [0, 0, 0, 0, 0],
    history: [],
    seconds: 0,
  };
  const save = (seconds: number): void => {
    spsa.params.forEach((p, i) => {
      state.theta[p.name] = spsa.theta[i]!;
      state.values[p.name] = spsa.rounded()[i]!;
    });
    state.seconds = Math.round(seconds * 10) / 10;
    writeFileAtomicSync(opts.output, JSON.stringify(state, null, 1) + '\n');
  };
  if (state.nextStep > pairs) fail(`--resume: ${opts.output}'s run is complete (${pairs} pairs)`);
  const pgn = opts.pgnout !== undefined ? openPgn(opts.pgnout, state) : undefined;
  if (pgn !== undefined) state.pgn = { path: opts.pgnout!, bytes: pgn.size };
  if (!resumed || pgn !== undefined) save(state.seconds);

  // The games.
  const every = Math.max(1, Math.floor(pairs / HISTORY_POINTS));
  const bar = startProgress({ label: 'tune spsa', total: pairs, unit: 'pairs', start: state.nextStep - 1, quiet: opts.quiet });
  const dropped: string[] = [];
  const secondsBefore = state.seconds;
  const t0 = performance.now();
  const elapsed = (): number => secondsBefore + (performance.now() - t0) / 1000;
  // Pairs finish out of step order when several play at once: the history counts finished pairs.
  const historyPoint = (): number[] => [state.finished, ...spsa.theta.map((t) => Math.round(t * 100) / 100)];
  const onPair = (p: SpsaPair): void => {
    state.finished++;
    state.nextStep = Math.max(state.nextStep, p.step.k + 1);
    if (p.result === undefined) {
      state.dropped++;
      dropped.push(`pair ${p.step.k} dropped: ${p.dropped}`);
      warn(`pair ${p.step.k} dropped: ${p.dropped}`);
    } else state.penta[p.result + 2]!++;
    if (pgn !== undefined) {
      for (const g of p.games) pgn.append(formatGamePgn(g, { event: 'tabiya tune spsa', site: '?', round: String(p.step.k), minimal: false }));
      state.pgn = { path: opts.pgnout!, bytes: pgn.size };
    }
    if (state.finished % every === 0) state.history.push(historyPoint());
    save(elapsed());
    bar.update(state.nextStep - 1, spsa.params.map((q, i) => `${q.name} ${spsa.theta[i]!.toFixed(1)}`).join(' '));
  };
  const abort = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (!abort.signal.aborted) {
      stoppedBy = sig;
      abort.abort();
      return;
    }
    killAllEngines();
    if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  let outcome;
  try {
    outcome = await runSpsa({
      spec,
      spawn: spawnEngine,
      timeouts,
      openings,
      rules: maxMoves !== undefined ? { maxMoves } : {},
      spsa,
      seed,
      firstStep: state.nextStep,
      lastStep: pairs,
      concurrency,
      signal: abort.signal,
      onPair,
      onWarning: warn,
    });
  } catch (e) {
    throw e instanceof EngineFault ? new CliError(`tune spsa: ${e.message}`, 1) : e;
  } finally {
    bar.stop();
    pgn?.close();
    for (const s of SIGNALS) process.off(s, onSignal);
  }
  if (state.history.at(-1)?.[0] !== state.finished) state.history.push(historyPoint());
  save(elapsed());

  report(
    opts.json,
    { output: opts.output, ...(opts.pgnout !== undefined ? { pgn: opts.pgnout } : {}), engine: probe.name, stopped: outcome.stopped, pairs, finished: state.finished, nextStep: state.nextStep, dropped: state.dropped, restarts: outcome.restarts, penta: state.penta, seconds: state.seconds, ...startAndOptions(state) },
    () =>
      [
        `engine   ${probe.name}, ${clock.text} a move, ${concurrency} pair${concurrency > 1 ? 's' : ''} at a time`,
        ...summaryLines(state, opts.output, outcome.stopped === 'interrupted' ? ' (interrupted: --resume continues)' : ''),
        ...(opts.pgnout !== undefined ? [`games    ${opts.pgnout}`] : []),
      ].join('\n'),
  );
  // As `tabiya match`: an interrupted run is not a finished one (128 + the signal's number).
  if (outcome.stopped === 'interrupted') process.exitCode = signalExitCode(stoppedBy ?? 'SIGINT');
  else if (state.finished > 0 && state.dropped === state.finished) {
    process.stderr.write(`error: tune spsa: every pair this run played was dropped on an engine fault: θ has not moved\n`);
    process.exitCode = 1;
  }
}

/**
 * What the summary says of each parameter, for --json (docs/tuning.md): its start, θ, the value
 * the engine plays, and the option.NAME=V words of a verification match.
 */
function startAndOptions(state: State): { start: Record<string, number>; theta: Record<string, number>; values: Record<string, number>; options: string[] } {
  const params = state.identity.params;
  return {
    start: Object.fromEntries(params.map((p) => [p.name, p.start])),
    theta: state.theta,
    values: state.values,
    options: params.map((p) => `option.${p.name}=${state.values[p.name]}`),
  };
}

/** What a state says, for people: progress, results, each parameter's start, θ and how far it moved. */
function summaryLines(state: State, output: string, note: string): string[] {
  const params = state.identity.params;
  const width = Math.max(...params.map((q) => q.name.length));
  return [
    `pairs    ${state.nextStep - 1} of ${state.identity.schedule.pairs} played${note}; ${state.dropped} dropped on an engine fault`,
    `penta    pairs of the θ+ side, LL LD DD+WL WD WW: ${state.penta.join(' ')}`,
    ...params.map((p) => {
      const theta = state.theta[p.name]!;
      const moved = (theta - p.start) / p.cEnd;
      return `${p.name.padEnd(width)}  ${String(p.start).padStart(6)} -> ${theta.toFixed(2).padStart(8)}  ${`(${state.values[p.name]})`.padEnd(8)}  ${moved >= 0 ? '+' : '-'}${Math.abs(moved).toFixed(2)} C`;
    }),
    `options  ${params.map((p) => `option.${p.name}=${state.values[p.name]}`).join(' ')}`,
    `state    ${output}`,
    `time     ${state.seconds.toFixed(0)} s`,
  ];
}

/** `--status`: what the state in -o holds, without starting an engine or playing. */
function showStatus(opts: TuneSpsaOptions): void {
  if (!existsSync(opts.output)) throw new CliError(`tune spsa: --status: ${opts.output} does not exist`, 1);
  const state = readState(opts.output, '--status');
  const id = state.identity;
  report(
    opts.json,
    { output: opts.output, pairs: id.schedule.pairs, finished: state.finished, nextStep: state.nextStep, dropped: state.dropped, penta: state.penta, seconds: state.seconds, ...startAndOptions(state), ...(state.pgn ? { pgn: state.pgn.path } : {}) },
    () =>
      [
        `engine   ${[id.engine.cmd, ...id.engine.args].join(' ')}, ${id.engine.tc} a move`,
        ...summaryLines(state, opts.output, state.nextStep > id.schedule.pairs ? ' (complete)' : ' (--resume continues)'),
        ...(state.pgn ? [`games    ${state.pgn.path}`] : []),
      ].join('\n'),
  );
}

/**
 * The PGN of --pgnout, opened for appending. Resuming into the PGN the state names, it is cut back
 * to the size the state recorded (the games of pairs in flight when the run stopped are dropped, as
 * their results were); a PGN shorter than that has lost games the state counts, and is refused.
 */
function openPgn(path: string, state: State): AppendFile {
  const same = state.pgn !== undefined && resolve(state.pgn.path) === resolve(path);
  if (!same) {
    const file = new AppendFile(path);
    file.endParagraph();
    return file;
  }
  const have = existsSync(path) ? statSync(path).size : 0;
  if (have < state.pgn!.bytes) {
    throw new CliError(`tune spsa: --resume: ${path} holds ${have} bytes, but the state counts pairs whose games end at byte ${state.pgn!.bytes}: the PGN was cut or changed since`, 1);
  }
  return new AppendFile(path, { truncateTo: state.pgn!.bytes });
}

/** `--param NAME` or `NAME=START,MIN,MAX[,C[,R]]`, checked against the engine's option. */
function paramOf(text: string, options: ReadonlyMap<string, EngineOption>, opts: TuneSpsaOptions): SpsaParam {
  const eq = text.indexOf('=');
  const name = (eq < 0 ? text : text.slice(0, eq)).trim();
  const opt = options.get(name.toLowerCase());
  if (opt === undefined) {
    const spins = [...options.values()].filter((o) => o.type === 'spin').map((o) => o.name);
    throw new CliError(`tune spsa: --param ${name}: the engine has no such option (its spin options: ${spins.join(', ') || 'none'}${spins.length < 10 ? '; tabiya lists its search parameters with `tabiya uci --tunable`' : ''})`, 2);
  }
  if (opt.type !== 'spin') fail(`--param ${name}: option ${opt.name} is a ${opt.type}, not a spin (a number)`);
  const parts = eq < 0 ? [] : text.slice(eq + 1).split(',');
  if (eq >= 0 && (parts.length < 3 || parts.length > 5)) fail(`--param ${text}: give NAME or NAME=START,MIN,MAX[,C[,R]]`);
  const num = (i: number, what: string, dflt: number | undefined): number => {
    const s = parts[i];
    if (s === undefined || s.trim() === '') {
      if (dflt === undefined) fail(`--param ${name}: the engine gives no ${what}; give NAME=START,MIN,MAX`);
      return dflt;
    }
    const n = Number(s);
    if (!Number.isFinite(n)) fail(`--param ${name}: ${what} "${s}" is not a number`);
    return n;
  };
  const min = num(1, 'minimum', opt.min);
  const max = num(2, 'maximum', opt.max);
  const rShare = numberOption('--c-share', opts.cShare, 0.001, 1) ?? DEFAULT_C_SHARE;
  const p: SpsaParam = {
    name: opt.name,
    start: num(0, 'default', opt.default === undefined ? undefined : Number(opt.default)),
    min,
    max,
    cEnd: num(3, 'c', Math.max(1, (max - min) * rShare)),
    rEnd: num(4, 'r', numberOption('--r-end', opts.rEnd, 1e-9, 1) ?? DEFAULT_R_END),
  };
  const bad = paramProblem(p);
  if (bad !== undefined) fail(`--param ${bad}`);
  if (opt.min !== undefined && opt.max !== undefined && (p.min < opt.min || p.max > opt.max)) {
    fail(`--param ${name}: ${p.min}..${p.max} leaves the engine's range ${opt.min}..${opt.max}`);
  }
  return p;
}

/** --tc or --nodes (10+0.1 without either): the engine keys that state it, and how it reads. */
function clockKeys(opts: TuneSpsaOptions): { keys: Map<string, string>; text: string } {
  if (opts.tc !== undefined && opts.nodes !== undefined) fail('--tc and --nodes exclude each other');
  const nodes = intOption('--nodes', opts.nodes, 1, 1_000_000_000);
  if (nodes !== undefined) return { keys: new Map([['tc', 'inf'], ['nodes', String(nodes)]]), text: `${nodes} nodes` };
  const tc = opts.tc ?? '10+0.1';
  const t = parseTc(tc);
  if (!t.ok) fail(`--tc: ${t.error.message}`);
  if (t.value.infinite) fail('--tc inf never ends a search; give a clock or --nodes');
  // As tune verify: 100 ms of grace before a loss on time, so that a busy machine's hiccup is not a result.
  return { keys: new Map([['tc', tc], ['timemargin', '100']]), text: tc };
}

/** The engine of `--engine` words (as in match), by default tabiya with its search parameters listed. */
function engineSpec(words: readonly string[] | undefined, clock: Map<string, string>): EngineSpec {
  const given = words ?? ['name=tabiya', `cmd=${process.execPath}`, `arg=${MAIN}`, 'arg=uci', 'arg=--tunable', 'option.Hash=16'];
  const own = parseEngineKeys(given, '--engine');
  if (typeof own === 'string') fail(own);
  const set = LIMIT_KEYS.find((k) => own.keys.has(k));
  if (set !== undefined) fail(`--engine ${set}=: the clock is set by --tc or --nodes`);
  if (!own.keys.has('name')) own.keys.set('name', 'engine');
  const spec = makeEngineSpec(own, { keys: clock, args: [], options: [] }, 0);
  if (typeof spec === 'string') fail(spec.replace(/^engine 1: /, '--engine: '));
  if (spec.proto !== 'uci') fail(`--engine proto=${spec.proto}: tune spsa sets parameters with UCI setoption; give a UCI engine`);
  return spec;
}

function readState(path: string, flag = '--resume'): State {
  let s: State;
  try {
    s = JSON.parse(readFileSync(path, 'utf8')) as State;
  } catch (e) {
    throw new CliError(`tune spsa: ${flag}: ${path}: not a tune spsa state (${(e as Error).message})`, 1);
  }
  if (s?.format !== STATE_FORMAT || s.version !== 1 || typeof s.nextStep !== 'number' || typeof s.theta !== 'object' || s.identity === undefined || !Array.isArray(s.identity.params) || !Array.isArray(s.penta) || s.penta.length !== 5 || !Array.isArray(s.history)) {
    throw new CliError(`tune spsa: ${flag}: ${path}: not a tune spsa state of version 1`, 1);
  }
  for (const p of s.identity.params) {
    if (typeof s.theta[p.name] !== 'number' || typeof s.values?.[p.name] !== 'number') throw new CliError(`tune spsa: ${flag}: ${path}: no value for ${p.name}`, 1);
  }
  return s;
}

/** The first difference of two identities, said for people, or undefined. */
function identityDiff(was: Identity, now: Identity): string | undefined {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  if (!same(was.engine, now.engine)) return `another engine or clock (${was.engine.cmd} ${was.engine.args.join(' ')}, ${was.engine.tc})`;
  if (was.openings !== now.openings) return `openings ${was.openings}`;
  if (was.openingsDigest !== undefined && was.openingsDigest !== now.openingsDigest) return `openings ${was.openings} as they were then (the file has changed since)`;
  if (was.seed !== now.seed) return `--seed ${was.seed}`;
  if (!same(was.schedule, now.schedule)) return `--pairs ${was.schedule.pairs}, alpha ${was.schedule.alpha}, gamma ${was.schedule.gamma}, a-ratio ${was.schedule.aRatio}`;
  if (was.maxMoves !== now.maxMoves) return `--maxmoves ${was.maxMoves ?? 'none'}`;
  if (!same(was.params, now.params)) return `the parameters ${was.params.map((p) => `${p.name}=${p.start},${p.min},${p.max},${p.cEnd},${p.rEnd}`).join(' ')}`;
  return undefined;
}
