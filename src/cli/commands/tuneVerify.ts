/**
 * `tabiya tune verify params.json`: a match of the engine loading the params file (UCI option
 * EvalParams) against the engine with its built-in weights (or `--base`), run by `tabiya match`
 * in a child process with game pairs on the same opening, an SPRT, and the Elo difference with
 * its 95% error bar from the tuned side's point of view. The exact match command is printed,
 * so the run can be repeated or resumed (with --pgnout) by hand.
 *
 * With --nodes the engines search a fixed number of nodes a move instead of playing on a clock:
 * two weight sets run at the same speed, so this compares them fairly, and the games no longer
 * depend on how fast or how busy the machine is.
 *
 * Without --openings the suite is the bundled master games (data/masters-2550.pgn.gz, the source
 * of the default book), each cut to its first 16 plies: the length of Stockfish's 8-move testing
 * book, long enough to leave the opening to the engines' play.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_GAMES } from '../../book/node/defaultBook.js';
import { checkOutputs } from '../../node/outputs.js';
import { readParamsFile } from '../../tune/paramsFile.js';
import { parseTc } from '../../match/tc.js';
import { shownLlr, sprtConfigError, type SprtModel } from '../../stats/sprt.js';
import { CliError, intOption, numberOption } from '../errors.js';
import { report } from '../output.js';
import { openingsFormat } from './matchOpenings.js';
import { STOP_SIGNALS as SIGNALS, signalExitCode } from '../../node/stopSignals.js';

export interface TuneVerifyOptions {
  games?: string;
  tc?: string;
  nodes?: string;
  concurrency?: string;
  openings?: string;
  sprt?: string[];
  pgnout?: string;
  base?: string;
  hash?: string;
  seed?: string;
  quiet?: boolean;
  json?: boolean;
}

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

/** The match's SPRT as its --json gives it: `llr` is null when it cannot be computed, with `llrNote` saying why. */
export interface VerifySprt {
  elo0: number;
  elo1: number;
  llr: number | null;
  llrNote?: string;
  lower: number;
  upper: number;
  decision: string | null;
}

/**
 * The SPRT line of the report. An LLR that cannot be computed (the match's JSON gives null) is
 * said as such, as `tabiya match` and `tabiya stats sprt` say it (the match has already warned
 * once why), not printed as a number; a value smaller than the text can show is 0, not -0.00.
 */
export function sprtLine(s: VerifySprt | undefined): string {
  if (s === undefined) return 'SPRT         -';
  const llr = s.llr === null || !Number.isFinite(s.llr) ? '- (cannot be computed, see the warning)' : shownLlr(s.llr).toFixed(2);
  return `SPRT         elo0=${s.elo0} elo1=${s.elo1}: LLR ${llr} (${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}) ${s.decision ?? 'no decision yet'}`;
}

interface MatchJson {
  games: number;
  stopped: string;
  durationMs: number;
  elo?: number | null;
  error?: number | null;
  los?: number | null;
  wins?: number;
  draws?: number;
  losses?: number;
  sprt?: VerifySprt;
  encounters?: { first: string; pentaElo?: number | null; pentaError?: number | null; penta?: number[]; nElo?: number; nEloError?: number }[];
  players?: { name: string; faults?: unknown }[];
}

/** Checks `--sprt key=value...` as the match will read it (defaults elo0=0 elo1=10). */
function checkSprt(words: readonly string[]): void {
  const kv = new Map<string, string>([['elo0', '0'], ['elo1', '10'], ['alpha', '0.05'], ['beta', '0.05'], ['model', 'normalized']]);
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq <= 0 || !kv.has(w.slice(0, eq))) throw new CliError(`tune verify: --sprt: "${w}" is not one of elo0= elo1= alpha= beta= model=`, 2);
    kv.set(w.slice(0, eq), w.slice(eq + 1));
  }
  const n = (k: string): number => numberOption(`--sprt ${k}=`, kv.get(k))!;
  const bad = sprtConfigError({ elo0: n('elo0'), elo1: n('elo1'), alpha: n('alpha'), beta: n('beta'), model: kv.get('model') as SprtModel });
  if (bad) throw new CliError(`tune verify: --sprt: ${bad}`, 2);
}

/** Plies of each game of the default suite (full games) played as the opening. */
const DEFAULT_PLIES = 16;

const quote = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

