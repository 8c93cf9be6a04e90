/**
 * `npm run bench -- engine [--runs R] [--depth D] [--movetime MS]`: the speed of our search
 * (`tabiya bench`: 30 positions, fixed depth, one thread) against Stockfish's own benchmark
 * measured in the same run (`/usr/games/stockfish bench 16 1 13`: its bench positions, 16 MB,
 * one thread, depth 13, NNUE evaluation), as a ratio of nodes per second.
 *
 * When Debian's `ethereal-chess` is installed, Ethereal 12 is a second anchor: `ethereal-chess
 * bench 13 T 16` (its bench positions, depth 13, T threads, 16 MB). It is the engine of the
 * next rung in docs/strength.md, written in C with a hand-crafted evaluation like ours, so its
 * node is the nearest to ours of any engine at hand.
 *
 * Then threads: `tabiya uci` with Threads 1 and 2 searching the first BENCH_THREAD_POSITIONS
 * bench positions for MS ms each (a parallel search has no fixed node count at a fixed depth,
 * so its speed is nodes over time at a fixed time), against the anchors' benches with T = 1
 * and 2; each program's 2-thread speed over its own 1-thread speed, and ours over each
 * anchor's. The machine's load average is printed: other jobs take cores from the threads.
 *
 * Node definitions differ between engines (what counts as a node, how quiescence nodes are
 * counted, how much work a node does: Stockfish evaluates with a neural network), so the ratio
 * compares throughput on one machine, not the quality of the nodes; its use is to compare our
 * figure across machines and loads. Runs alternate between the two programs and the best run of
 * each is kept, which filters out the moments a shared machine was busy.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { BENCH_POSITIONS } from '../src/engine/bench.js';
import { benchArgs } from './args.js';
import { ownChild } from './cleanup.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const STOCKFISH = '/usr/games/stockfish';
const ETHEREAL = '/usr/games/ethereal-chess';

export interface Figure {
  nodes: number;
  nps: number;
}

/** Runs a process to completion with `input` on stdin; returns its stdout and stderr. */
function run(cmd: string, args: string[], input = ''): Promise<{ out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = ownChild(spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve({ out, err }) : reject(new Error(`${cmd} exited with ${code}: ${err.slice(-300)}`))));
    child.stdin.end(input);
  });
}

async function ours(depth: number): Promise<Figure> {
  const { out } = await run(process.execPath, [CLI, 'bench', '--depth', String(depth), '--json']);
  const r = JSON.parse(out) as { nodes: number; nps: number };
  return { nodes: r.nodes, nps: r.nps };
}

const BENCH_THREAD_POSITIONS = 6;

/** nodes/s of `tabiya uci` with `threads` threads on the first BENCH_THREAD_POSITIONS bench positions. */
function oursThreads(threads: number, movetime: number): Promise<Figure> {
  return uciNodeRate(process.execPath, [CLI, 'uci'], { Threads: threads }, BENCH_POSITIONS.slice(0, BENCH_THREAD_POSITIONS), movetime);
}

/**
 * nodes/s of a UCI engine with `options` set: the last info line of each search at a fixed
 * movetime, summed over `positions` (nodes over time). Each `go` is sent when the previous
 * search has answered (the clock of a `go` starts when it is read), after a first search that
 * lets threads start and code compile; each position starts a new game (an empty hash table).
 */
export async function uciNodeRate(cmd: string, args: string[], options: Record<string, number | string>, positions: readonly string[], movetime: number): Promise<Figure> {
  const child = ownChild(spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] }));
  const lines: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  let buffered = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      lines.push(line);
      if (waiting && (line.startsWith('bestmove') || line === 'readyok')) waiting(line);
    }
  });
  let failed: ((e: Error) => void) | undefined;
  child.on('exit', (code) => failed?.(new Error(`${cmd} exited (code ${code}) before it answered`)));
  const ask = (cmds: string): Promise<string> =>
    new Promise((resolve, reject) => {
      waiting = resolve;
      failed = reject;
      child.stdin.write(cmds);
    });
  const set = Object.entries(options).map(([k, v]) => `setoption name ${k} value ${v}\n`).join('');
  await ask(`uci\n${set}isready\n`);
  await ask('position startpos\ngo movetime 500\n');
  let nodes = 0;
  let time = 0;
  for (const fen of positions) {
    await ask('ucinewgame\nisready\n');
    lines.length = 0;
    await ask(`position fen ${fen}\ngo movetime ${movetime}\n`);
    // Engines print nodes and time in either order.
    const info = lines.filter((l) => l.startsWith('info ') && /\bnodes \d+/.test(l) && /\btime \d+/.test(l)).pop();
    if (!info) throw new Error(`${cmd}: no info line with nodes and time for ${fen}`);
    nodes += Number(/\bnodes (\d+)/.exec(info)![1]);
    time += Number(/\btime (\d+)/.exec(info)![1]);
  }
  failed = undefined;
  child.stdin.end('quit\n');
  return { nodes, nps: Math.round((nodes * 1000) / Math.max(1, time)) };
}

interface Anchor {
  name: string;
  /** Its own benchmark's command line with `threads` threads. */
  command: string;
  args(threads: number): string[];
  /** Reads nodes and nodes/s from the benchmark's output. */
  parse(text: string): Figure | undefined;
}

