/**
 * Book audit speed: `book audit` (src/book/node/audit.ts: the walk, worker threads, a fresh
 * hash table per position, the journal synced after every position) on the bundled book, with
 * one thread and with two, against the anchor: the same searches (src/book/audit/verdict.ts)
 * run one after the other in this thread, with nothing around them. No other tool audits a
 * book, so the anchor is this same-run baseline; the ratios say what the machinery costs on one
 * thread and what the second thread brings.
 *
 * The three run in turns, R times each (default 3), and the best wall time and the best
 * processor time (process.cpuUsage: this thread and the audit's worker threads, which the
 * load of a shared machine inflates far less than wall time) of each are kept. Two threads are
 * judged by wall time (their processor time is the sum over both); one thread against the
 * searches alone by both.
 *
 *   npm run bench -- audit [--book data/tabiya.bin] [--max-ply 4] [--depth 10] [--runs R]
 */
import { join } from 'node:path';
import { runAudit } from '../src/book/node/audit.js';
import { auditPosition } from '../src/book/audit/verdict.js';
import { Engine } from '../src/engine/engine.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { benchArgs } from './args.js';
import { removeTempDir, tempDir } from './cleanup.js';

interface Best {
  wall: number;
  cpu: number;
  /** The nodes of the first run, and whether a later run visited other nodes. */
  nodes: number;
  differs: boolean;
}

const fresh = (): Best => ({ wall: Infinity, cpu: Infinity, nodes: -1, differs: false });

/** Runs `f`, and keeps in `best` the least wall and processor time (seconds) so far; returns its nodes. */
async function timed(best: Best, f: () => Promise<number> | number): Promise<void> {
  const c = process.cpuUsage();
  const t = performance.now();
  const nodes = await f();
  const wall = (performance.now() - t) / 1000;
  const u = process.cpuUsage(c);
  best.wall = Math.min(best.wall, wall);
  best.cpu = Math.min(best.cpu, (u.user + u.system) / 1e6);
  if (best.nodes < 0) best.nodes = nodes;
  else if (nodes !== best.nodes) best.differs = true;
}

export async function main(args: string[]): Promise<void> {
  const { book, 'max-ply': maxPly, depth, runs } = benchArgs('audit', args, {
    usage: '[--book data/tabiya.bin] [--max-ply 4] [--depth 10] [--runs R]',
    options: {
      book: { kind: 'string', default: 'data/tabiya.bin', arg: 'FILE', help: 'the book to audit (.bin)' },
      'max-ply': { kind: 'int', default: 4, min: 0, help: 'audit the positions up to this ply' },
      depth: { kind: 'int', default: 10, min: 1, arg: 'D', help: 'search depth of each position' },
      runs: { kind: 'int', default: 3, min: 1, arg: 'R', help: 'runs of each, in turns; the best is kept' },
    },
  }).values;
  const margin = 100;
  const dir = tempDir('tabiya-audit-bench-');
  try {
    let journals = 0;
    const audit = async (threads: number) =>
      runAudit(book, '.bin', { limits: { depth }, minGames: 1, minWeight: 1, margin, maxPly, threads, hashMB: 16, journal: join(dir, `j${journals++}`), fresh: true });
    // The positions and moves the anchor searches: those the audit walks to.
    const walked = await audit(1);
    const engine = new Engine({ hashMB: 16, wasm: wasmCoreModule() });
    engine.settings.moveOverhead = 0;
    const alone = (): number => {
      let nodes = 0;
      for (const p of walked.positions) nodes += auditPosition(engine, { index: p.index, fen: p.fen, moves: p.moves.map((m) => m.uci), confirmAbove: margin }, { depth }).nodes;
      return nodes;
    };
    const [bare, one, two] = [fresh(), fresh(), fresh()];
    for (let r = 0; r < runs; r++) {
      await timed(bare, alone);
      await timed(one, async () => (await audit(1)).nodes);
      await timed(two, async () => (await audit(2)).nodes);
    }
    const n = walked.positions.length;
    const line = (name: string, b: Best): string =>
      `${name.padEnd(22)} ${b.wall.toFixed(2).padStart(7)} s wall  ${b.cpu.toFixed(2).padStart(7)} s processor  ${(n / b.wall).toFixed(1).padStart(6)} positions/s  ${(b.nodes / b.wall / 1000).toFixed(0).padStart(5)} k nodes/s`;
    console.log(`book audit of ${book}, ${n} positions to ply ${maxPly}, ${walked.moves.length} book moves, depth ${depth}, best of ${runs} runs in turns, Node ${process.version}`);
    console.log(line('searches alone', bare));
    console.log(line('book audit --threads 1', one));
    console.log(line('book audit --threads 2', two));
    const same = [bare, one, two].every((b) => !b.differs && b.nodes === bare.nodes);
    console.log(
      `ratio: one thread ${(bare.wall / one.wall).toFixed(2)}x the searches alone (wall), ${(bare.cpu / one.cpu).toFixed(2)}x (processor); two threads ${(one.wall / two.wall).toFixed(2)}x one (wall) (same nodes in every run: ${same ? 'yes' : 'no'})`,
    );
  } finally {
    removeTempDir(dir);
  }
}
