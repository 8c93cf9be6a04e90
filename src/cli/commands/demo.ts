import { perft } from '../../core/perft.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { unwrap } from '../../core/result.js';
import { report } from '../output.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

export function demoCommand(opts: { json?: boolean }): void {
  const runs = [
    { name: 'start position', fen: STARTING_FEN, depth: 5 },
    { name: 'Kiwipete', fen: KIWIPETE, depth: 4 },
  ].map(({ name, fen, depth }) => {
    const pos = unwrap(positionFromFen(fen));
    const t0 = performance.now();
    const nodes = perft(pos, depth);
    const secs = (performance.now() - t0) / 1000;
    return { name, depth, nodes, nps: Math.round(nodes / secs) };
  });
  report(opts.json, { perft: runs }, () =>
    runs.map((r) => `perft ${r.name} depth ${r.depth}: ${r.nodes} nodes (${(r.nps / 1e6).toFixed(1)} M nodes/s)`).join('\n'),
  );
}
