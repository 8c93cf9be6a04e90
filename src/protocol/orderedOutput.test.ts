import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrderedOutput } from './orderedOutput.js';

test('lines wait behind a held place and go out, in order, when it is filled', () => {
  const out: string[] = [];
  const o = new OrderedOutput((l) => out.push(l));
  o.send('a');
  const first = o.hold();
  o.send('b');
  const second = o.hold();
  o.send('c');
  assert.deepEqual(out, ['a']);
  second('pong 2');
  assert.deepEqual(out, ['a'], 'the second place waits for the first');
  first('pong 1');
  assert.deepEqual(out, ['a', 'pong 1', 'b', 'pong 2', 'c']);
  o.send('d');
  assert.deepEqual(out.at(-1), 'd');
});
