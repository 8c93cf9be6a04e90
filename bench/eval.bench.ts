/**
 * Evaluation speed: the TypeScript evaluation against the WebAssembly one (src/wasm/eval),
 * measured in the same run over the same positions: every position of the first games of
 * ../shared/data's 2,000-game sample, walked as the search walks them (play the move, keep the
 * material + piece-square sum with psqtDelta, evaluate). Each figure is the best of several
 * passes after a warm-up; passes alternate between the two.
 *
 *   npm run bench -- eval [--games N] [--rounds R]
 */
import { evaluateWith } from '../src/engine/eval/evaluate.js';
import { psqtDelta, psqtFromScratch } from '../src/engine/eval/psqt.js';
import type { Position } from '../src/core/position.js';
import { loadWasmCore } from '../src/node/wasmCore.js';
import { readPgn } from '../src/pgn/reader.js';

interface Game {
  start: Position;
  moves: number[];
}

async function loadGames(n: number): Promise<Game[]> {
  const games: Game[] = [];
  let cur: Game | null = null;
  await readPgn(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url).pathname, {
    endTags(pos) {
      if (games.length >= n) return false;
      cur = { start: pos.clone(), moves: [] };
      return true;
    },
    move(_pos, m) {
      cur?.moves.push(m);
    },
    endGame() {
      if (cur) games.push(cur);
      cur = null;
    },
  });
  return games;
}

export async function main(args: string[]): Promise<void> {
  const opt = (name: string, def: number): number => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : def;
  };
  const games = await loadGames(opt('--games', 300));
  const rounds = opt('--rounds', 7);
  const core = loadWasmCore();
  const positions = games.reduce((a, g) => a + g.moves.length, 0);

  // Both return a checksum of the evaluations, compared so that both did the same work.
  const runTs = (): number => {
    let sum = 0;
    for (const g of games) {
      const pos = g.start.clone();
      let psqt = psqtFromScratch(pos);
      for (const m of g.moves) {
        sum += evaluateWith(pos, psqt);
        psqt += psqtDelta(pos, m);
        pos.play(m);
      }
    }
    return sum;
  };
  const runWasm = (): number => {
    let sum = 0;
    for (const g of games) {
      core.setPosition(g.start);
      let psqt = core.psqtFromScratch();
      for (const m of g.moves) {
        sum += core.evaluateWith(psqt);
        psqt += core.psqtDelta(m);
        core.play(m);
      }
    }
    return sum;
  };
  const tsSum = runTs();
  if (runWasm() !== tsSum) throw new Error('the two evaluations differ on these games');
  let bestTs = 0;
  let bestWasm = 0;
  for (let r = 0; r < rounds; r++) {
    for (const [run, which] of (r % 2 === 0 ? [[runTs, 0], [runWasm, 1]] : [[runWasm, 1], [runTs, 0]]) as [() => number, number][]) {
      const t0 = performance.now();
      run();
      const rate = positions / ((performance.now() - t0) / 1000);
      if (which === 0) bestTs = Math.max(bestTs, rate);
      else bestWasm = Math.max(bestWasm, rate);
    }
  }
  const fmt = (x: number): string => `${(x / 1e6).toFixed(2)} M positions/s`;
  console.log(`evaluation speed (evaluate + psqtDelta + play), ${games.length} games, ${positions} positions, best of ${rounds} passes, Node ${process.version}`);
  console.log(`TypeScript   ${fmt(bestTs)}`);
  console.log(`WebAssembly  ${fmt(bestWasm)}`);
  console.log(`ratio        ${(bestWasm / bestTs).toFixed(2)}x`);
}