export async function tuneVerifyCommand(file: string, opts: TuneVerifyOptions): Promise<void> {
  const games = intOption('--games', opts.games, 2, 1_000_000) ?? 200;
  if (games % 2 !== 0) throw new CliError(`--games ${games}: games are played in colour-swapped pairs, so give an even number`, 2);
  const concurrency = intOption('--concurrency', opts.concurrency, 1, 64) ?? 2;
  const hash = intOption('--hash', opts.hash, 1, 4096) ?? 16;
  const seed = intOption('--seed', opts.seed, 0, 2 ** 32 - 1) ?? 1;
  const nodes = intOption('--nodes', opts.nodes, 1, 1_000_000_000);
  if (nodes !== undefined && opts.tc !== undefined) throw new CliError('tune verify: --tc and --nodes exclude each other', 2);
  const tc = nodes !== undefined ? `nodes=${nodes}` : (opts.tc ?? '10+0.1');
  // The match would refuse these too, but only after the user has read its command line.
  if (opts.tc !== undefined) {
    const t = parseTc(opts.tc);
    if (!t.ok) throw new CliError(`tune verify: --tc: ${t.error.message}`, 2);
    if (t.value.infinite) throw new CliError('tune verify: --tc inf never ends a search; give a clock or --nodes', 2);
  }
  checkSprt(opts.sprt ?? []);
  const openings = opts.openings ?? DEFAULT_GAMES;
  // Fail here, with the file's name, rather than in every engine.
  const tuned = resolve(file);
  const base = opts.base === undefined ? undefined : resolve(opts.base);
  try {
    readParamsFile(tuned);
    if (base) readParamsFile(base);
  } catch (e) {
    throw new CliError(`tune verify: ${(e as Error).message}`, 1);
  }
  if (!existsSync(openings)) throw new CliError(`tune verify: opening suite ${openings} does not exist (--openings FILE)`, 1);
  if (opts.pgnout) checkOutputs([{ path: opts.pgnout, kind: 'pgn', mode: 'append' }], [tuned, ...(base ? [base] : []), openings]);
  const engine = (name: string, params?: string): string[] => [
    '--engine',
    `name=${name}`,
    `cmd=${process.execPath}`,
    `arg=${MAIN}`,
    'arg=uci',
    `option.Hash=${hash}`,
    ...(params ? [`option.EvalParams=${params}`] : []),
  ];
  const sprt = opts.sprt && opts.sprt.length > 0 ? opts.sprt : ['elo0=0', 'elo1=10'];
  const format = openingsFormat(openings);
  const args = [
    'match',
    ...engine('tuned', tuned),
    ...engine(base ? 'base' : 'default', base),
    '--each',
    ...(nodes !== undefined ? ['tc=inf', `nodes=${nodes}`] : [`tc=${tc}`, 'timemargin=100']),
    '--games',
    String(games),
    '--repeat',
    '--concurrency',
    String(concurrency),
    '--openings',
    `file=${openings}`,
    `format=${format}`,
    ...(opts.openings === undefined ? [`plies=${DEFAULT_PLIES}`] : []),
    'order=random',
    '--srand',
    String(seed),
    '--sprt',
    ...sprt,
    '--ratinginterval',
    '0',
    ...(opts.pgnout ? ['--pgnout', opts.pgnout] : []),
    ...(opts.quiet ? ['--quiet'] : []),
    '--json',
  ];
  const command = ['tabiya', ...args].map(quote).join(' ');
  if (!opts.quiet) process.stderr.write(`${command}\n`);
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((done, fail) => {
    // The match runs in its own process group, so that a Ctrl-C reaches it once, from here: a
    // signal to this process (Ctrl-C, or a kill of this process alone) is passed on, the match
    // stops its games, ends its engines and reports, and what it played is reported below.
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    // If this process ends anyway, the match does not play on without it.
    const orphaned = (): void => {
      child.kill('SIGTERM');
    };
    for (const sig of SIGNALS) process.on(sig, forward);
    process.on('exit', orphaned);
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => (out += s));
    child.on('error', fail);
    child.on('close', (c, signal) => {
      for (const sig of SIGNALS) process.off(sig, forward);
      process.off('exit', orphaned);
      done({ code: c ?? (signal === null ? 1 : signalExitCode(signal)), stdout: out });
    });
  });
  let r: MatchJson;
  try {
    r = JSON.parse(stdout.trim().split('\n').pop() ?? '') as MatchJson;
  } catch {
    throw new CliError(`tune verify: the match failed (exit code ${code})`, 1);
  }
  const enc = r.encounters?.[0];
  const summary = {
    params: file,
    base: opts.base ?? null,
    tc,
    games: r.games,
    wins: r.wins,
    draws: r.draws,
    losses: r.losses,
    elo: r.elo,
    error: r.error,
    los: r.los,
    ...(enc?.pentaElo !== undefined ? { pentaElo: enc.pentaElo, pentaError: enc.pentaError, penta: enc.penta } : {}),
    sprt: r.sprt ?? null,
    stopped: r.stopped,
    minutes: Math.round(r.durationMs / 600) / 100,
    command,
  };
  const pm = (x?: number | null, e?: number | null): string =>
    x === undefined || x === null ? '-' : `${x >= 0 ? '+' : ''}${x.toFixed(1)} ± ${e === undefined || e === null || !Number.isFinite(e) ? '?' : e.toFixed(1)}`;
  report(opts.json, summary, () =>
    [
      `tuned (${file}) against ${opts.base ?? 'the built-in weights'}, ${tc}, ${r.games} games in ${summary.minutes} min (${r.stopped})`,
      `W/D/L        ${r.wins}/${r.draws}/${r.losses} (tuned side)`,
      `Elo          ${pm(r.elo, r.error)} (95%), LOS ${r.los === undefined || r.los === null ? '-' : `${r.los.toFixed(1)}%`}`,
      ...(enc?.pentaElo !== undefined ? [`Elo (pairs)  ${pm(enc.pentaElo, enc.pentaError)}, pentanomial ${enc.penta?.join(',')}`] : []),
      sprtLine(r.sprt),
    ].join('\n'),
  );
  // A match that stopped early (a fault, an interrupt) is not a verification, whatever it counted.
  if (code !== 0) throw new CliError(`tune verify: the match ${r.stopped === 'interrupted' ? 'was interrupted' : `stopped early (${r.stopped})`} after ${r.games} games (exit code ${code})`, code > 128 ? code : 1);
}
