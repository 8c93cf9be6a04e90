import assert from 'node:assert/strict';
import { test } from 'node:test';
import { constants, crc32, gunzipSync, gzipSync } from 'node:zlib';
import { gunzipMembers } from './gunzip.js';

const A = Buffer.from(Array.from({ length: 4000 }, (_, i) => `[Event "a${i}"]\n\n1. e4 e5 ${i} *\n`).join('\n'));
const B = Buffer.from('[Event "b"]\n\n1. d4 d5 *\n');

/** `bytes` as chunks cut at `cuts` (offsets), as a stream would deliver them. */
async function* chunks(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const c of [...cuts.filter((x) => x > 0 && x < bytes.length).sort((x, y) => x - y), bytes.length]) {
    yield bytes.subarray(at, c);
    at = c;
  }
}

async function gunzip(bytes: Uint8Array, cuts: number[] = [], chunkSize = 1 << 14): Promise<{ out: Buffer; error?: string }> {
  const parts: Uint8Array[] = [];
  try {
    for await (const c of gunzipMembers(chunks(bytes, cuts), { bytes: 0, ended: false }, chunkSize)) parts.push(c);
  } catch (e) {
    return { out: Buffer.concat(parts), error: (e as Error).message };
  }
  return { out: Buffer.concat(parts) };
}

test('members one after another, however the input is cut into chunks (in a header, at a member end, in a trailer)', async () => {
  // A header with every optional field (FEXTRA, FNAME, FCOMMENT, FHCRC) as RFC 1952 §2.3.1 lays it out.
  const plainB = gzipSync(B);
  const fields = Buffer.from([0x1f, 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 3, 2, 0, 0xab, 0xcd, ...Buffer.from('b.pgn\0note\0')]);
  const hcrc = crc32(fields) & 0xffff;
  const extra = Buffer.concat([fields, Buffer.from([hcrc & 0xff, hcrc >> 8])]);
  const withFields = Buffer.concat([extra, plainB.subarray(10)]);
  const a = gzipSync(A, { level: 1 });
  const file = Buffer.concat([a, withFields, a]);
  const want = Buffer.concat([A, B, A]);
  const end = a.length;
  for (const cuts of [[], [end - 9], [end - 8], [end - 1], [end], [end + 1], [end + 5], [end + 20], [end + extra.length], [3, end, end + 2, file.length - 3]]) {
    const r = await gunzip(file, cuts);
    assert.equal(r.error, undefined, String(cuts));
    assert.ok(r.out.equals(want), String(cuts));
  }
  const byteByByte = await gunzip(withFields, Array.from({ length: withFields.length }, (_, i) => i));
  assert.ok(byteByByte.out.equals(B));
  assert.ok(gunzipSync(withFields).equals(B), 'zlib reads the hand-made header too');
  const badHcrc = Buffer.from(withFields);
  badHcrc[extra.length - 1] ^= 1;
  assert.match((await gunzip(badHcrc)).error ?? '', /^gzip: header crc mismatch/);
});

test('trailing garbage: every byte of the members before it, then an error with its offset', async () => {
  const a = gzipSync(A, { level: 1 });
  // Node's gunzip stream lost the output of its last write here (up to one output chunk).
  for (const junk of ['JUNK', 'x'.repeat(100), '\x1f\x8b\x09']) {
    for (const cuts of [[], [a.length], [a.length - 100]]) {
      const r = await gunzip(Buffer.concat([a, Buffer.from(junk, 'latin1')]), cuts, 1 << 16);
      assert.ok(r.out.equals(A), `${junk} ${cuts}: ${r.out.length} of ${A.length} bytes`);
      assert.match(r.error ?? '', new RegExp(`^gzip: not gzip data at offset ${a.length}, after the end of gzip member 1 \\(.+\\): trailing garbage or a damaged member, not read$`));
    }
  }
  // Zero padding at the end is skipped as gzip skips it; a member after it is not silently lost.
  assert.deepEqual(await gunzip(Buffer.concat([a, Buffer.alloc(700)])), { out: A });
  const padded = await gunzip(Buffer.concat([a, Buffer.alloc(700), gzipSync(B)]));
  assert.ok(padded.out.equals(A));
  assert.equal(padded.error, `gzip: more data at offset ${a.length + 700}, after zero padding that follows gzip member 1: not read`);
});

test('a cut or damaged member: what was decoded, then the error', async () => {
  const a = gzipSync(A, { level: 1 });
  for (const cut of [a.length - 1, a.length - 8, a.length - 9, 5]) {
    const r = await gunzip(a.subarray(0, cut));
    assert.match(r.error ?? '', /^gzip: (unexpected end of file|a header cut short) \((within the first|after all)/, String(cut));
  }
  const badCrc = Buffer.from(a);
  badCrc[a.length - 6] ^= 1;
  const r = await gunzip(badCrc);
  assert.ok(r.out.equals(A));
  assert.match(r.error ?? '', /^gzip: member 1: CRC-32 check failed/);
  const badLength = Buffer.from(a);
  badLength[a.length - 2] ^= 1;
  assert.match((await gunzip(badLength)).error ?? '', /^gzip: member 1: length check failed/);
  // A sync flush point inside the member, then the rest missing: the output up to the cut is all there.
  const flushed = gzipSync(A.subarray(0, 50_000), { finishFlush: constants.Z_SYNC_FLUSH });
  const cutFlushed = await gunzip(flushed);
  assert.ok(cutFlushed.out.equals(A.subarray(0, 50_000)));
  assert.match(cutFlushed.error ?? '', /^gzip: unexpected end of file/);
});
