/**
 * `npm run bench -- wasm-ab BASE.wasm NEW.wasm [--runs R] [--depth D] [--hash MB]`: is one build of
 * the WebAssembly core faster than another? Both search `tabiya bench`'s positions (fresh 16 MB
 * hash each, as the bench does, or MB), in alternation in this one process, R times (default 10);
 * the processor time of each search is summed (process.cpuUsage around `go`, so that time the
 * machine gives other jobs is not counted, and table clearing between positions is left out).
 * Prints the best and median of each build, their node counts (a speed change must leave them
 * equal: the bench signature), and the ratio BASE / NEW of the best times: above 1, NEW is
 * faster. The anchor is BASE, measured in the same run.
 *
 * Then the evaluation alone, when both builds export `evaluateRepeat`: positions reached by
 * a fixed pseudo-random sequence of legal moves from the bench positions, each evaluated
 * EVAL_REPEAT times inside the core; nanoseconds of processor time per evaluation, best of R.
 *
 * Make the two builds with `asc` (the flags of package.json's build:wasm) before and after a
 * change, e.g. `npx asc src/wasm/index.ts -O3 --runtime stub --use EVAL_TRACE=0 -o /tmp/a.wasm`.
 * On a shared machine differences under about 2% are within the spread of best-of-10 runs.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import v8 from 'node:v8';
import { BENCH_DEPTH, BENCH_HASH_MB, BENCH_POSITIONS } from '../src/engine/bench.js';
import { Engine } from '../src/engine/engine.js';
import { WasmCore } from '../src/engine/wasm/core.js';
import { positionFromFen } from '../src/notation/fen.js';
import type { Position } from '../src/core/position.js';
import { benchArgs } from './args.js';

interface Run {
  nodes: number;
  /** Seconds of processor time. */
  cpu: number;
}

function benchOnce(engine: Engine, depth: number): Run {
  let nodes = 0;
  let micros = 0;
  for (const fen of BENCH_POSITIONS) {
    engine.newGame();
    engine.setPosition(fen);
    const c0 = process.cpuUsage();
    const r = engine.go({ depth });
    const c = process.cpuUsage(c0);
    micros += c.user + c.system;
    nodes += r.nodes;
  }
  return { nodes, cpu: micros / 1e6 };
}

const EVAL_REPEAT = 300;

/** Positions for the evaluation: up to 16 random legal moves from each bench position (fixed seed), not in check. */
function evalPositions(core: WasmCore): { pos: Position; moves: number[] }[] {
  let seed = 12345;
  const next = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed % n;
  };
  const out: { pos: Position; moves: number[] }[] = [];
  for (const fen of BENCH_POSITIONS) {
    const parsed = positionFromFen(fen);
    if (!parsed.ok) throw new Error(`bench position ${fen}: ${parsed.error.message}`);
    for (let k = 0; k < 40; k++) {
      core.setPosition(parsed.value, false);
      const moves: number[] = [];
      const plies = 1 + next(16);
      for (let i = 0; i < plies; i++) {
        const legal = core.legalMoves();
        if (legal.length === 0) break;
        const m = legal[next(legal.length)]!;
        core.play(m);
        moves.push(m);
      }
      if (!core.inCheck()) out.push({ pos: parsed.value, moves });
    }
  }
  return out;
}

/** Seconds of processor time to evaluate every position EVAL_REPEAT times, and the sum of the values. */
function evalOnce(core: WasmCore, positions: { pos: Position; moves: number[] }[]): { cpu: number; sum: number } {
  let micros = 0;
  let sum = 0;
  for (const { pos, moves } of positions) {
    core.setPosition(pos, false);
    for (const m of moves) core.play(m);
    const c0 = process.cpuUsage();
    sum += core.evaluateRepeat(EVAL_REPEAT)!;
    const c = process.cpuUsage(c0);
    micros += c.user + c.system;
  }
  return { cpu: micros / 1e6, sum };
}

export function main(args: string[]): void {
  const a = benchArgs('wasm-ab', args, {
    usage: 'BASE.wasm NEW.wasm [--runs R] [--depth D] [--hash MB]',
    options: {
      runs: { kind: 'int', default: 10, min: 1, arg: 'R', help: 'searches of the bench by each build' },
      depth: { kind: 'int', default: BENCH_DEPTH, min: 1, arg: 'D', help: 'depth of each search' },
      hash: { kind: 'int', default: BENCH_HASH_MB, min: 1, arg: 'MB', help: 'hash table size in MB' },
    },
    positionals: { min: 2, max: 2, names: 'BASE.wasm and NEW.wasm' },
  });
  const files = a.positionals;
  const { runs, depth, hash: hashMB } = a.values;
  // As `tabiya bench` runs (src/node/v8flags.ts).
  v8.setFlagsFromString('--no-use-osr');
  const modules = files.map((f) => new WebAssembly.Module(readFileSync(f)));
  const engines = modules.map((wasm) => new Engine({ hashMB, wasm }));
  // A first, shallower pass compiles the hot functions of both builds before timing.
  for (const e of engines) benchOnce(e, Math.min(depth, 9));
  const times: number[][] = files.map(() => []);
  const nodes = files.map(() => 0);
  const load0 = loadavg()[0]!;
  for (let r = 0; r < runs; r++) {
    engines.forEach((e, i) => {
      const run = benchOnce(e, depth);
      nodes[i] = run.nodes;
      times[i]!.push(run.cpu);
    });
  }
  const load1 = loadavg()[0]!;
  const best = times.map((t) => Math.min(...t));
  files.forEach((f, i) => {
    const sorted = [...times[i]!].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    process.stdout.write(
      `${i === 0 ? 'base' : 'new '} ${f}: nodes ${nodes[i]}, best ${best[i]!.toFixed(3)} s (${Math.round(nodes[i]! / best[i]!)} nodes/s of processor time), median ${median.toFixed(3)} s\n`,
    );
  });
  process.stdout.write(`ratio base/new (best): ${(best[0]! / best[1]!).toFixed(3)}${nodes[0] === nodes[1] ? '' : '; NODE COUNTS DIFFER: the search changed'}\n`);
  process.stdout.write(`load average ${load0.toFixed(2)} before, ${load1.toFixed(2)} after, ${runs} runs each, depth ${depth}, hash ${hashMB} MB\n`);

  const cores = modules.map((m) => new WasmCore(m));
  if (cores.some((c) => c.evaluateRepeat(0) === undefined)) {
    process.stdout.write('evaluation: not measured (a build has no evaluateRepeat export)\n');
    return;
  }
  const positions = evalPositions(cores[0]!);
  for (const c of cores) evalOnce(c, positions);
  const evalBest = files.map(() => Infinity);
  const sums = files.map(() => 0);
  for (let r = 0; r < runs; r++) {
    cores.forEach((c, i) => {
      const e = evalOnce(c, positions);
      sums[i] = e.sum;
      evalBest[i] = Math.min(evalBest[i]!, e.cpu);
    });
  }
  const ns = evalBest.map((t) => (t * 1e9) / (positions.length * EVAL_REPEAT));
  process.stdout.write(
    `evaluation, ${positions.length} positions x ${EVAL_REPEAT}: base ${ns[0]!.toFixed(1)} ns, new ${ns[1]!.toFixed(1)} ns, ratio base/new ${(ns[0]! / ns[1]!).toFixed(3)}` +
      `${sums[0] === sums[1] ? '' : '; VALUES DIFFER: the evaluation changed'}\n`,
  );
}
