/**
 * Long differential run against chessops: node dist/scripts/diff-chessops.js [games] [maxPlies] [seed]
 * (defaults 20000 games of up to 400 plies). Throws on the first disagreement.
 */
import { runPlayouts } from '../test/support/diffChessops.js';

const [games = '20000', maxPlies = '400', seed = String(Date.now() % 1e9)] = process.argv.slice(2);
const t0 = performance.now();
const plies = runPlayouts(Number(seed), Number(games), Number(maxPlies));
console.log(`${games} playouts, ${plies} positions compared, seed ${seed}: all agree (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
