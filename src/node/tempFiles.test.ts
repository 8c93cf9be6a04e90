import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { registerTemp, releaseTemp, removeLiveTemps, tempOwner, tempPathFor } from './tempFiles.js';

test('tempPathFor names a hidden file next to the target with the pid; tempOwner reads it back', () => {
  const p = tempPathFor('/books/main.bin');
  assert.match(p, new RegExp(`^/books/\\.main\\.bin\\.tabiya-${process.pid}-[0-9a-f]{8}\\.tmp$`));
  assert.equal(tempOwner('main.bin', basename(p)), process.pid);
  assert.notEqual(tempPathFor('/books/main.bin'), p);
});

test("tempOwner knows the earlier versions' names and nothing else", () => {
  assert.equal(tempOwner('x.tbk', '.x.tbk.4242.lx2a9k.tmp'), 4242);
  assert.equal(tempOwner('out.pgn', 'out.pgn.tmp-77'), 77);
  for (const name of ['.x.tbk.tmp', '.x.tbk.notes.tmp', '.x.tbk.tabiya-12-XYZ.tmp', '.y.tbk.tabiya-12-abcd.tmp', 'x.tbk', '.x.tbk.12.tmp', 'x.tbk.tmp-', '.x.tbk.tabiya-0-abcd.tmp']) {
    assert.equal(tempOwner('x.tbk', name), undefined, name);
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
