import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkParams, readParamsFile } from './paramsFile.js';

test('a params file is checked: groups, sizes, numbers and each group\'s range, naming the pair', () => {
  const material = [[82, 94], [337, 281], [365, 297], [477, 512], [1025, 936]];
  assert.deepEqual(checkParams({ material }, 'p.json'), { material });
  const cases: [unknown, RegExp][] = [
    [[], /p\.json: expected a JSON object of parameter groups/],
    [{ materiel: material }, /unknown parameter group "materiel"/],
    [{ material: material.slice(1) }, /group "material" must have 5 \[mg, eg\] pairs/],
    [{ material: [[82, '94'], ...material.slice(1)] }, /group "material", pair 0: expected \[mg, eg\] numbers/],
    [{ material: [...material.slice(0, 4), [5000, 936]] }, /group "material", pair 4: 5000 is outside the group's range 0\.\.2000/],
    [{ tempo: [[-5, 10]] }, /group "tempo", pair 0: -5 is outside the group's range 0\.\.100/],
  ];
  for (const [json, message] of cases) assert.throws(() => checkParams(json, 'p.json'), message, JSON.stringify(json));
});

test('a file that is not JSON is named; binary data is said as such, without its bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-params-'));
  try {
    const bin = join(dir, 'book.bin');
    writeFileSync(bin, Buffer.from([0x12, 0x00, 0x7f, 0x01, 0x1b, 0x5b, 0x32, 0x4a, 0, 0, 0, 0]));
    assert.throws(() => readParamsFile(bin), (e: Error) => e.message === `${bin}: not a parameters file: binary data, not JSON text`);
    const text = join(dir, 'notes.json');
    writeFileSync(text, '{"params": [1, 2,');
    assert.throws(() => readParamsFile(text), (e: Error) => e.message.startsWith(`${text}: not valid JSON: `));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
