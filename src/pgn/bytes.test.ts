import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeTagValue, decodeText, glyphNag, isUtf8 } from './bytes.js';

const b = (...xs: number[]): Uint8Array => new Uint8Array(xs);
const enc = new TextEncoder();

test('decodeText: ASCII, UTF-8, and Windows-1252 for anything that is not UTF-8', () => {
  const cases: [Uint8Array, string][] = [
    [enc.encode('Kasparov, Garry'), 'Kasparov, Garry'],
    [enc.encode('Jönköping – Ελλάδα 🏆'), 'Jönköping – Ελλάδα 🏆'],
    [b(0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72), 'Müller'], // Latin-1
    [b(0x93, 0x41, 0x94, 0x20, 0x80, 0x20, 0x8a, 0x9f), '“A” € ŠŸ'], // Windows-1252 punctuation
    [b(0xc3), 'Ã'], // a lone UTF-8 lead byte
    [b(0xed, 0xa0, 0x80), 'í\u00a0€'], // an encoded surrogate is not UTF-8
    [b(0xc0, 0xaf), 'À¯'], // overlong
  ];
  for (const [bytes, want] of cases) assert.equal(decodeText(bytes, 0, bytes.length), want);
});

test('isUtf8 accepts exactly well-formed UTF-8', () => {
  assert.ok(isUtf8(enc.encode('aé€😀'), 0, 10));
  assert.ok(!isUtf8(b(0xe2, 0x82), 0, 2));
  assert.ok(!isUtf8(b(0xf4, 0x90, 0x80, 0x80), 0, 4)); // above U+10FFFF
});

test('tag values resolve \\" and \\\\ escapes', () => {
  const v = enc.encode('a \\"b\\" \\\\ c');
  assert.equal(decodeTagValue(v, 0, v.length), 'a "b" \\ c');
});

test('glyphs map to NAGs', () => {
  assert.deepEqual(['!', '?', '!!', '??', '!?', '?!', '+-', '-+', '=', '±', 'N', 'x'].map(glyphNag), [1, 2, 3, 4, 5, 6, 18, 19, 10, 16, 146, -1]);
});
