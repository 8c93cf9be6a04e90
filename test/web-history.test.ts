/**
 * The page's edit history (src/web/history.ts): the requests that take an edit back restore
 * only the fields it changed, an added move is removed again, a removal is undone with the
 * move's notes, and a new edit ends what could be redone. The page itself is driven in
 * Chromium by serve-editor-browser.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EditHistory, noteEdit, placeLabel, removal } from '../src/web/history.js';

const target = { book: 'b', fen: 'f', play: 'e2e4', move: 'e7e5' };
const before = { userValue: 10, nag: 2, comment: 'old', forbidden: false };

test('a note edit: redo sends the patch, undo the old values of the patched fields only', () => {
  const e = noteEdit(target, { userValue: 50, comment: null }, before, false, 'x');
  assert.deepEqual(e.redo, { path: '/api/move', body: { ...target, userValue: 50, comment: null } });
  assert.deepEqual(e.undo, { path: '/api/move', body: { ...target, userValue: 10, comment: 'old' } });
});

test('an added move is removed by undo; a removal is undone with all its notes', () => {
  assert.deepEqual(noteEdit(target, { comment: 'new' }, before, true, 'x').undo, { path: '/api/move/remove', body: target });
  const r = removal(target, before, 'x');
  assert.deepEqual(r.redo, { path: '/api/move/remove', body: target });
  assert.deepEqual(r.undo, { path: '/api/move', body: { ...target, ...before } });
});

test('the history: undo and redo walk it; a new edit ends the redo list', () => {
  const h = new EditHistory();
  const a = removal(target, before, 'a');
  const b = removal(target, before, 'b');
  assert.equal(h.nextUndo(), undefined);
  h.record(a);
  h.record(b);
  assert.equal(h.nextUndo(), b);
  h.undid();
  assert.equal(h.nextUndo(), a);
  assert.equal(h.nextRedo(), b);
  h.redid();
  assert.equal(h.nextUndo(), b);
  h.undid();
  h.record(a);
  assert.equal(h.nextRedo(), undefined);
  assert.equal(h.nextUndo(), a);
});

test('where a move stands, with the move numbers of the start position', () => {
  assert.equal(placeLabel('e4', [], 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), 'e4 at the start');
  assert.equal(placeLabel('Nf3', ['e4', 'e5'], 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'), 'Nf3 after 1. e4 e5');
  assert.equal(placeLabel('Nd7', ['Be7', 'Qc2'], 'r1bqk2r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 12'), 'Nd7 after 12... Be7 13. Qc2');
});
