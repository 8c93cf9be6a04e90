/**
 * Compressed PGN (zstd, bzip2, gzip) read the same as plain, from files and stdin, whatever
 * their names; long-window zstd frames; damaged, truncated and unreadable inputs end with an
 * error naming the file; a missing decompressor program is a clear error.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { findProgram } from '../src/pgn/decompressProgram.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const LARGE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const ZSTD = findProgram('zstd');
const BZIP2 = findProgram('bzip2');
const plain = gunzipSync(readFileSync(SAMPLE_GZ));
const dir = mkdtempSync(join(tmpdir(), 'tabiya-compressed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Stats {
  games: number;
  errors: number;
  errorsByKind: Record<string, number>;
  plies: { total: number };
  firstErrors: { file: string; message: string }[];
}

function stats(files: string[], opts: { input?: Buffer; env?: NodeJS.ProcessEnv } = {}): { status: number | null; json?: Stats; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, 'pgn', 'stats', ...files, '--json', '--quiet'], { input: opts.input, env: opts.env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, json: r.stdout ? (JSON.parse(r.stdout) as Stats) : undefined, stderr: r.stderr };
}

/** Compresses with a program (`zstd -19 --long=31`, `bzip2`, …) reading stdin, as dumps are made. */
function compress(program: string, args: string[], data: Uint8Array): Buffer {
  const r = spawnSync(program, args, { input: data, maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr?.toString());
  return r.stdout;
}

const whole = stats([SAMPLE_GZ]).json!;

/** The games of the first 2 MB of the large collection's .gz (about 6.5 MB of PGN), whole games only. */
function largeHead(): Buffer {
  const fd = openSync(LARGE_GZ, 'r');
  const head = Buffer.alloc(2 << 20);
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const text = gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  return text.subarray(0, text.lastIndexOf('\n\n[Event ') + 1);
}

test('zstd and bzip2 files read as the gzip does: under any name, and from stdin', { skip: (!ZSTD || !BZIP2) && 'zstd or bzip2 not installed' }, () => {
  assert.equal(whole.games, 2000);
  const zst = join(dir, 'sample.pgn.zst');
  const bz2 = join(dir, 'sample.pgn.bz2');
  const disguised = join(dir, 'sample.pgn'); // zstd under a plain name
  writeFileSync(zst, compress(ZSTD!, ['-q', '-3', '-c'], plain));
  writeFileSync(bz2, compress(BZIP2!, ['-c'], plain));
  writeFileSync(disguised, readFileSync(zst));
  for (const file of [zst, bz2, disguised]) {
    const r = stats([file]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual([r.json!.games, r.json!.errors, r.json!.plies.total], [whole.games, 0, whole.plies.total], file);
  }
  for (const file of [zst, bz2]) {
    const r = stats(['-'], { input: readFileSync(file) });
    assert.deepEqual([r.json!.games, r.json!.plies.total], [whole.games, whole.plies.total], `stdin ${file}`);
  }
  // Several files, each in its own compression, one after another; concatenated frames.
  const r = stats([zst, SAMPLE_GZ, bz2]);
  assert.equal(r.json!.games, 3 * whole.games);
  const twice = join(dir, 'twice.pgn.zst');
  writeFileSync(twice, Buffer.concat([readFileSync(zst), readFileSync(zst)]));
  assert.equal(stats([twice]).json!.games, 2 * whole.games);
});

test('a frame with a 2 GiB window (zstd --long=31 on a stream), which zstd -dc refuses by default', { skip: !ZSTD && 'zstd not installed' }, () => {
  const file = join(dir, 'long.pgn.zst');
  writeFileSync(file, compress(ZSTD!, ['-q', '-19', '--long=31', '-c'], plain));
  assert.notEqual(spawnSync(ZSTD!, ['-dc', file], { maxBuffer: 1 << 30 }).status, 0, 'zstd without --long should refuse the frame');
  const r = stats([file]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual([r.json!.games, r.json!.errors], [whole.games, 0]);
});

test('truncated and damaged zstd, bzip2 and gzip: the games before the damage, then an error naming the file and the offset', { skip: (!ZSTD || !BZIP2) && 'zstd or bzip2 not installed' }, () => {
  // 6.5 MB of distinct games (the head of the large collection), so the damage falls well
  // inside the data and before what the reader has read ahead.
  const big = largeHead();
  const compressed: [string, Buffer][] = [
    ['zst', compress(ZSTD!, ['-q', '-3', '-c'], big)],
    ['bz2', compress(BZIP2!, ['-1', '-c'], big)],
    ['gz', readFileSync(SAMPLE_GZ)],
  ];
  for (const [ext, bytes] of compressed) {
    const cut = join(dir, `cut.pgn.${ext}`);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const damaged = join(dir, `damaged.pgn.${ext}`);
    const copy = Buffer.from(bytes);
    for (let i = 0; i < 64; i++) copy[Math.floor(bytes.length * 0.5) + i * 7] ^= 0x5a;
    writeFileSync(damaged, copy);
    for (const [file, where] of [
      [cut, /\(after all \d+ compressed bytes were read\)$/],
      [damaged, /\(within the first \d+ compressed bytes\)$|\(after all \d+ compressed bytes were read\)$/],
    ] as const) {
      const r = stats([file, SAMPLE_GZ]);
      // The counts are reported, and the run fails: a file that could not be read to its end.
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`tabiya: cannot read the rest of ${file}: (zstd|bzip2|gzip): `), file);
      const s = r.json!;
      // The next file is still read, after the games of this one up to its damage.
      const before = ext === 'gz' ? whole.games : big.length / 700;
      assert.ok(s.games > whole.games + 100 && s.games < whole.games + before, `${file}: ${s.games} games`);
      // Data decoded before a gzip or zstd checksum fails can give broken games; the break itself is one error.
      if (file === cut) assert.deepEqual(s.errorsByKind, { truncated: 1 }, file);
      assert.equal(s.errorsByKind.truncated, 1, file);
      const e = s.firstErrors.find((x) => x.message.startsWith('cannot read'))!;
      assert.equal(e.file, file);
      assert.match(e.message, new RegExp(`^cannot read the rest of ${file}: (zstd|bzip2|gzip): .+`), file);
      assert.match(e.message, where, file);
    }
  }
});

test('gzip members one after another; bytes after the last member: every game before them, then an error with their offset', () => {
  const gz = readFileSync(SAMPLE_GZ);
  const twice = join(dir, 'twice.pgn.gz'); // cat a.gz b.gz
  writeFileSync(twice, Buffer.concat([gz, gz]));
  assert.deepEqual([stats([twice]).json!.games, stats(['-'], { input: readFileSync(twice) }).json!.games], [2 * whole.games, 2 * whole.games]);
  // Zero padding at the end is skipped, as gzip -d skips it.
  const padded = join(dir, 'padded.pgn.gz');
  writeFileSync(padded, Buffer.concat([gz, Buffer.alloc(512)]));
  assert.deepEqual([stats([padded]).status, stats([padded]).json!.games], [0, whole.games]);
  // Node's gunzip lost the last ~100 games before the garbage, and stopped silently at a zero
  // byte, dropping the member after the padding.
  for (const [name, tail, message] of [
    ['junk', Buffer.from('JUNK\n'), `not gzip data at offset ${gz.length}, after the end of gzip member 1 \\(incorrect header check\\): trailing garbage or a damaged member, not read`],
    ['padded-member', Buffer.concat([Buffer.alloc(100), gz]), `more data at offset ${gz.length + 100}, after zero padding that follows gzip member 1: not read`],
  ] as const) {
    const file = join(dir, `${name}.pgn.gz`);
    writeFileSync(file, Buffer.concat([gz, tail]));
    for (const [args, input] of [
      [[file], undefined],
      [['-'], readFileSync(file)],
    ] as const) {
      const r = stats([...args], { input });
      assert.equal(r.status, 1, r.stderr);
      assert.deepEqual([r.json!.games, r.json!.plies.total, r.json!.errorsByKind], [whole.games, whole.plies.total, { truncated: 1 }], name);
      assert.match(r.stderr, new RegExp(`^tabiya: cannot read the rest of ${args[0]}: gzip: ${message}$`, 'm'), name);
    }
  }
});

test('bytes after the last bzip2 or zstd stream: every game before them, then an error', { skip: (!ZSTD || !BZIP2) && 'zstd or bzip2 not installed' }, () => {
  for (const [ext, bytes, message] of [
    // bzip2 itself exits 0 here, with only a warning on stderr: tabiya read on without a word.
    ['bz2', compress(BZIP2!, ['-c'], plain), 'bzip2: trailing garbage after EOF: not read'],
    ['zst', compress(ZSTD!, ['-q', '-c'], plain), 'zstd: unsupported format'],
  ] as const) {
    const file = join(dir, `junk.pgn.${ext}`);
    writeFileSync(file, Buffer.concat([bytes, bytes, Buffer.from('JUNK\n')]));
    const r = stats([file]);
    assert.equal(r.status, 1, r.stderr);
    assert.deepEqual([r.json!.games, r.json!.errorsByKind], [2 * whole.games, { truncated: 1 }], ext);
    assert.match(r.stderr, new RegExp(`^tabiya: cannot read the rest of ${file}: ${message} \\(after all ${2 * bytes.length + 5} compressed bytes were read\\)$`, 'm'));
  }
});

test('a missing zstd program is a clear error for files and stdin, before anything is read', { skip: !ZSTD && 'zstd not installed' }, () => {
  const file = join(dir, 'missing.pgn.zst');
  writeFileSync(file, compress(ZSTD!, ['-q', '-c'], plain.subarray(0, 20_000)));
  const env = { ...process.env, PATH: join(dir, 'no-programs-here') };
  for (const [args, input] of [
    [[SAMPLE_GZ, file], undefined],
    [['-'], readFileSync(file)],
  ] as const) {
    const r = stats([...args], { input, env });
    assert.equal(r.status, 1);
    assert.equal(r.json, undefined);
    const name = args.at(-1)!;
    assert.equal(r.stderr.trim(), `tabiya: ${name} is zstd-compressed; reading it needs the zstd program, which is not on PATH (Debian, Ubuntu: apt-get install zstd)`);
  }
});

test('a reader that stops early ends the decompressor (no hang, no process left)', { skip: !ZSTD && 'zstd not installed' }, () => {
  const file = join(dir, 'early.pgn.zst');
  writeFileSync(file, compress(ZSTD!, ['-q', '-1', '-c'], Buffer.concat(Array.from({ length: 20 }, () => plain))));
  const source = new URL('../src/pgn/nodeSource.js', import.meta.url).href;
  const script = `import { openPgnFile } from ${JSON.stringify(source)};
    for await (const chunk of openPgnFile(process.argv[1]).chunks) { process.stdout.write(String(chunk.length > 0)); break; }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.signal, null, 'the reader hung');
  assert.equal(r.stdout, 'true', r.stderr);
  assert.equal(r.status, 0, r.stderr);
});

test('book make reads zstd: the same book as from the gzip; none from a truncated zstd', { skip: !ZSTD && 'zstd not installed' }, () => {
  const zst = join(dir, 'book.pgn.zst');
  const bytes = compress(ZSTD!, ['-q', '-c'], plain);
  writeFileSync(zst, bytes);
  const books = [SAMPLE_GZ, zst].map((input, i) => {
    const out = join(dir, `book${i}.bin`);
    const r = spawnSync(process.execPath, [MAIN, 'book', 'make', input, '-o', out, '--quiet'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return readFileSync(out);
  });
  assert.ok(books[0]!.length > 10_000);
  assert.ok(books[0]!.equals(books[1]!));
  const cut = join(dir, 'cut-book.pgn.zst');
  writeFileSync(cut, bytes.subarray(0, bytes.length >> 1));
  const r = spawnSync(process.execPath, [MAIN, 'book', 'make', cut, '-o', join(dir, 'cut.bin'), '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, new RegExp(`${cut}: cannot read: zstd: premature end \\(after all ${bytes.length >> 1} compressed bytes were read\\)`));
  assert.equal(existsSync(join(dir, 'cut.bin')), false);
});
