/**
 * `tabiya epd FILE --movetime MS`: runs a test suite. A position counts as solved when the
 * engine's move is one of its `bm` moves and none of its `am` moves. Records that cannot be
 * read are reported with their line and skipped.
 *
 * For each solved position it also records when the solution was found: the first completed
 * iteration from which the best move stayed a solution until the end (depth, nodes, time).
 * Totals of these separate two searches that solve the same count, one of them faster.
 *
 * `--threads N` searches each position with N threads (Lazy SMP on worker threads, as
 * `tabiya uci` with Threads N); one thread searches in this process. `--set NAME=V` changes a
 * search constant (those `tabiya uci --tunable` offers), so that a change can be tried on a
 * suite without a rebuild.
 *
 * Suites that grade moves (the Strategic Test Suite: `c0 "f5=10, Be5+=2, Bf2=3"`) are scored
 * too: the points of the move played (0 for a move not listed) against the most any listed
 * move earns, in all and by theme (the id without its number, "STS(v1.0) Undermine").
 *
 * Mate problems name the mate instead of a move: `dm N` (EPD's "direct mate" in N moves,
 * Edwards' PGN standard §16.2.5.5) or `bm #N` (the Chest suites that vondele/matetrack
 * tracks, where N < 0 means the side to move is mated). Such a position is solved when the
 * search ends with a mate score of that sign, no longer than N when the side to move mates and
 * at least as long when it is mated (the longest defence).
 */
import { wasmCoreModule } from '../../node/wasmCore.js';
import { Engine } from '../../engine/engine.js';
import { LocalHost, type EngineHost, type WireBest, type WireInfo, type WireLimits } from '../../engine/host.js';
import { WorkerHost } from '../../node/workerHost.js';
import { MAX_THREADS } from '../../engine/signals.js';
import { legalMoves } from '../../core/movegen.js';
import { parseEpd } from '../../notation/epd.js';
import { positionFromFen } from '../../notation/fen.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import { makeSan, parseSan } from '../../notation/san.js';
import { startProgress } from '../../node/progress.js';
import { CliError, intOption } from '../errors.js';
import { searchParamProblem } from '../../engine/searchParams.js';
import { report } from '../output.js';
import { readEpdRecords } from './epdFile.js';
import { configureV8ForSearch } from '../../node/v8flags.js';

export interface EpdOptions {
  movetime?: string;
  depth?: string;
  nodes?: string;
  hash?: string;
  threads?: string;
  limit?: string;
  set?: string[];
  json?: boolean;
  quiet?: boolean;
}

/** Where a solved position's solution was found and then kept. */
interface Solution {
  id: string;
  depth: number;
  nodes: number;
  time: number;
}

/** Points earned and the most that could be, over some positions. */
interface Points {
  points: number;
  max: number;
  positions: number;
}

interface Failure {
  id: string;
  line: number;
  expected: string[];
  avoid: string[];
  played: string;
  /** Mate problems: the mate asked for (moves; negative: mated) and the engine's final mate score (null: none). */
  mate?: number;
  foundMate?: number | null;
}