const ANCHORS: Anchor[] = [
  {
    name: 'stockfish',
    command: STOCKFISH,
    args: (t) => ['bench', '16', String(t), '13'],
    parse: (text) => figure(/Nodes searched\s*:\s*(\d+)/.exec(text), /Nodes\/second\s*:\s*(\d+)/.exec(text)),
  },
  {
    name: 'ethereal',
    command: ETHEREAL,
    // Ethereal's order is depth, threads, hash (its uci.c, runBenchmark).
    args: (t) => ['bench', '13', String(t), '16'],
    parse: (text) => figure(/^Nodes\s*:\s*(\d+)/m.exec(text), /^NPS\s*:\s*(\d+)/m.exec(text)),
  },
];

function figure(nodes: RegExpExecArray | null, nps: RegExpExecArray | null): Figure | undefined {
  return nodes && nps ? { nodes: Number(nodes[1]), nps: Number(nps[1]) } : undefined;
}

async function anchorBench(a: Anchor, threads = 1): Promise<Figure> {
  const { out, err } = await run(a.command, a.args(threads));
  const f = a.parse(out + err);
  if (!f) throw new Error(`${a.command} ${a.args(threads).join(' ')}: no node count and nodes/s in its output`);
  return f;
}

export async function main(args: string[]): Promise<void> {
  const { runs, depth, movetime } = benchArgs('engine', args, {
    usage: '[--runs R] [--depth D] [--movetime MS]',
    options: {
      runs: { kind: 'int', default: 3, min: 1, arg: 'R', help: 'runs of each program; the best is kept' },
      depth: { kind: 'int', default: 12, min: 1, arg: 'D', help: 'depth of the tabiya bench' },
      movetime: { kind: 'int', default: 3000, min: 100, arg: 'MS', help: 'milliseconds a position in the threads runs' },
    },
  }).values;
  // Stockfish is required (the anchor of every figure in docs/engine.md); Ethereal when installed.
  const anchors = ANCHORS.filter((a) => a.command === STOCKFISH || existsSync(a.command));
  if (anchors.length < ANCHORS.length) process.stderr.write(`${ETHEREAL} is not installed (apt-get install ethereal-chess): Stockfish only\n`);
  const better = (a: Figure | undefined, b: Figure): Figure => (a && a.nps >= b.nps ? a : b);
  let best: Figure | undefined;
  const bestAnchor: (Figure | undefined)[] = [];
  for (let i = 0; i < runs; i++) {
    const a = await ours(depth);
    best = better(best, a);
    const line = [`run ${i + 1}: tabiya ${a.nps} nodes/s`];
    for (const [k, anchor] of anchors.entries()) {
      const b = await anchorBench(anchor);
      bestAnchor[k] = better(bestAnchor[k], b);
      line.push(`${anchor.name} ${b.nps} nodes/s`);
    }
    process.stderr.write(`${line.join(', ')}\n`);
  }
  console.log(`tabiya bench (depth ${depth}): ${best!.nodes} nodes, ${best!.nps} nodes/s (best of ${runs})`);
  for (const [k, anchor] of anchors.entries()) {
    const b = bestAnchor[k]!;
    console.log(`${anchor.name} bench (${anchor.args(1).join(' ')}): ${b.nodes} nodes, ${b.nps} nodes/s (best of ${runs})`);
  }
  for (const [k, anchor] of anchors.entries()) {
    console.log(`ratio tabiya / ${anchor.name}: ${(best!.nps / Math.max(1, bestAnchor[k]!.nps)).toFixed(3)} (node definitions differ; see the header)`);
  }

  const bestT: Figure[] = [];
  const bestS: Figure[][] = anchors.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const t of [1, 2]) {
      const load = loadavg()[0]!.toFixed(2);
      const a = await oursThreads(t, movetime);
      bestT[t] = better(bestT[t], a);
      const line = [`run ${i + 1}, ${t} thread${t > 1 ? 's' : ''} (load average ${load}): tabiya ${a.nps} nodes/s`];
      for (const [k, anchor] of anchors.entries()) {
        const b = await anchorBench(anchor, t);
        bestS[k]![t] = better(bestS[k]![t], b);
        line.push(`${anchor.name} ${b.nps} nodes/s`);
      }
      process.stderr.write(`${line.join(', ')}\n`);
    }
  }
  for (const t of [1, 2]) {
    const ratios = anchors.map((anchor, k) => `${anchor.name} ${bestS[k]![t]!.nps} nodes/s (bench, ${t} thread${t > 1 ? 's' : ''}), ratio ${(bestT[t]!.nps / Math.max(1, bestS[k]![t]!.nps)).toFixed(3)}`);
    console.log(`${t} thread${t > 1 ? 's' : ' '}: tabiya ${bestT[t]!.nps} nodes/s (uci, ${BENCH_THREAD_POSITIONS} positions at movetime ${movetime}); ${ratios.join('; ')}`);
  }
  const scaling = anchors.map((anchor, k) => `${anchor.name} ${(bestS[k]![2]!.nps / Math.max(1, bestS[k]![1]!.nps)).toFixed(2)}x`);
  console.log(
    `2 threads / 1 thread: tabiya ${(bestT[2]!.nps / Math.max(1, bestT[1]!.nps)).toFixed(2)}x, ${scaling.join(', ')} ` +
      `(load average now ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${availableParallelism()} cores)`,
  );
}
