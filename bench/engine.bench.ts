/**
 * `npm run bench -- engine [--runs R] [--depth D]`: the speed of our search (`tabiya bench`:
 * 30 positions, fixed depth, one thread) against Stockfish's own benchmark measured in the same
 * run (`/usr/games/stockfish bench 16 1 13`: its bench positions, 16 MB, one thread, depth 13,
 * NNUE evaluation), as a ratio of nodes per second.
 *
 * Node definitions differ between engines (what counts as a node, how quiescence nodes are
 * counted, how much work a node does: Stockfish evaluates with a neural network), so the ratio
 * compares throughput on one machine, not the quality of the nodes; its use is to compare our
 * figure across machines and loads. Runs alternate between the two programs and the best run of
 * each is kept, which filters out the moments a shared machine was busy.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const STOCKFISH = '/usr/games/stockfish';

interface Figure {
  nodes: number;
  nps: number;
}

/** Runs a process to completion with `input` on stdin; returns its stdout and stderr. */
function run(cmd: string, args: string[], input = ''): Promise<{ out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
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

async function stockfish(): Promise<Figure> {
  const { out, err } = await run(STOCKFISH, ['bench', '16', '1', '13']);
  const text = out + err;
  const nodes = /Nodes searched\s*:\s*(\d+)/.exec(text);
  const nps = /Nodes\/second\s*:\s*(\d+)/.exec(text);
  if (!nodes || !nps) throw new Error('stockfish bench: no "Nodes searched" / "Nodes/second" in its output');
  return { nodes: Number(nodes[1]), nps: Number(nps[1]) };
}

export async function main(args: string[]): Promise<void> {
  const opt = (name: string, dflt: string): string => {
    const i = args.indexOf(name);
    return i >= 0 && i + 1 < args.length ? args[i + 1]! : dflt;
  };
  const runs = Math.max(1, Number(opt('--runs', '3')));
  const depth = Math.max(1, Number(opt('--depth', '12')));
  const anchor = 'stockfish';
  let best: Figure = { nodes: 0, nps: 0 };
  let bestAnchor: Figure = { nodes: 0, nps: 0 };
  for (let i = 0; i < runs; i++) {
    const a = await ours(depth);
    const b = await stockfish();
    process.stderr.write(`run ${i + 1}: tabiya ${a.nps} nodes/s, ${anchor} ${b.nps} nodes/s\n`);
    if (a.nps > best.nps) best = a;
    if (b.nps > bestAnchor.nps) bestAnchor = b;
  }
  console.log(`tabiya bench (depth ${depth}): ${best.nodes} nodes, ${best.nps} nodes/s (best of ${runs})`);
  console.log(`${anchor} bench: ${bestAnchor.nodes} nodes, ${bestAnchor.nps} nodes/s (best of ${runs})`);
  console.log(`ratio tabiya / ${anchor}: ${(best.nps / Math.max(1, bestAnchor.nps)).toFixed(3)} (node definitions differ; see the header)`);
}
