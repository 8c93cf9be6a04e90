/**
 * `node dist/scripts/book-return-probe.js BOOK EXITS.epd [N] [MARGIN] [MOVETIME]`: what
 * BookReturn does on the first N positions of an EPD (book-exits.js writes them): the engine
 * searches each for MOVETIME ms (default 300) with BookReturn on and the given margin (default
 * 30), and the notes are counted: a return played, a return refused for its cost, or no return
 * (nothing good reachable within BookReturnPlies); of the returns played, those that a search
 * with BookReturn off (the same time) plays too.
 */
import { readFileSync } from 'node:fs';
import { Engine } from '../src/engine/engine.js';
import { LocalHost } from '../src/engine/host.js';
import { loadEngineBook } from '../src/node/engineBook.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';

const [bookFile, epd, n = '100', margin = '30', movetime = '300'] = process.argv.slice(2);
if (bookFile === undefined || epd === undefined) {
  process.stderr.write('usage: book-return-probe BOOK EXITS.epd [N] [MARGIN] [MOVETIME]\n');
  process.exit(2);
}
const fens = readFileSync(epd, 'utf8').trim().split('\n').slice(0, Number(n));
const host = new LocalHost(new Engine({ wasm: wasmCoreModule() }), loadEngineBook);
host.onError = (m) => process.stderr.write(`${m}\n`);
host.configure({ bookFile, bookReturn: true, bookReturnMargin: Number(margin) });
const plain = new LocalHost(new Engine({ wasm: wasmCoreModule() }), loadEngineBook);
plain.configure({ bookFile });
const counts = { played: 0, alreadyBest: 0, tooCostly: 0, none: 0 };
for (const f of fens) {
  const go = { fen: `${f.split(' ').slice(0, 4).join(' ')} 0 10`, moves: [], limits: { movetime: Number(movetime) } };
  host.go(go, () => {}, (b) => {
    const note = b.note ?? '';
    if (note.includes('would head')) counts.tooCostly++;
    else if (note.includes('BookReturn: playing')) {
      counts.played++;
      plain.go(go, () => {}, (p) => {
        if (p.best === b.best) counts.alreadyBest++;
      });
    } else counts.none++;
  });
}
process.stdout.write(JSON.stringify({ positions: fens.length, margin: Number(margin), ...counts }) + '\n');
