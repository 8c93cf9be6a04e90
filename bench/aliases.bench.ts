/**
 * `npm run bench -- aliases [--runs R]`: do the module-local copies of imports in hot files
 * (`const X = X_;` after `import { X as X_ }`) pay? The compiled chess core (dist/src) is
 * copied twice into a temporary directory, once as it is and once with every such copy in
 * src/core removed (the code then reads the imported bindings), and perft (bulk and full, the
 * start position and Kiwipete) runs on both in alternation in this process. Prints the best
 * nodes/s of each and the ratio as-is / without copies: above 1, the copies pay.
 */
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchArgs } from './args.js';
import { removeTempDir, tempDir } from './cleanup.js';

const DIST_SRC = fileURLToPath(new URL('../src/', import.meta.url));
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/**
 * The JavaScript of a module with its local copies of imports removed: `const A = B_;`, where
 * `B_` is an import renamed from `B`, goes, and the code says `B` wherever it said `A`.
 */
export function withoutCopies(js: string): { js: string; removed: number } {
  const renamed = new Set<string>();
  for (const m of js.matchAll(/\b(\w+) as (\w+)_\b/g)) if (m[1] === m[2]) renamed.add(m[1]!);
  const names = new Map<string, string>();
  const kept = js.split('\n').filter((line) => {
    const m = /^const (\w+) = (\w+)_;$/.exec(line.trim());
    if (!m || !renamed.has(m[2]!)) return true;
    names.set(m[1]!, m[2]!);
    return false;
  });
  let out = kept.join('\n').replace(/\b(\w+) as \1_\b/g, '$1');
  for (const [local, imported] of names) if (local !== imported) out = out.replace(new RegExp(`(?<![.\\w])${local}\\b`, 'g'), imported);
  return { js: out, removed: names.size };
}

interface Core {
  perft(pos: unknown, depth: number, bulk: boolean): number;
  fromFen(fen: string): unknown;
}

async function load(root: string): Promise<Core> {
  const perft = (await import(pathToFileURL(join(root, 'core/perft.js')).href)) as { perft: Core['perft'] };
  const fen = (await import(pathToFileURL(join(root, 'notation/fen.js')).href)) as { positionFromFen(f: string): { ok: boolean; value: unknown } };
  return { perft: perft.perft, fromFen: (f) => fen.positionFromFen(f).value };
}

export async function main(args: string[]): Promise<void> {
  const { runs } = benchArgs('aliases', args, {
    usage: '[--runs R]',
    options: { runs: { kind: 'int', default: 5, min: 1, arg: 'R', help: 'runs of each case on each build; the best is kept' } },
  }).values;
  const dir = tempDir('tabiya-aliases-');
  try {
    const asIs = join(dir, 'as-is');
    const plain = join(dir, 'plain');
    cpSync(DIST_SRC, asIs, { recursive: true });
    cpSync(DIST_SRC, plain, { recursive: true });
    let removed = 0;
    for (const f of readdirSync(join(plain, 'core')).filter((n) => n.endsWith('.js'))) {
      const p = join(plain, 'core', f);
      const r = withoutCopies(readFileSync(p, 'utf8'));
      removed += r.removed;
      writeFileSync(p, r.js);
    }
    const cores = { 'as is': await load(asIs), 'without copies': await load(plain) };
    const cases: [string, string, number, boolean][] = [
      ['start, bulk, depth 5', START, 5, true],
      ['start, full, depth 4', START, 4, false],
      ['Kiwipete, bulk, depth 4', KIWIPETE, 4, true],
      ['Kiwipete, full, depth 3', KIWIPETE, 3, false],
    ];
    console.log(`src/core: ${removed} local copies of imports removed in the second build`);
    for (const [name, fen, depth, bulk] of cases) {
      const best: Record<string, number> = {};
      const counts = new Set<number>();
      for (let r = 0; r < runs; r++) {
        // Alternating which goes first, so that neither always runs on a cooler machine.
        const order = Object.entries(cores);
        if (r % 2 === 1) order.reverse();
        for (const [label, core] of order) {
          const pos = core.fromFen(fen);
          const t0 = performance.now();
          const n = core.perft(pos, depth, bulk);
          const nps = (n * 1000) / (performance.now() - t0);
          counts.add(n);
          best[label] = Math.max(best[label] ?? 0, nps);
        }
      }
      if (counts.size !== 1) throw new Error(`${name}: the two builds count different trees (${[...counts].join(', ')})`);
      const a = best['as is']!;
      const b = best['without copies']!;
      console.log(`${name}: as is ${(a / 1e6).toFixed(2)} M/s, without copies ${(b / 1e6).toFixed(2)} M/s, ratio ${(a / b).toFixed(3)} (best of ${runs})`);
    }
  } finally {
    removeTempDir(dir);
  }
}
