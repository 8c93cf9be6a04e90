/**
 * `tabiya tune label positions.epd -o labelled.epd --engine cmd=...`: another engine's
 * evaluation of every position, written as the EPD `ce` operation that `tune fit --lambda`
 * reads (src/tune/engineLabel.ts). Each line is written as it was, in the input order, with its
 * `ce` replaced or added, into a temporary file renamed at the end. A line without a legal
 * position, and a position the engine gives no score for (or dies or stalls on), is skipped,
 * counted and named (file:line).
 */
import { AtomicFileSync } from '../../book/node/atomicWrite.js';
import { makeEngineSpec, parseEngineKeys, type EngineKeys, type EngineSpec } from '../../match/engineSpec.js';
import { DEFAULT_TIMEOUTS, EngineFault } from '../../match/player.js';
import { killAllEngines, spawnEngine } from '../../node/engineProcess.js';
import { checkOutputs } from '../../node/outputs.js';
import { startProgress } from '../../node/progress.js';
import type { GoLimits } from '../../protocol/engineClient.js';
import { readText } from '../../tune/dataset.js';
import { ceOfScore, labelPositions, searchFen, type LabelResult } from '../../tune/engineLabel.js';
import { withCe } from '../../tune/labels.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';

export interface TuneLabelOptions {
  output: string;
  engine: string[];
  nodes?: string;
  depth?: string;
  movetime?: string;
  concurrency?: string;
  limit?: string;
  force?: boolean;
  quiet?: boolean;
  json?: boolean;
}

/** The search of every position when no limit is given. */
const DEFAULT_NODES = 5000;
/** Keys of `--engine` that set a search limit, which is the command's own (--nodes, --depth, --movetime). */
const LIMIT_KEYS = ['tc', 'st', 'nodes', 'depth', 'timemargin'];
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface Job {
  line: string;
  lineNo: number;
  fen: string;
}

export async function tuneLabelCommand(file: string, opts: TuneLabelOptions): Promise<void> {
  const limit = searchLimit(opts);
  const concurrency = intOption('--concurrency', opts.concurrency, 1, 64) ?? 1;
  const maxLines = intOption('--limit', opts.limit, 1);
  const spec = engineSpec(opts.engine, limit.keys);
  checkOutputs([{ path: opts.output, kind: 'text' }], [file], { force: opts.force });
  let text: string;
  try {
    text = readText(file);
  } catch (e) {
    throw new CliError((e as Error).message, 1);
  }

  // 1. The positions, in order; lines without one are named now, before the long part.
  const jobs: Job[] = [];
  const unreadable: string[] = [];
  let lines = 0;
  let lineNo = 0;
  for (const raw of text.split('\n')) {
    lineNo++;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (maxLines !== undefined && lines === maxLines) break;
    lines++;
    const fen = searchFen(line);
    if (fen.ok) jobs.push({ line, lineNo, fen: fen.value });
    else unreadable.push(`${file}:${lineNo}: ${fen.error.message}`);
  }
  if (!opts.quiet) {
    for (const e of unreadable.slice(0, 10)) process.stderr.write(`warning: ${e} (skipped)\n`);
    if (unreadable.length > 10) process.stderr.write(`warning: ${file}: ${unreadable.length} unreadable lines skipped in all\n`);
  }
  if (jobs.length === 0) throw new CliError(`${file}: no position to label (${lines} lines, ${unreadable.length} unreadable)`, 1);

  // 2. The searches, each line written as soon as those before it are.
  const out = new AtomicFileSync(opts.output);
  const skipped: string[] = [];
  const c = { labelled: 0, mates: 0, noScore: 0, faults: 0 };
  const bar = startProgress({ label: 'tune label', total: jobs.length, unit: 'positions', quiet: opts.quiet });
  const onResult = (i: number, r: LabelResult): void => {
    const job = jobs[i]!;
    if (r.kind === 'score') {
      out.write(`${withCe(job.line, ceOfScore(r.score))}\n`);
      c.labelled++;
      if (r.score.kind === 'mate') c.mates++;
      return;
    }
    if (r.kind === 'none') c.noScore++;
    else c.faults++;
    skipped.push(`${file}:${job.lineNo}: ${r.kind === 'none' ? 'the search gave no score' : `${r.message}; engine restarted`} (skipped)`);
  };
  const onWarning = (w: string): void => {
    if (!opts.quiet) process.stderr.write(`warning: ${w}\n`);
  };
  const onSearched = (n: number): void => bar.update(n, `${c.labelled} labelled${skipped.length > 0 ? `, ${skipped.length} skipped` : ''}`);
  // Ctrl-C or a kill: the engines go at once (a search may run for minutes); tempFiles.ts then
  // removes the temporary output and raises the signal again (exit status 128 + n).
  const onSignal = (sig: NodeJS.Signals): void => {
    killAllEngines();
    if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
  };
  for (const s of SIGNALS) process.prependOnceListener(s, onSignal);
  const t0 = performance.now();
  let engine: string;
  let restarts: number;
  try {
    const run = await labelPositions(
      jobs.map((j) => j.fen),
      { spec, spawn: spawnEngine, timeouts: DEFAULT_TIMEOUTS, limits: limit.go, concurrency, onResult, onSearched, onWarning },
    );
    engine = run.engineName;
    restarts = run.restarts;
    if (c.labelled === 0) throw new CliError(`tune label: ${engine} gave no score for any of the ${jobs.length} positions of ${file}; nothing written`, 1);
    out.commit();
  } catch (e) {
    out.abort();
    // An engine that cannot be started is the run's failure; a write error names its file itself.
    throw e instanceof EngineFault ? new CliError(`tune label: ${e.message}`, 1) : e;
  } finally {
    bar.stop();
    for (const s of SIGNALS) process.off(s, onSignal);
  }
  if (!opts.quiet) {
    for (const e of skipped.slice(0, 10)) process.stderr.write(`warning: ${e}\n`);
    if (skipped.length > 10) process.stderr.write(`warning: ${file}: ${skipped.length} positions without a label in all\n`);
  }

  // 3. The summary.
  const seconds = (performance.now() - t0) / 1000;
  const rate = jobs.length / Math.max(seconds, 1e-3);
  report(
    opts.json,
    { input: file, output: opts.output, lines, ...c, unreadable: unreadable.length, restarts, engine, limit: limit.text, concurrency, seconds: Math.round(seconds * 10) / 10, rate: Math.round(rate * 10) / 10 },
    () =>
      [
        `lines    ${lines} read: ${c.labelled} labelled (${c.mates} mate scores); skipped ${unreadable.length} unreadable, ${c.noScore} without a score, ${c.faults} on an engine fault`,
        `engine   ${engine}, ${limit.text} a position, ${concurrency} at a time${restarts > 0 ? `, restarted ${restarts} times` : ''}`,
        `written  ${opts.output}`,
        `time     ${seconds.toFixed(1)} s, ${rate.toFixed(1)} positions/s`,
      ].join('\n'),
    opts.output,
  );
}

