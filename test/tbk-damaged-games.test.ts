/**
 * A `.tbk` whose stored move codes are wrong but whose checksums are right (a code written
 * wrong, or damage the checksums were recomputed over): every replay of the games checks each
 * move against the position, so the probe of a position seen in that game, the Polyglot export
 * and the halving replay stop with an error naming the book and the game, instead of turning
 * the wrong codes into wrong positions and moves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { openAnyRichBook } from '../src/book/node/openTbk.js';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { exportTbkToBin } from '../src/book/node/tbkExport.js';
import { SECTION, SLOT_SIZE, encodeSlot, readSuperblock, SUPERBLOCK } from '../src/book/rich/container.js';
import { codeAt, replayCodes } from '../src/book/rich/games.js';
import type { TbkBook } from '../src/book/rich/tbkBook.js';
import { Position } from '../src/core/position.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-damaged-games-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
process.env.SOURCE_DATE_EPOCH = '1700000000';

const open = (path: string): TbkBook => openAnyRichBook(path).v2!;

/** Sets code `i` of a game whose codes start at byte `o` (the inverse of codeAt). */
function setCode(b: Uint8Array, o: number, i: number, code: number): void {
  const p = o + ((i * 3) >>> 1);
  if ((i & 1) === 0) {
    b[p] = code >>> 4;
    b[p + 1] = (b[p + 1]! & 15) | ((code & 15) << 4);
  } else {
    b[p] = (b[p]! & 0xf0) | (code >>> 8);
    b[p + 1] = code & 0xff;
  }
}

const DAMAGED_GAME = 7;
const DAMAGED_PLY = 9;

/**
 * The first 40 games of the sample as a book, and a copy in which game 8 (number 7 from 0) has
 * its tenth move written backwards (to → from, never a legal move: the from square is empty or
 * holds an enemy piece), the moves section's CRC and the slot recomputed so that every
 * checksum passes. Returns both paths and a key the damaged game reaches after the damage.
 */
async function books(): Promise<{ good: string; bad: string; lateKey: [number, number] }> {
  const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n(?=\[Event )/);
  const pgn = join(tmp, 'forty.pgn');
  writeFileSync(pgn, games.slice(0, 40).join('\n'));
  const good = join(tmp, 'good.tbk');
  await buildTbk(good, { inputs: [pgn], tmpDir: tmp });
  const bytes = new Uint8Array(readFileSync(good));
  const book = open(good);
  const moves = book.section(SECTION.MOVES)!;
  const rec = book.games!.record(DAMAGED_GAME);
  const at = moves.offset + rec.movesOffset;
  // The game's own positions: a key well after the damaged ply.
  const pos = new Position();
  book.games!.setStart(DAMAGED_GAME, pos);
  let lateKey: [number, number] = [0, 0];
  replayCodes(pos, bytes, at, rec.codes, (p, _m, ply) => {
    if (ply === DAMAGED_PLY + 6) lateKey = [p.keyHi, p.keyLo];
    return ply < DAMAGED_PLY + 6;
  });
  const code = codeAt(bytes, at, DAMAGED_PLY);
  setCode(bytes, at, DAMAGED_PLY, ((code & 63) << 6) | (code >>> 6));
  // Right checksums: the section's, then the slot in force, rewritten over itself.
  const sb = readSuperblock(bytes.subarray(0, SUPERBLOCK), bytes.length, fastCrc32);
  assert.ok(typeof sb !== 'string');
  const section = sb.slot.sections.find((s) => s.id === SECTION.MOVES)!;
  section.crc = fastCrc32(bytes.subarray(section.offset, section.offset + section.length), 0) >>> 0;
  bytes.set(encodeSlot(sb.slot, fastCrc32), sb.which === 'A' ? 64 : 64 + SLOT_SIZE);
  const bad = join(tmp, 'bad.tbk');
  writeFileSync(bad, bytes);
  return { good, bad, lateKey };
}

const cli = (...args: string[]): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8' });

test('a game with a wrong move code and right checksums: probes, exports and the CLI name the book and the game', async () => {
  const { good, bad, lateKey } = await books();
  const damaged = open(bad);
  assert.ok(damaged.verify(fastCrc32).ok, 'every checksum of the damaged book passes');
  const says = new RegExp(`bad\\.tbk: game ${DAMAGED_GAME + 1}: move code [0-9a-f]{3} at ply ${DAMAGED_PLY + 1} is not a legal move there: the stored moves are damaged`);

  // The probe of a position seen only in that game replays it from its start.
  const intact = open(good);
  assert.equal(intact.singleGame(...lateKey), DAMAGED_GAME);
  assert.ok(intact.movesOf(...lateKey).length === 1, 'the intact book finds the position through its game');
  assert.throws(() => damaged.movesOf(...lateKey), says);

  // The Polyglot export of single games replays every game.
  await assert.rejects(exportTbkToBin(damaged, { minGame: 1, tmpDir: tmp }, () => {}), says);
  await exportTbkToBin(intact, { minGame: 1, tmpDir: tmp }, () => {});

  // The commands: exit 1, the error on stderr, no output file.
  const out = join(tmp, 'bad.bin');
  const exp = cli('book', 'export', bad, '-o', out, '--min-games', '1');
  assert.equal(exp.status, 1, String(exp.stderr));
  assert.match(String(exp.stderr), says);
  assert.equal(existsSync(out), false);
  const ok = cli('book', 'export', good, '-o', join(tmp, 'good.bin'), '--min-games', '1');
  assert.equal(ok.status, 0, String(ok.stderr));
});
