import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditJournal, JournalError } from './auditJournal.js';
import type { PositionVerdict } from '../audit/verdict.js';

const verdict = (index: number): PositionVerdict => ({
  index,
  fen: `fen ${index}`,
  best: 'e2e4',
  bestScore: 30,
  bestLine: ['e2e4', 'e7e5'],
  depth: 10,
  nodes: 1000,
  moves: [{ uci: 'd2d4', score: 20, loss: 10, refutation: ['d7d5'], depth: 10, confirmed: false }],
});

/** How many positions a journal holds, opened and closed again. */
function held(path: string, fresh = false): number {
  const j = AuditJournal.open(path, { depth: 10 }, fresh);
  j.close();
  return j.done.size;
}

test('the journal keeps finished positions, drops a line cut short, refuses damage and another limit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-journal-'));
  try {
    const path = join(dir, 'book.audit');
    const j = AuditJournal.open(path, { depth: 10 });
    j.append('k1', verdict(0));
    j.append('k2', verdict(1));
    j.close();
    const whole = readFileSync(path, 'utf8');
    // A kill in the middle of a write: the last line has no end.
    appendFileSync(path, '{"key":"k3","fen":"fe');
    const again = AuditJournal.open(path, { depth: 10 });
    assert.deepEqual([...again.done.keys()], ['k1', 'k2']);
    assert.equal(again.done.get('k2')!.moves[0]!.refutation[0], 'd7d5');
    again.append('k3', verdict(2));
    again.close();
    assert.ok(readFileSync(path, 'utf8').startsWith(whole), 'the torn line is cut off before appending');
    assert.equal(held(path), 3);
    assert.throws(() => AuditJournal.open(path, { depth: 12 }), (e: Error) => e instanceof JournalError && /searched with --depth 10, not --depth 12/.test(e.message));
    assert.throws(() => AuditJournal.open(path, { nodes: 5000 }), /--depth 10, not --nodes 5000/);
    // A damaged line that is not the last one is an error naming it.
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = '{"key":"k2",';
    writeFileSync(path, lines.join('\n'));
    assert.throws(() => AuditJournal.open(path, { depth: 10 }), /book\.audit:3: damaged journal line/);
    // --fresh starts over.
    assert.equal(held(path, true), 0);
    assert.equal(readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file that is not a journal is refused, never overwritten; a directory is named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-journal-'));
  try {
    // One line without a newline: not a header cut short, so another file given by mistake.
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my repertoire notes: play the Najdorf');
    assert.throws(() => AuditJournal.open(notes, { depth: 10 }), (e: Error) => e instanceof JournalError && /notes\.txt:1: not a tabiya audit journal/.test(e.message));
    assert.equal(readFileSync(notes, 'utf8'), 'my repertoire notes: play the Najdorf');
    writeFileSync(notes, '{"a":1}');
    assert.throws(() => AuditJournal.open(notes, { depth: 10 }), /notes\.txt:1: not a tabiya audit journal/);
    // A header cut short by a kill starts over, as before.
    const torn = join(dir, 'torn.audit');
    writeFileSync(torn, '{"format":"tabiya-audit-jour');
    assert.equal(held(torn), 0);
    assert.match(readFileSync(torn, 'utf8'), /^\{"format":"tabiya-audit-journal","version":1,"limits":\{"depth":10\}\}\n$/);
    // A directory given as the journal: an error naming it.
    assert.throws(() => AuditJournal.open(dir, { depth: 10 }), (e: Error) => e instanceof JournalError && e.message.startsWith(`${dir}: cannot read the journal: `));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
