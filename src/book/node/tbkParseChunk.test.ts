/**
 * The parse threads of a `.bin` build and of a sharded rich build (tbkParseWorker.ts) parse
 * chunk after chunk into one log: the plies, games and errors of every chunk are those of a
 * chunk parsed on its own, handed out as copies of the part used, and the 12 MiB worst-case log
 * is made once (again only for a larger chunk), not once a chunk (each such log was zeroed in full and held until collected).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseSplits } from '../rich/splits.js';
import { ChunkParser, parseChunk, type ParseSetup } from './tbkParseChunk.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));

/** The sample cut into chunks of about 128 KiB at game starts, as the builds cut their input (in 1 MiB). */
function chunks(): Uint8Array[] {
  const text = gunzipSync(readFileSync(SAMPLE_GZ));
  const out: Uint8Array[] = [];
  let from = 0;
  while (from < text.length) {
    let to = Math.min(text.length, from + (1 << 17));
    if (to < text.length) to = text.indexOf('\n\n[', to) + 2 || text.length;
    out.push(text.subarray(from, to));
    from = to;
  }
  return out;
}

test('chunks parsed one after another into one log give the plies, games and errors of each chunk parsed alone', () => {
  const setup: ParseSetup = { maxPly: 40, split: parseSplits('rating,month') };
  const all = chunks();
  assert.ok(all.length >= 8, `${all.length} chunks`);
  const parser = new ChunkParser(setup);
  let plies = 0;
  // A new log only for a chunk larger than every one before it.
  let largest = 0;
  let larger = 0;
  all.forEach((bytes, id) => {
    if (bytes.length > largest) [largest, larger] = [bytes.length, larger + 1];
    const req = { id, file: 'sample.pgn', bytes };
    const alone = parseChunk(setup, req);
    const r = parser.parse(req);
    assert.deepEqual(r.plies, alone.plies, `chunk ${id}: plies`);
    assert.deepEqual([r.records, r.codes, r.errors, r.games, r.positions, r.lastGame], [alone.records, alone.codes, alone.errors, alone.games, alone.positions, alone.lastGame], `chunk ${id}`);
    // A copy of the part used, not a view into the log that the next chunk overwrites.
    assert.equal(r.plies.buffer.byteLength, r.plies.byteLength);
    plies += r.positions;
  });
  assert.ok(plies > 50_000, `${plies} plies`);
  assert.ok(larger < all.length / 2, `${larger} of ${all.length} chunks larger than all before`);
  assert.equal(parser.logsMade, larger, 'one log, made again only for a larger chunk');
});
