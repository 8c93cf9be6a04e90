import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixed, general } from './format.js';

test('%g with 3 significant digits, as cutechess prints LLR and bounds', () => {
  const rows: [number, string][] = [
    [0.539931, '0.54'],
    [-2.944439, '-2.94'],
    [2.52, '2.52'],
    [120.548, '121'],
    [12345, '1.23e+04'],
    [0.0000123, '1.23e-05'],
    [0.0001, '0.0001'],
    [0, '0'],
    [1, '1'],
    [NaN, 'nan'],
    [-Infinity, '-inf'],
  ];
  for (const [x, s] of rows) assert.equal(general(x, 3), s, String(x));
});

test('%.Nf with C names for non-finite values', () => {
  assert.equal(fixed(34.86, 1), '34.9');
  assert.equal(fixed(Infinity, 1), 'inf');
  assert.equal(fixed(NaN, 2), 'nan');
  assert.equal(fixed(-0.01, 1), '-0.0');
  assert.equal(fixed(0, 2), '0.00');
});
