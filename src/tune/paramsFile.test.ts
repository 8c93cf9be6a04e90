import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkParams } from './paramsFile.js';

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
