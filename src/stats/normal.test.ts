import { test } from 'node:test';
import assert from 'node:assert/strict';
import { erf, erfc, normalCdf, normalQuantile, normalQuantileCutechess, Z95 } from './normal.js';

// Reference values from Abramowitz & Stegun table 7.1 and high-precision evaluations.
const ERF: [number, number][] = [
  [0, 0],
  [0.1, 0.1124629160182849],
  [0.5, 0.5204998778130465],
  [1, 0.8427007929497149],
  [2, 0.9953222650189527],
  [2.9, 0.9999589021219005],
  [3.5, 0.9999992569016276],
  [-1, -0.8427007929497149],
];
const ERFC_TAIL: [number, number][] = [
  [3, 2.209049699858544e-5],
  [4, 1.541725790028002e-8],
  [6, 2.151973671249892e-17],
  [10, 2.088487583762545e-45],
];

test('erf matches reference values to 1e-14', () => {
  for (const [x, y] of ERF) assert.ok(Math.abs(erf(x) - y) < 1e-14, `erf(${x}) = ${erf(x)}, expected ${y}`);
});

test('erfc keeps relative accuracy in the far tail', () => {
  for (const [x, y] of ERFC_TAIL) assert.ok(Math.abs(erfc(x) / y - 1) < 1e-12, `erfc(${x}) = ${erfc(x)}, expected ${y}`);
  assert.ok(Math.abs(erfc(-3) - (2 - 2.209049699858544e-5)) < 1e-15);
});

test('Φ and Φ⁻¹ are inverse and give the 95 % z', () => {
  assert.ok(Math.abs(normalQuantile(0.975) - Z95) < 1e-12);
  for (const p of [1e-10, 0.001, 0.02, 0.3, 0.5, 0.8, 0.99, 1 - 1e-9]) {
    const x = normalQuantile(p);
    assert.ok(Math.abs(normalCdf(x) / p - 1) < 1e-9, `Φ(Φ⁻¹(${p}))`);
  }
  assert.equal(normalQuantile(0), -Infinity);
  assert.equal(normalQuantile(1), Infinity);
  assert.ok(Number.isNaN(normalQuantile(2)));
});

test("cutechess's approximate quantile is the one its error bars use", () => {
  assert.ok(Math.abs(normalQuantileCutechess(0.975) - 1.957162) < 1e-6);
});
