/**
 * The test command's runner: every compiled `*.test.js` under dist/ whose TypeScript source still
 * exists, under Node's test runner, two files at a time. Listing the files (instead of handing
 * `node --test` the directory) keeps helper modules beside the tests from being run as tests, and
 * skips compiled tests left behind in dist/ after their source was deleted or renamed.
 *
 *   node dist/scripts/run-tests.js [--match TEXT]... [--long] [extra node --test flags]
 *
 * --match keeps the files whose path contains one of the texts; --long gives the fuzz and
 * crash-safety tests their long budgets (`npm run fuzz`; see test/support/budget.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = join(ROOT, 'dist');

function testFiles(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (e.name.endsWith('.test.js') && existsSync(join(ROOT, relative(DIST, p)).replace(/\.js$/, '.ts'))) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
const matches: string[] = [];
let long = false;
const rest: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--match' && i + 1 < args.length) matches.push(args[++i]!);
  else if (args[i] === '--long') long = true;
  else rest.push(args[i]!);
}

const files = testFiles(DIST, [])
  .filter((f) => matches.length === 0 || matches.some((m) => relative(DIST, f).includes(m)))
  .sort();
if (files.length === 0) {
  console.error(matches.length > 0 ? `no compiled test under ${DIST} matches ${matches.join(', ')}` : `no compiled tests under ${DIST}: run "tsc -p ." first`);
  process.exit(1);
}
// Caches the tests make (reach indexes) go to a directory of their own, removed after the run.
const cache = mkdtempSync(join(tmpdir(), 'tabiya-test-cache-'));
const env = { ...process.env, TABIYA_CACHE_DIR: cache, ...(long ? { TABIYA_BUDGET: 'long' } : {}) };
// --test-force-exit: a file whose tests have all finished (passed, failed or timed out) ends
// even when something it started is still open (a server, a socket, a browser), so one hung
// close cannot hang the whole run (Node 20.14 and later; package.json asks for 20.19).
const run = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-force-exit', ...rest, ...files], { stdio: 'inherit', env });
rmSync(cache, { recursive: true, force: true });
process.exit(run.status ?? 1);
