import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../core/result.js';
import { encodeMove } from '../book/polyglot/format.js';
import { PolyglotReader } from '../book/polyglot/reader.js';
import { encodeBook } from '../book/polyglot/writer.js';
import { defaultPolicy } from '../book/select/index.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import { parseUci } from '../notation/uci.js';
import type { RichMove } from '../book/rich/types.js';
import { polyglotSource, weightOnlyMove, type BookSource } from './bookProbe.js';
import { bookReport, formatBookReport } from './bookReport.js';

const START_KEY = '463b96181691fc9c';

test('a Polyglot book reports weights, most likely first, with the policy chances summing to 1', () => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  const mv = (u: string): number => encodeMove(unwrap(parseUci(pos, u)));
  const bytes = encodeBook([
    { key: START_KEY, move: mv('d2d4'), weight: 30 },
    { key: START_KEY, move: mv('e2e4'), weight: 60 },
    { key: START_KEY, move: mv('g1f3'), weight: 10 },
  ]);
  const source = polyglotSource(unwrap(PolyglotReader.from(bytes, 'test.bin')));
  const weighted = { ...defaultPolicy(), policy: 'polyglot-weighted' as const };
  const rows = bookReport(source, weighted, pos);
  assert.deepEqual(rows.map((r) => [r.san, r.weight, Math.round(r.probability * 100)]), [['e4', 60, 60], ['d4', 30, 30], ['Nf3', 10, 10]]);
  assert.deepEqual(formatBookReport(rows), ['e4   play  60.0%  weight 60', 'd4   play  30.0%  weight 30', 'Nf3  play  10.0%  weight 10']);
  const best = bookReport(source, { ...defaultPolicy(), policy: 'polyglot-best' }, pos);
  assert.deepEqual(best.map((r) => r.probability), [1, 0, 0]);
  pos.play(unwrap(parseUci(pos, 'a2a3')));
  assert.deepEqual(bookReport(source, weighted, pos), [], 'out of book');
});

test('a rich book marks forbidden moves and PostBook records, which the policy gives no chance', () => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  const mv = (u: string): number => unwrap(parseUci(pos, u));
  const moves: RichMove[] = [
    { ...weightOnlyMove({ move: mv('e2e4'), weight: 0 }), wins: 6, draws: 2, losses: 2 },
    { ...weightOnlyMove({ move: mv('f2f3'), weight: 0 }), wins: 9, draws: 0, losses: 1, forbidden: true },
    { ...weightOnlyMove({ move: mv('g1f3'), weight: 0 }), postBook: true, dynWins: 1, evalCp: 35 },
  ];
  const source: BookSource = { name: 'test.tbk', candidates: () => [], probe: () => moves };
  const rows = bookReport(source, { ...defaultPolicy(), policy: 'gnu-best' }, pos);
  assert.deepEqual(rows.map((r) => [r.san, r.probability, r.forbidden, r.postBook]), [['e4', 1, false, false], ['f3', 0, true, false], ['Nf3', 0, false, true]]);
  assert.deepEqual(formatBookReport(rows), [
    'e4   play   100%  10 games, 70.0% (+6 =2 -2)',
    'f3   play     0%  10 games, 90.0% (+9 =0 -1)  forbidden',
    'Nf3  play     0%  own 1 game 100%  PostBook +0.35',
  ]);
});
