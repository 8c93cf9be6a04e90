import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyTable } from './keyTable.js';

test('KeyTable keeps a number per 64-bit key as a Map of the key text does, through growth and clearing', () => {
  const table = new KeyTable(4);
  const map = new Map<string, number>();
  // Keys that share a half, negative halves (the signed view of the top bit), and many more than the table first holds.
  let x = 0x12345678;
  const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) | 0);
  const keys: [number, number][] = [[0, 0], [-1, -1], [0x80000000 | 0, 1], [1, 0x80000000 | 0], [7, 0], [0, 7]];
  for (let i = 0; i < 5000; i++) keys.push([next(), i % 3 === 0 ? keys[i]![1] : next()]);
  keys.forEach(([hi, lo], i) => {
    table.set(hi, lo, i / 2);
    map.set(`${hi >>> 0}.${lo >>> 0}`, i / 2);
  });
  assert.equal(table.size, map.size);
  for (const [hi, lo] of keys) assert.equal(table.get(hi, lo), map.get(`${hi >>> 0}.${lo >>> 0}`));
  // The unsigned view of a half is the same key.
  assert.equal(table.get(0x80000000, 1), map.get(`${0x80000000}.1`));
  assert.equal(table.get(12345, 67890), undefined);
  table.set(-1, -1, 42);
  assert.equal(table.get(0xffffffff, 0xffffffff), 42);
  assert.equal(table.size, map.size);
  table.clear();
  assert.equal(table.size, 0);
  assert.equal(table.get(0, 0), undefined);
  table.set(0, 0, 3);
  assert.equal(table.get(0, 0), 3);
});
