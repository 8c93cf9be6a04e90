/**
 * The test command's runner: every compiled `*.test.js` under dist/ whose TypeScript source still
 * exists, under Node's test runner, two files at a time. Listing the files (instead of handing
 * `node --test` the directory) keeps helper modules beside the tests from being run as tests, and
 * skips compiled tests left behind in dist/ after their source was deleted or renamed.
 *
 *   node dist/scripts/run-tests.js [extra node --test flags]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
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

const files = testFiles(DIST, []).sort();
if (files.length === 0) {
  console.error(`no compiled tests under ${DIST}: run "tsc -p ." first`);
  process.exit(1);
}
const run = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...process.argv.slice(2), ...files], { stdio: 'inherit' });
process.exit(run.status ?? 1);
