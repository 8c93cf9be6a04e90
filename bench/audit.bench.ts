/**
 * Book audit speed: `book audit` (src/book/node/audit.ts: the walk, worker threads, a fresh
 * hash table per position, the journal synced after every position) on the bundled book, with
 * one thread and with two, against the anchor: the same searches (src/book/audit/verdict.ts)
 * run one after the other in this thread, with nothing around them. The ratios say what the
 * machinery costs on one thread and what the second thread brings.
 *
 *   npm run bench -- audit [--book data/tabiya.bin] [--max-ply 4] [--depth 10]
 */
import { join } from 'node:path';
import { runAudit } from '../src/book/node/audit.js';
import { auditPosition } from '../src/book/audit/verdict.js';
import { Engine } from '../src/engine/engine.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { benchArgs } from './args.js';
import { removeTempDir, tempDir } from './cleanup.js';

export async function main(args: string[]): Promise<void> {
  const { book, 'max-ply': maxPly, depth } = benchArgs('audit', args, {
    usage: '[--book data/tabiya.bin] [--max-ply 4] [--depth 10]',
    options: {
      book: { kind: 'string', default: 'data/tabiya.bin', arg: 'FILE', help: 'the book to audit (.bin)' },
      'max-ply': { kind: 'int', default: 4, min: 0, help: 'audit the positions up to this ply' },
      depth: { kind: 'int', default: 10, min: 1, arg: 'D', help: 'search depth of each position' },
    },
  }).values;
  const margin = 100;
  const dir = tempDir('tabiya-audit-bench-');
  try {
    const run = (threads: number) =>
      runAudit(book, '.bin', { limits: { depth }, minGames: 1, minWeight: 1, margin, maxPly, threads, hashMB: 16, journal: join(dir, `j${threads}`), fresh: true });
    const one = await run(1);
    const two = await run(2);
    // The anchor: the same positions and moves, searched in this thread.
    const engine = new Engine({ hashMB: 16, wasm: wasmCoreModule() });
    engine.settings.moveOverhead = 0;
    const t0 = performance.now();
    let nodes = 0;
    for (const p of one.positions) nodes += auditPosition(engine, { index: p.index, fen: p.fen, moves: p.moves.map((m) => m.uci), confirmAbove: margin }, { depth }).nodes;
    const bare = (performance.now() - t0) / 1000;
    const n = one.positions.length;
    const line = (name: string, s: number, k: number): string => `${name.padEnd(22)} ${s.toFixed(2).padStart(7)} s  ${(n / s).toFixed(1).padStart(6)} positions/s  ${((k / s) / 1000).toFixed(0).padStart(5)} k nodes/s`;
    console.log(`book audit of ${book}, ${n} positions to ply ${maxPly}, ${one.moves.length} book moves, depth ${depth}, Node ${process.version}`);
    console.log(line('searches alone', bare, nodes));
    console.log(line('book audit --threads 1', one.seconds, one.nodes));
    console.log(line('book audit --threads 2', two.seconds, two.nodes));
    console.log(`ratio: one thread ${(bare / one.seconds).toFixed(2)}x the searches alone; two threads ${(one.seconds / two.seconds).toFixed(2)}x one (same nodes: ${one.nodes === nodes && two.nodes === nodes ? 'yes' : 'no'})`);
  } finally {
    removeTempDir(dir);
  }
}
