/**
 * A book written in two steps (src/book/node/tbkFile.ts, TwoStepTbkFile), as a threaded build
 * writes it while its threads replay the halving: the sections first, each at its place, the
 * late one and the superblock last. The bytes are those of the one-step writer, to a file and
 * to a pipe (which takes bytes in order only), and a late section of the wrong length is refused
 * with nothing left behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECTION, type BookFields } from '../src/book/rich/container.js';
import { TwoStepTbkFile, memorySection, writeTbkFile, type SectionSource } from '../src/book/node/tbkFile.js';

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-two-step-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const fields: BookFields = { flags: 0, games: 3, maxPly: 40, minGames: 0, learnedGames: 0, changes: 1, created: 1_700_000_000, modified: 1_700_000_000, splits: 0 };

/** Bytes that differ from section to section and from one write to the next (a pattern of `seed`). */
function bytes(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return b;
}

// Sections of odd lengths (so that padding falls between them), one of them over 4 MiB (written in pieces).
const sections = (): SectionSource[] => [
  memorySection(SECTION.META, new TextEncoder().encode('{"tool":"test"}')),
  memorySection(SECTION.FENS, new TextEncoder().encode('[]')),
  memorySection(SECTION.HALVED, bytes(1003, 1)),
  memorySection(SECTION.BLOCKS, bytes(77, 2)),
  memorySection(SECTION.POSITIONS, bytes((5 << 20) + 13, 3)),
  memorySection(SECTION.SINGLES, bytes(4099, 4)),
];

async function twoStep(path: string, halved: SectionSource): Promise<number> {
  const all = sections();
  const announced = { id: SECTION.HALVED, length: all[2]!.length, crc: 0, chunks: () => [] };
  const file = new TwoStepTbkFile(path, fields, all.map((s) => (s.id === SECTION.HALVED ? announced : s)), new Set([SECTION.HALVED]));
  try {
    await file.early();
    return file.finish([halved]);
  } catch (e) {
    file.abort();
    throw e;
  }
}

test('two steps write the bytes of one, to a file and through a pipe', async () => {
  const one = join(tmp, 'one.tbk');
  const length = writeTbkFile(one, fields, sections());
  const expected = readFileSync(one);
  assert.equal(expected.length, length);
  const two = join(tmp, 'two.tbk');
  assert.equal(await twoStep(two, sections()[2]!), length);
  assert.ok(readFileSync(two).equals(expected));
  // A named pipe cannot be written out of order: the book goes through it whole at the end.
  if (spawnSync('mkfifo', [join(tmp, 'pipe.tbk')]).status !== 0) return;
  const reader = spawn('sh', ['-c', `cat '${join(tmp, 'pipe.tbk')}' > '${join(tmp, 'piped')}'`]);
  const closed = new Promise((resolve) => reader.on('close', resolve));
  await twoStep(join(tmp, 'pipe.tbk'), sections()[2]!);
  await closed;
  assert.ok(readFileSync(join(tmp, 'piped')).equals(expected));
});

test('a late section of another length than announced is refused; the old book stays and no temporary is left', async () => {
  const path = join(tmp, 'kept.tbk');
  writeFileSync(path, 'the old book');
  await assert.rejects(twoStep(path, memorySection(SECTION.HALVED, bytes(1004, 1))), /book section 8 came late with 1004 bytes, not 1003/);
  assert.equal(readFileSync(path, 'utf8'), 'the old book');
  assert.deepEqual(readdirSync(tmp).filter((f) => f.includes('.tmp')), []);
  assert.ok(!existsSync(join(tmp, 'kept.tbk.tmp')));
});
