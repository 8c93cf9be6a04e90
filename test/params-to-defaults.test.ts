/**
 * scripts/params-to-defaults.ts, the step that makes a fit's weights the engine's defaults: the
 * current defaults, given back as a params file with their own provenance note, come out as the
 * very module they came from; a bad params file leaves the output as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULTS } from '../src/engine/evalDefaults.js';
import { formatParams } from '../src/tune/paramsFile.js';

const SCRIPT = fileURLToPath(new URL('../scripts/params-to-defaults.js', import.meta.url));
const SOURCE = fileURLToPath(new URL('../../src/engine/evalDefaults.ts', import.meta.url));

test('the defaults round-trip through a params file; a bad params file leaves the output untouched', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-defaults-'));
  try {
    const source = readFileSync(SOURCE, 'utf8');
    // The provenance note: the module comment's lines after the first, up to its end.
    const comment = source.slice(0, source.indexOf(' */'));
    const note = comment.split('\n').slice(2).map((l) => l.replace(/^ \* ?/, '')).join(' ').trim();
    const params = join(dir, 'params.json');
    writeFileSync(params, formatParams(DEFAULTS as Record<string, [number, number][]>));
    const out = join(dir, 'evalDefaults.ts');
    const ok = spawnSync(process.execPath, [SCRIPT, params, note, '-o', out], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(readFileSync(out, 'utf8'), source);
    assert.match(ok.stderr, /gen-wasm-tables/, 'it says how the engine gets the weights');

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"material": [[1, 2]');
    const r = spawnSync(process.execPath, [SCRIPT, bad, 'note', '-o', out], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /bad\.json.*left as it was/);
    assert.equal(readFileSync(out, 'utf8'), source, 'the output is as it was');
    assert.deepEqual(readdirSync(dir).sort(), ['bad.json', 'evalDefaults.ts', 'params.json'], 'no temporary file is left');
    const usage = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