/** The mate a record asks for, from `dm N` or `bm #N`: moves to mate (negative: mated), or an error. */
function mateTarget(ops: Map<string, string[]>): { mate?: number; error?: string } {
  const dm = ops.get('dm');
  if (dm !== undefined) {
    if (dm.length !== 1 || !/^[1-9]\d{0,3}$/.test(dm[0]!)) return { error: `dm ${dm.join(' ')}: expected one whole number of moves, at least 1` };
    return { mate: Number(dm[0]) };
  }
  const sharp = (ops.get('bm') ?? []).filter((o) => o.startsWith('#'));
  if (sharp.length === 0) return {};
  if (sharp.length > 1 || !/^#-?[1-9]\d{0,3}$/.test(sharp[0]!)) return { error: `bm ${sharp.join(' ')}: expected one mate as #N or #-N (N at least 1)` };
  return { mate: Number(sharp[0]!.slice(1)) };
}

/** Whether a final mate score (moves, negative: mated; undefined: no mate) is the mate asked for. */
export function mateSolves(target: number, found: number | undefined): boolean {
  if (found === undefined) return false;
  return target > 0 ? found > 0 && found <= target : found < 0 && found <= target;
}

/** One search on the host, as a promise (a LocalHost answers before `go` returns). */
function searchOn(host: EngineHost, fen: string, limits: WireLimits, onInfo: (i: WireInfo) => void): Promise<WireBest> {
  return new Promise((resolve) => host.go({ fen, moves: [], limits }, onInfo, resolve));
}

export async function epdCommand(file: string, opts: EpdOptions): Promise<void> {
  configureV8ForSearch();
  const movetime = intOption('--movetime', opts.movetime, 1);
  const depth = intOption('--depth', opts.depth, 1, 120);
  const nodes = intOption('--nodes', opts.nodes, 1);
  const hash = intOption('--hash', opts.hash ?? '64', 1, 8192)!;
  const threads = intOption('--threads', opts.threads ?? '1', 1, MAX_THREADS)!;
  const limit = intOption('--limit', opts.limit, 1);
  if (movetime === undefined && depth === undefined && nodes === undefined) throw new CliError('epd: give --movetime, --depth or --nodes', 2);
  const searchParams: Record<string, number> = {};
  for (const item of opts.set ?? []) {
    const m = /^([A-Za-z]\w*)=(-?\d+)$/.exec(item.trim());
    const problem = m === null ? 'expected NAME=VALUE with a whole number' : searchParamProblem(m[1]!, Number(m[2]));
    if (problem !== undefined) throw new CliError(`epd: --set ${item}: ${problem}`, 2);
    searchParams[m![1]!] = Number(m![2]);
  }
  const records = readEpdRecords(file);
  const todo = limit !== undefined ? records.slice(0, limit) : records;
  const host = threads > 1 ? new WorkerHost() : new LocalHost(new Engine({ wasm: wasmCoreModule() }));
  host.onError = (message) => process.stderr.write(`tabiya: ${message}\n`);
  // No GUI or pipe to keep time back for.
  host.configure({ hashMB: hash, threads, moveOverhead: 0, searchParams });
  try {
    // The threads start and allocate their tables before the first clock runs.
    if (host instanceof WorkerHost) await new Promise<void>((resolve) => host.whenReady(resolve));
    await runSuite(file, todo, host, { movetime, depth, nodes }, opts);
  } finally {
    host.close();
  }
}

async function runSuite(file: string, todo: { line: number; text: string }[], host: EngineHost, limits: WireLimits, opts: EpdOptions): Promise<void> {
  const progress = startProgress({ label: 'epd', total: todo.length, unit: 'positions', quiet: opts.quiet });
  const failures: Failure[] = [];
  const solutions: Solution[] = [];
  const errors: { line: number; message: string }[] = [];
  const themes = new Map<string, Points>();
  const graded: Points = { points: 0, max: 0, positions: 0 };
  let solved = 0;
  let total = 0;
  let searched = 0;
  let time = 0;
  for (const rec of todo) {
    progress.update(total + errors.length, `${solved} solved`);
    const parsed = parseEpd(rec.text);
    if (!parsed.ok) {
      errors.push({ line: rec.line, message: `${file}:${rec.line}: ${parsed.error.message}` });
      continue;
    }
    const { fen, ops } = parsed.value;
    const at = positionFromFen(fen);
    if (!at.ok) {
      errors.push({ line: rec.line, message: `${file}:${rec.line}: ${at.error.message}` });
      continue;
    }
    const pos = at.value;
    const bm: number[] = [];
    const am: number[] = [];
    let bad = '';
    const target = mateTarget(ops);
    if (target.error !== undefined) bad = target.error;
    for (const [op, out] of [['bm', bm], ['am', am]] as const) {
      for (const san of ops.get(op) ?? []) {
        if (op === 'bm' && san.startsWith('#')) continue;
        const m = parseSan(pos, san);
        if (m.ok) out.push(m.value);
        else bad = `${op} ${san}: ${m.error.message}`;
      }
    }
    // c0 is any comment (WAC and Arasan keep remarks and game names there): it grades moves
    // only when it is a list of MOVE=POINTS and nothing else.
    const grades = new Map<number, number>();
    const c0 = (ops.get('c0') ?? []).join(' ');
    if (bad === '' && /^\s*\S+=\d+\s*(,\s*\S+=\d+\s*)*,?\s*$/.test(c0)) {
      for (const item of c0.split(',')) {
        const g = /^\s*(\S+)=(\d+)\s*$/.exec(item);
        if (g === null) continue;
        const m = parseSan(pos, g[1]!);
        if (m.ok) grades.set(m.value, Number(g[2]));
        else bad ||= `c0: ${g[1]}: ${m.error.message}`;
      }
    }
    if (bad !== '' || (bm.length === 0 && am.length === 0 && target.mate === undefined)) {
      errors.push({ line: rec.line, message: `${file}:${rec.line}: ${bad || 'no bm, am or dm operation'}` });
      continue;
    }
    const mate = target.mate;
    const isSolution = (m: number): boolean => (bm.length === 0 || bm.includes(m)) && !am.includes(m);
    // A mate problem is solved by the score, whichever move delivers it.
    const mateOk = (found: number | undefined): boolean => mate === undefined || mateSolves(mate, found);
    const solutionUci = new Set(legalMoves(pos).filter(isSolution).map((m) => makeUci(m, pos.chess960)));
    let found: { depth: number; nodes: number; time: number } | undefined;
    host.newGame();
    const started = performance.now();
    const best = await searchOn(host, fen, limits, (info) => {
      if (info.multipv !== 1 || info.bound !== undefined || info.pv.length === 0) return;
      if (!solutionUci.has(info.pv[0]!) || !mateOk(info.mate)) found = undefined;
      else found ??= { depth: info.depth, nodes: info.nodes, time: info.time };
    });
    if (best.error !== undefined) {
      errors.push({ line: rec.line, message: `${file}:${rec.line}: ${best.error}` });
      continue;
    }
    const played = best.best !== null ? parseUci(pos, best.best) : undefined;
    const r = { bestMove: played?.ok ? played.value : 0, nodes: best.nodes, depth: best.depth, time: Math.round(performance.now() - started) };
    total++;
    searched += r.nodes;
    time += r.time;
    const id = ops.get('id')?.[0] ?? `line ${rec.line}`;
    if (grades.size > 0) {
      const theme = id.replace(/\.?\d+$/, '');
      const t = themes.get(theme) ?? { points: 0, max: 0, positions: 0 };
      themes.set(theme, t);
      for (const p of [t, graded]) {
        p.points += grades.get(r.bestMove) ?? 0;
        p.max += Math.max(...grades.values());
        p.positions++;
      }
    }
    if (isSolution(r.bestMove) && mateOk(best.mate)) {
      solved++;
      // A best move that no completed iteration reported (found within the last one) counts at the end.
      solutions.push({ id, ...(found ?? { depth: r.depth, nodes: r.nodes, time: r.time }) });
    } else {
      failures.push({
        id,
        line: rec.line,
        expected: ops.get('bm') ?? [],
        avoid: ops.get('am') ?? [],
        played: r.bestMove !== 0 ? makeSan(pos, r.bestMove) : '(none)',
        ...(mate !== undefined ? { mate, foundMate: best.mate ?? null } : {}),
      });
    }
  }
  // The last position counted too: a run that ends past the interval says so, at 100%.
  progress.update(total + errors.length, `${solved} solved`);
  progress.stop();
  for (const e of errors) process.stderr.write(`tabiya: skipped ${e.message}\n`);
  if (total === 0) throw new CliError(`${file}: none of its ${errors.length} positions could be searched`, 1);
  const nps = Math.round((searched * 1000) / Math.max(1, time));
  const found = summarizeSolutions(solutions);
  const byTheme = [...themes].map(([theme, p]) => ({ theme, ...p }));
  const points = graded.positions > 0 ? { ...graded, byTheme } : undefined;
  // nodes and ms: every search's, solved or not (the nps above is their ratio).
  report(opts.json, { file, solved, total, skipped: errors.length, nodes: searched, ms: time, nps, found, points, failed: failures, solutions }, () => {
    const mateText = (n: number): string => (n > 0 ? `mate in ${n}` : `mated in ${-n}`);
    const out = failures.map((f) =>
      f.mate !== undefined
        ? `${f.id}: played ${f.played}, ${f.foundMate === null || f.foundMate === undefined ? 'no mate found' : `found ${mateText(f.foundMate)}`}, wanted ${mateText(f.mate)}`
        : `${f.id}: played ${f.played}, ${f.expected.length ? `best ${f.expected.join(' ')}` : `avoid ${f.avoid.join(' ')}`}`,
    );
    out.push(`solved ${solved}/${total}${errors.length ? ` (${errors.length} skipped)` : ''}, ${searched.toLocaleString('en-US')} nodes in ${(time / 1000).toFixed(1)} s, ${nps.toLocaleString('en-US')} nodes/s`);
    if (found) {
      out.push(`solutions found after ${found.nodes.total.toLocaleString('en-US')} nodes and ${(found.time.total / 1000).toFixed(1)} s in all; ` +
        `median ${found.nodes.median.toLocaleString('en-US')} nodes, ${found.time.median} ms, depth ${found.depth.median}`);
    }
    if (points) {
      const pct = (p: Points): string => `${((100 * p.points) / p.max).toFixed(1)}%`;
      if (byTheme.length > 1) for (const t of byTheme) out.push(`  ${t.theme}: ${t.points}/${t.max} (${pct(t)}) over ${t.positions}`);
      out.push(`points ${points.points}/${points.max} (${pct(points)}) over ${points.positions} graded positions`);
    }
    return out.join('\n');
  });
}

/** Totals and medians of the solved positions' finding points (undefined when none was solved). */
export function summarizeSolutions(solutions: readonly Solution[]): { depth: { median: number }; nodes: { total: number; median: number }; time: { total: number; median: number } } | undefined {
  if (solutions.length === 0) return undefined;
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    const mid = s.length >> 1;
    return s.length % 2 === 1 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
  };
  const nodes = solutions.map((s) => s.nodes);
  const time = solutions.map((s) => Math.round(s.time));
  return {
    depth: { median: median(solutions.map((s) => s.depth)) },
    nodes: { total: nodes.reduce((a, b) => a + b, 0), median: median(nodes) },
    time: { total: time.reduce((a, b) => a + b, 0), median: median(time) },
  };
}
