/**
 * The package's entry points as a user's project resolves them: every subpath of package.json's
 * "exports" has types under each of TypeScript's module resolutions (nodenext and bundler read
 * "exports"; the older node10 reads "typesVersions", which must name the same files), and
 * `tabiya/package.json` can be read, as tools that look up a package's version do.
 * TypeScript's own compiler is the oracle.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');

interface Pkg {
  version: string;
  exports: Record<string, string | { types?: string }>;
  typesVersions?: Record<string, Record<string, string[]>>;
}
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Pkg;

/** The subpaths with types ('.' is the package itself), and a name each module exports. */
const ENTRIES: [string, string][] = [['tabiya', 'Board'], ['tabiya/browser', 'Board'], ['tabiya/core', 'Position'], ['tabiya/notation', 'makeSan'], ['tabiya/engine', 'BrowserEngine']];

test('every exported subpath with types is listed here and resolves its types under node10, nodenext and bundler', () => {
  const typed = Object.entries(pkg.exports).filter(([, v]) => typeof v === 'object').map(([k]) => (k === '.' ? 'tabiya' : `tabiya/${k.slice(2)}`));
  assert.deepEqual(typed.sort(), ENTRIES.map(([e]) => e).sort(), 'the test covers every typed entry point');
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-resolve-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO, join(dir, 'node_modules/tabiya'), 'dir');
    writeFileSync(join(dir, 'use.ts'), ENTRIES.map(([e, name], i) => `import { ${name} as m${i} } from '${e}';\nexport const t${i}: typeof m${i} = m${i};\n`).join(''));
    for (const [module, resolution] of [['commonjs', 'node10'], ['nodenext', 'nodenext'], ['esnext', 'bundler']]) {
      const r = spawnSync(process.execPath, [TSC, '--noEmit', '--strict', '--skipLibCheck', '--types', 'node', '--typeRoots', join(REPO, 'node_modules/@types'),
        '--module', module!, '--moduleResolution', resolution!, '--target', 'es2022', join(dir, 'use.ts')], { cwd: dir, encoding: 'utf8' });
      assert.equal(r.status, 0, `moduleResolution ${resolution}: ${r.stdout}${r.stderr}`);
    }
    const require = createRequire(join(dir, 'use.js'));
    assert.equal((require('tabiya/package.json') as { version: string }).version, pkg.version);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// TypeScript 5.7 made the typed arrays generic over their buffer, and declarations it infers from
// `new Int32Array(n)` read `Int32Array<ArrayBuffer>`; TypeScript 5.6 and older reject that in a
// user's project that checks libraries (error TS2315, "Type 'Int32Array' is not generic", with
// skipLibCheck off, the default of `tsc` without a tsconfig). Declaring such exports with the plain
// type keeps the typings readable by TypeScript 5.0 (README.md, "The library"); the test above runs
// with --skipLibCheck and the repository's own TypeScript, so it cannot see this.
test('the shipped typings name no typed array with a buffer type argument, which TypeScript before 5.7 rejects', () => {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.d.ts') && !e.name.endsWith('.test.d.ts')) {
        readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
          if (/\b(?:Int8|Uint8|Uint8Clamped|Int16|Uint16|Int32|Uint32|Float32|Float64|BigInt64|BigUint64)Array</.test(line)) found.push(`${path.slice(REPO.length)}:${i + 1}: ${line.trim()}`);
        });
      }
    }
  };
  walk(join(REPO, 'dist/src'));
  assert.deepEqual(found, [], 'declare these with the plain typed-array type (`x: Int32Array = new Int32Array(n)`)');
});