/** --nodes, --depth or --movetime (one of them; nodes 5000 without any): the go limits, the engine-definition key that states it, and how it reads. */
function searchLimit(opts: TuneLabelOptions): { go: GoLimits; keys: EngineKeys['keys']; text: string } {
  const given = (['nodes', 'depth', 'movetime'] as const).filter((k) => opts[k] !== undefined);
  if (given.length > 1) throw new CliError(`tune label: --${given.join(' and --')} exclude each other: give one search limit`, 2);
  const depth = intOption('--depth', opts.depth, 1, 200);
  if (depth !== undefined) return { go: { depth }, keys: new Map([['depth', String(depth)]]), text: `depth ${depth}` };
  const movetime = intOption('--movetime', opts.movetime, 1);
  if (movetime !== undefined) return { go: { movetime }, keys: new Map([['st', String(movetime / 1000)]]), text: `${movetime} ms` };
  const nodes = intOption('--nodes', opts.nodes, 1) ?? DEFAULT_NODES;
  return { go: { nodes }, keys: new Map([['nodes', String(nodes)]]), text: `${nodes} nodes` };
}

/** The engine of `--engine` words (match.md's keys), a UCI one, with the command's search limit. */
function engineSpec(words: readonly string[], limitKeys: EngineKeys['keys']): EngineSpec {
  const usage = (message: string): never => {
    throw new CliError(`tune label: ${message}`, 2);
  };
  const own = parseEngineKeys(words, '--engine');
  if (typeof own === 'string') return usage(own);
  const set = LIMIT_KEYS.find((k) => own.keys.has(k));
  if (set !== undefined) usage(`--engine ${set}=: the search is set by --nodes, --depth or --movetime`);
  const spec = makeEngineSpec(own, { keys: limitKeys, args: [], options: [] }, 0);
  if (typeof spec === 'string') return usage(spec.replace(/^engine 1: /, '--engine: '));
  if (spec.proto !== 'uci') usage(`--engine proto=${spec.proto}: labelling reads the scores of UCI's info lines; give a UCI engine`);
  return spec;
}
