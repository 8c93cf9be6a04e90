/**
 * Search speed: the engine benchmark (src/engine/bench.ts: 30 positions, fixed depth, fresh
 * hash, histories and pawn hash for each) run by the TypeScript search and by the WebAssembly
 * search (src/wasm/search) in the same run. Both must visit the same number of nodes (the
 * bench signature, 3,525,981 at depth 12); nodes/s are over the search time alone, after a
 * warm-up of each at depth 8 (as `bench` does).
 *
 *   npm run bench -- search [--depth D]
 */
import { unwrap } from '../src/core/result.js';
import { BENCH_DEPTH, BENCH_HASH_MB, BENCH_POSITIONS, runBench } from '../src/engine/bench.js';
import { loadWasmCore } from '../src/node/wasmCore.js';
import { positionFromFen } from '../src/notation/fen.js';

export function main(args: string[]): void {
  const i = args.indexOf('--depth');
  const depth = i >= 0 ? Number(args[i + 1]) : BENCH_DEPTH;
  const ts = runBench(depth, undefined, true);

  const core = loadWasmCore();
  core.setHashSize(BENCH_HASH_MB);
  const positions = BENCH_POSITIONS.map((fen) => unwrap(positionFromFen(fen)));
  for (const pos of positions.slice(0, 12)) {
    core.newGame();
    core.setPosition(pos);
    core.search({ depth: Math.min(depth, 8) });
  }
  let nodes = 0;
  let time = 0;
  positions.forEach((pos, k) => {
    core.newGame();
    core.setPosition(pos);
    const t0 = performance.now();
    const r = core.search({ depth });
    time += performance.now() - t0;
    nodes += r.nodes;
    const want = ts.positions[k]!;
    if (r.nodes !== want.nodes || r.bestMove !== want.bestMove) {
      throw new Error(`bench position ${k}: WebAssembly ${r.nodes} nodes, move ${r.bestMove}; TypeScript ${want.nodes} nodes, move ${want.bestMove}`);
    }
  });
  const wasmNps = Math.round((nodes * 1000) / Math.max(1, time));
  const fmt = (n: number, ms: number, nps: number): string =>
    `${n.toLocaleString('en-US')} nodes  ${(ms / 1000).toFixed(2)} s  ${(nps / 1000).toFixed(0)} k nodes/s`;
  console.log(`search bench, ${BENCH_POSITIONS.length} positions, depth ${depth}, ${BENCH_HASH_MB} MB hash, Node ${process.version}`);
  console.log(`TypeScript   ${fmt(ts.nodes, ts.time, ts.nps)}`);
  console.log(`WebAssembly  ${fmt(nodes, time, wasmNps)}`);
  console.log(`ratio        ${(wasmNps / ts.nps).toFixed(2)}x (same nodes: ${nodes === ts.nodes ? 'yes' : 'no'})`);
}
