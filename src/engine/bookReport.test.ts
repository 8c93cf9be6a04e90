import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../core/result.js';
import { encodeMove } from '../book/polyglot/format.js';
import { PolyglotReader } from '../book/polyglot/reader.js';
import { encodeBook } from '../book/polyglot/writer.js';
import { defaultPolicy } from '../book/select/index.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import { parseUci } from '../notation/uci.js';
import { polyglotSource } from './bookProbe.js';
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
