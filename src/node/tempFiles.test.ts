import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { NAME_MAX, hostTag, registerTemp, releaseTemp, removeLiveTemps, sweepStaleTemps, tempOwner, tempOwnerGone, tempPathFor } from './tempFiles.js';

/** The pid of a process that has exited (so no longer alive). */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

test('tempPathFor names a hidden file next to the target with the pid and the machine; tempOwner reads them back', () => {
  const p = tempPathFor('/books/main.bin');
  const host = hostTag().replace(/[.]/g, '\\.');
  assert.match(p, new RegExp(`^/books/\\.main\\.bin\\.tabiya-${process.pid}@${host}-[0-9a-f]{8}\\.tmp$`));
  assert.deepEqual(tempOwner('main.bin', basename(p)), { pid: process.pid, host: hostTag() });
  assert.notEqual(tempPathFor('/books/main.bin'), p);
  // A host name with '-' and '.' (a cluster node's), which the random part never holds.
  assert.deepEqual(tempOwner('x.tbk', '.x.tbk.tabiya-4242@node-17.cluster-0badc0de.tmp'), { pid: 4242, host: 'node-17.cluster' });
});

test('a target name too long to go whole into its temporary name (a legal 250-byte name) gets a temporary name that fits, still its own', () => {
  const dead = deadPid();
  for (const base of [`${'n'.repeat(246)}.pgn`, `${'é'.repeat(125)}.pgn`]) {
    const p = tempPathFor(`/books/${base}`);
    assert.ok(Buffer.byteLength(basename(p)) <= NAME_MAX, `${Buffer.byteLength(basename(p))} bytes: ${basename(p)}`);
    assert.ok(basename(p).startsWith(`.${base.slice(0, 100)}`), 'recognisably the target\'s');
    assert.deepEqual(tempOwner(base, basename(p)), { pid: process.pid, host: hostTag() });
    // Another long name with the same first bytes is another target.
    assert.equal(tempOwner(`${base.slice(0, -4)}x.pgn`, basename(p)), undefined);
    assert.equal(tempOwner(base.slice(0, 100), basename(p)), undefined);
    // The sweep finds a dead writer's of this machine.
    const dir = mkdtempSync(join(tmpdir(), 'tabiya-temps-'));
    try {
      const left = basename(p).replace(`.tabiya-${process.pid}@`, `.tabiya-${dead}@`);
      writeFileSync(join(dir, left), 'partial');
      writeFileSync(join(dir, basename(p)), 'live');
      assert.deepEqual(sweepStaleTemps(join(dir, base)), [join(dir, left)]);
      assert.deepEqual(readdirSync(dir), [basename(p)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test("tempOwner knows the earlier versions' names, without a machine, and nothing else", () => {
  assert.deepEqual(tempOwner('x.tbk', '.x.tbk.tabiya-4242-0badc0de.tmp'), { pid: 4242 });
  assert.deepEqual(tempOwner('x.tbk', '.x.tbk.4242.lx2a9k.tmp'), { pid: 4242 });
  assert.deepEqual(tempOwner('out.pgn', 'out.pgn.tmp-77'), { pid: 77 });
  for (const name of ['.x.tbk.tmp', '.x.tbk.notes.tmp', '.x.tbk.tabiya-12-XYZ.tmp', '.y.tbk.tabiya-12-abcd.tmp', 'x.tbk', '.x.tbk.12.tmp', 'x.tbk.tmp-', '.x.tbk.tabiya-0-abcd.tmp', '.x.tbk.tabiya-12@-abcd.tmp', '.x.tbk.tabiya-12@a/b-abcd.tmp']) {
    assert.equal(tempOwner('x.tbk', name), undefined, name);
  }
});

test("a writer is judged gone only on its own machine: another machine's pid means nothing here", () => {
  const dead = deadPid();
  assert.equal(tempOwnerGone({ pid: dead, host: hostTag() }), true);
  assert.equal(tempOwnerGone({ pid: process.pid, host: hostTag() }), false);
  assert.equal(tempOwnerGone({ pid: dead, host: `not-${hostTag()}` }), false);
  // Names of earlier versions say no machine: judged by the pid, as they were.
  assert.equal(tempOwnerGone({ pid: dead }), true);
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-temps-'));
  try {
    const target = join(dir, 'out.bin');
    const swept = [`.out.bin.tabiya-${dead}@${hostTag()}-0badc0de.tmp`, `.out.bin.tabiya-${dead}-0badc0de.tmp`];
    const kept = [`.out.bin.tabiya-${dead}@not-${hostTag()}-0badc0de.tmp`, `.out.bin.tabiya-${process.pid}@${hostTag()}-0badc0de.tmp`];
    for (const f of [...swept, ...kept]) writeFileSync(join(dir, f), 'partial');
    assert.deepEqual(sweepStaleTemps(target).sort(), swept.map((f) => join(dir, f)).sort());
    assert.deepEqual(readdirSync(dir).sort(), [...kept].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('removeLiveTemps removes the files registered and not released, created before or after registration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-temps-'));
  try {
    const [a, b, c] = ['a', 'b', 'c'].map((f) => join(dir, f)) as [string, string, string];
    writeFileSync(a, 'x');
    registerTemp(a);
    registerTemp(b);
    writeFileSync(b, 'x');
    registerTemp(c);
    writeFileSync(c, 'x');
    releaseTemp(c);
    removeLiveTemps();
    assert.deepEqual([existsSync(a), existsSync(b), existsSync(c)], [false, false, true]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
