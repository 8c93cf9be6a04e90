/**
 * The test command's own check (scripts/test-verdicts.ts): the reporter records every test's
 * start and verdict with its file, and a start without a verdict, or a file with no result at
 * all, is found. Node's runner is run on small test files as the test command runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingVerdicts, slowest, type VerdictEvent } from '../scripts/test-verdicts.js';

const REPORTER = fileURLToPath(new URL('../scripts/test-verdicts.js', import.meta.url));

const FILE_A = `import { test } from 'node:test';
test('outer', async (t) => {
  await t.test('inner one', () => {});
  await t.test('inner # two', () => {});
});
test('same name', () => {});
test('same name', () => {});
test('skipped', { skip: 'not here' }, () => {});
`;
const FILE_B = `import { test } from 'node:test';
test('fails', () => { throw new Error('on purpose'); });
test('passes', () => {});
test('waits', () => new Promise((done) => setTimeout(done, 300)));
`;

function runRunner(files: string[], out: string): number {
  // A test run started from inside a test: without NODE_TEST_CONTEXT the child is a runner of its own.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=tap', '--test-reporter-destination=stdout',
    `--test-reporter=${REPORTER}`, `--test-reporter-destination=${out}`, ...files], { encoding: 'utf8', env });
  return r.status ?? -1;
}

test('the reporter pairs every start with its verdict, by file, nesting and name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-verdicts-'));
  try {
    const a = join(dir, 'a.test.mjs');
    const b = join(dir, 'b.test.mjs');
    writeFileSync(a, FILE_A);
    writeFileSync(b, FILE_B);
    const out = join(dir, 'verdicts.jsonl');
    assert.equal(runRunner([a, b], out), 1, 'b has a failing test');
    const text = readFileSync(out, 'utf8');
    const events = text.trim().split('\n').map((l) => JSON.parse(l) as VerdictEvent);
    const verdicts = (file: string, kind: string): string[] => events.filter((e) => e.file === file && e.kind === kind).map((e) => `${e.nesting}:${e.name}`).sort();
    assert.deepEqual(verdicts(a, 'pass'), ['0:outer', '0:same name', '0:same name', '0:skipped', '1:inner # two', '1:inner one']);
    assert.deepEqual(verdicts(b, 'fail'), ['0:fails']);
    assert.deepEqual(verdicts(b, 'pass'), ['0:passes', '0:waits']);
    // Every verdict carries its duration, and the run's summary of the slowest finds the test
    // that waits (a timer never fires early: its duration is at least the wait).
    assert.ok(events.every((e) => e.kind === 'start' || (Number.isInteger(e.ms) && e.ms! >= 0)), 'durations');
    const waits = events.find((e) => e.name === 'waits' && e.kind === 'pass')!;
    assert.ok(waits.ms! >= 290, `waits took ${waits.ms} ms`);
    const slow = slowest(text, 3);
    assert.equal(slow.tests.length, 3);
    assert.ok(slow.tests.every((t, i) => t.ms >= 0 && (i === 0 || t.ms <= slow.tests[i - 1]!.ms)), 'slowest first');
    assert.ok(slow.tests.some((t) => t.name === 'waits'), 'the slowest tests include the one that waits');
    assert.deepEqual(slow.files.map((f) => f.file).sort(), [a, b]);
    assert.deepEqual(missingVerdicts(text, [a, b]), { unfinished: [], silentFiles: [] });

    // A runner that loses the tail of a file's events (nodejs/node#64833): a test that started and
    // never got its verdict is named; a file that reported nothing is named.
    const lines = text.trim().split('\n');
    const passesOfA = lines.flatMap((l, i) => { const e = JSON.parse(l) as VerdictEvent; return e.file === a && e.kind === 'pass' && e.name === 'same name' ? [i] : []; });
    const cut = lines.filter((_, i) => i !== passesOfA.at(-1)).join('\n');
    const lost = missingVerdicts(cut, [a, b]);
    assert.deepEqual(lost.unfinished.map((e) => [e.file, e.name]), [[a, 'same name']]);
    assert.deepEqual(lost.silentFiles, []);
    const withoutB = lines.filter((l) => (JSON.parse(l) as VerdictEvent).file !== b).join('\n');
    assert.deepEqual(missingVerdicts(withoutB, [a, b]).silentFiles, [b]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('slowest: top-level tests by duration, and files by the sum of their top-level tests', () => {
  const line = (kind: string, file: string, nesting: number, name: string, ms?: number): string => JSON.stringify({ kind, file, nesting, name, ...(ms === undefined ? {} : { ms }) });
  const lines = [
    line('start', 'x', 0, 'slow'), line('start', 'x', 1, 'inner'), line('pass', 'x', 1, 'inner', 900), line('pass', 'x', 0, 'slow', 1000),
    line('start', 'x', 0, 'quick'), line('pass', 'x', 0, 'quick', 5),
    line('start', 'y', 0, 'middle'), line('fail', 'y', 0, 'middle', 700),
    line('start', 'y', 0, 'also'), line('pass', 'y', 0, 'also', 600),
  ].join('\n') + '\n';
  assert.deepEqual(slowest(lines, 2), {
    tests: [{ file: 'x', name: 'slow', ms: 1000 }, { file: 'y', name: 'middle', ms: 700 }],
    files: [{ file: 'y', ms: 1300 }, { file: 'x', ms: 1005 }],
  });
});
