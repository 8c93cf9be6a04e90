/**
 * Perft speed: tabiya against chessops's own perft and chess.js's own perft, measured in the
 * same run, from the start position and Kiwipete, with and without bulk counting at the last
 * ply. Each figure is the best of several timed runs after a warm-up. The WebAssembly core
 * (src/wasm, the engine's future board) runs the same trees; its column is compared with the
 * TypeScript core's.
 *
 *   npm run bench -- perft [--seconds S]
 */
import { Chess as OpsChess } from 'chessops/chess';
import { parseFen as opsParseFen } from 'chessops/fen';
import { perft as opsPerft } from 'chessops/debug';
import { Chess as ChessJs } from 'chess.js';
import { perft } from '../src/core/perft.js';
import { positionFromFen, STARTING_FEN } from '../src/notation/fen.js';
import { unwrap } from '../src/core/result.js';
import { loadWasmCore } from '../src/node/wasmCore.js';
import { benchArgs } from './args.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

/** chessops without bulk counting: every leaf is played (clone + play, as its API allows). */
function opsPerftFull(pos: OpsChess, depth: number): number {
  let nodes = 0;
  for (const [from, dests] of pos.allDests()) {
    const promo = pos.board.pawn.has(from) && (from >> 3 === (pos.turn === 'white' ? 6 : 1));
    for (const to of dests) {
      for (const promotion of promo ? (['queen', 'rook', 'bishop', 'knight'] as const) : [undefined]) {
        const child = pos.clone();
        child.play({ from, to, promotion });
        nodes += depth === 1 ? 1 : opsPerftFull(child, depth - 1);
      }
    }
  }
  return nodes;
}

type JsInternals = { _moves(o: { legal: boolean }): unknown[]; _makeMove(m: unknown): void; _undoMove(): void };

/** chess.js with bulk counting: the last ply counted from its legal move list. */
function jsPerftBulk(chess: ChessJs, depth: number): number {
  const c = chess as unknown as JsInternals;
  const moves = c._moves({ legal: true });
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const m of moves) {
    c._makeMove(m);
    nodes += jsPerftBulk(chess, depth - 1);
    c._undoMove();
  }
  return nodes;
}

function measure(run: () => number, seconds: number): { nodes: number; nps: number } {
  let nodes = run(); // warm-up
  let best = 0;
  const deadline = performance.now() + seconds * 1000;
  let runs = 0;
  while (runs < 2 || (performance.now() < deadline && runs < 50)) {
    const t0 = performance.now();
    nodes = run();
    const nps = nodes / ((performance.now() - t0) / 1000);
    if (nps > best) best = nps;
    runs++;
  }
  return { nodes, nps: best };
}

const fmt = (nps: number): string => (nps / 1e6).toFixed(2).padStart(7) + ' M/s';

export function main(args: string[]): void {
  const { seconds } = benchArgs('perft', args, {
    usage: '[--seconds S]',
    options: { seconds: { kind: 'number', default: 2, min: 0, arg: 'S', help: 'seconds of timed runs for each figure; the best run is kept' } },
  }).values;
  console.log(`perft speed, nodes per second (best run of ~${seconds} s each), Node ${process.version}`);
  console.log('position    mode     depth   tabiya        chessops      chess.js          vs chessops  vs chess.js   wasm core     wasm / tabiya');
  const core = loadWasmCore();
  for (const [name, fen, deep, shallow] of [
    ['start', STARTING_FEN, 5, 4],
    ['kiwipete', KIWIPETE, 4, 3],
  ] as const) {
    for (const bulk of [true, false]) {
      const depth = bulk ? deep : shallow;
      const ours = measure(() => perft(unwrap(positionFromFen(fen)), depth, bulk), seconds);
      const opsPos = OpsChess.fromSetup(opsParseFen(fen).unwrap()).unwrap();
      const ops = measure(() => (bulk ? opsPerft(opsPos, depth) : opsPerftFull(opsPos, depth)), seconds);
      const jsDepth = Math.min(depth, shallow);
      const js = measure(() => {
        const c = new ChessJs(fen);
        return bulk ? jsPerftBulk(c, jsDepth) : c.perft(jsDepth);
      }, seconds);
      const wasm = measure(() => {
        core.setPosition(unwrap(positionFromFen(fen)));
        return core.perft(depth, bulk);
      }, seconds);
      if (ours.nodes !== ops.nodes) throw new Error(`node counts differ: tabiya ${ours.nodes}, chessops ${ops.nodes}`);
      // chess.js runs one ply less in bulk mode (its bulk perft at the full depth takes minutes):
      // its count is checked against ours at its own depth.
      const jsRef = jsDepth === depth ? ours.nodes : perft(unwrap(positionFromFen(fen)), jsDepth, bulk);
      if (js.nodes !== jsRef) throw new Error(`node counts differ at depth ${jsDepth}: tabiya ${jsRef}, chess.js ${js.nodes}`);
      if (wasm.nodes !== ours.nodes) throw new Error(`node counts differ: tabiya ${ours.nodes}, wasm core ${wasm.nodes}`);
      console.log(
        `${name.padEnd(11)} ${(bulk ? 'bulk' : 'full').padEnd(8)} ${String(depth).padStart(5)}  ${fmt(ours.nps)}  ${fmt(ops.nps)}  ${fmt(js.nps)}${jsDepth === depth ? '    ' : ` d${jsDepth}`}  ${(ours.nps / ops.nps).toFixed(1).padStart(9)}x  ${(ours.nps / js.nps).toFixed(1).padStart(9)}x  ${fmt(wasm.nps)}  ${(wasm.nps / ours.nps).toFixed(2).padStart(9)}x`,
      );
    }
  }
  console.log('dN: chess.js measured at depth N (its bulk perft one ply less), nodes per second compared; every count checked against ours');
  console.log('targets: >= 5x chessops bulk-counting perft, >= 25x chess.js');
}
