/**
 * What every command that writes a file does with its outputs (src/node/outputs.ts,
 * src/book/node/atomicWrite.ts, src/node/tempFiles.ts), as a user runs it: an output that is
 * one of the inputs is refused before anything is written, an existing file that holds
 * something else is kept unless --force, PGN is never appended to a book, temporary files are
 * tabiya's and are cleaned up on signals and after crashes, and a failed write (full disk,
 * directory, closed pipe) is an error naming the user's file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { closeSync, existsSync, linkSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { hostTag, tempPathFor } from '../src/node/tempFiles.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/engines/', import.meta.url));
const DEFAULT_GAMES = fileURLToPath(new URL('../../data/masters-2550.pgn.gz', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-outputs-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function tabiya(args: string[], opts: SpawnSyncOptions = {}): Run {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8', timeout: 60_000, ...opts });
  return { code: r.status, signal: r.signal, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

const at = (f: string): string => resolve(tmp, f);
const bytes = (f: string): Buffer => readFileSync(at(f));
/** tabiya's temporary files (and those of earlier versions) left in the directory. */
const temps = (dir = tmp): string[] => readdirSync(dir).filter((f) => /\.tmp$|\.tmp-\d+$/.test(f));

// The first 400 games of the sample, a book made from them, and a second book.
const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n\n(?=\[Event )/);
writeFileSync(at('in.pgn'), games.slice(0, 400).join('\n\n') + '\n');
writeFileSync(at('more.pgn'), games.slice(400, 600).join('\n\n') + '\n');
for (const [args, what] of [
  [['book', 'make', 'in.pgn', '-o', 'a.bin', '--quiet'], 'a.bin'],
  [['book', 'make', 'more.pgn', '-o', 'b.bin', '--quiet'], 'b.bin'],
  [['book', 'make', 'in.pgn', '-o', 'a.tbk', '--quiet'], 'a.tbk'],
  [['book', 'make', 'more.pgn', '-o', 'b.tbk', '--quiet'], 'b.tbk'],
] as const) {
  const r = tabiya([...args]);
  assert.equal(r.code, 0, `${what}: ${r.stderr}`);
}

test('an output that is one of the inputs (same name, symlink, hard link, stdin, stdout) is refused before anything is written', () => {
  symlinkSync('in.pgn', at('link.pgn'));
  linkSync(at('in.pgn'), at('hard.pgn'));
  symlinkSync('a.tbk', at('alias.bin'));
  linkSync(at('a.bin'), at('alias.tbk'));
  linkSync(at('a.tbk'), at('same.tbk'));
  symlinkSync(DEFAULT_GAMES, at('masters.link'));
  writeFileSync(at('pos.epd'), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 "1-0";\n');
  writeFileSync(at('params.json'), '{}\n');
  writeFileSync(at('openings.pgn'), games[0] + '\n');
  const instant = ['cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`];
  const cases: { args: string[]; keep: string; message: RegExp; stdin?: string; stdout?: string }[] = [
    { args: ['book', 'make', 'in.pgn', '-o', 'in.pgn'], keep: 'in.pgn', message: /^tabiya: in\.pgn is also an input: write to another file; nothing was written$/m },
    { args: ['book', 'make', 'in.pgn', '-o', 'link.pgn'], keep: 'in.pgn', message: /link\.pgn is the same file as the input in\.pgn/ },
    { args: ['book', 'make', 'link.pgn', '-o', 'hard.pgn'], keep: 'in.pgn', message: /hard\.pgn is the same file as the input link\.pgn/ },
    { args: ['book', 'make', 'hard.pgn', '-o', 'in.pgn.tbk'], keep: 'in.pgn', message: /^$/ },
    { args: ['pgn', 'clean', 'in.pgn', '-o', 'hard.pgn'], keep: 'in.pgn', message: /hard\.pgn is the same file as the input in\.pgn/ },
    { args: ['pgn', 'filter', '-', '-o', 'in.pgn', '--min-elo', '2000'], keep: 'in.pgn', stdin: 'in.pgn', message: /in\.pgn is the file on standard input/ },
    { args: ['pgn', 'clean', 'in.pgn', '-o', '-'], keep: 'in.pgn', stdout: 'in.pgn', message: /standard output is redirected into the input in\.pgn/ },
    { args: ['tune', 'data', 'in.pgn', '-o', 'link.pgn'], keep: 'in.pgn', message: /link\.pgn is the same file as the input in\.pgn/ },
    { args: ['tune', 'fit', 'pos.epd', '-o', 'pos.epd'], keep: 'pos.epd', message: /pos\.epd is also an input/ },
    { args: ['tune', 'fit', 'pos.epd', '--params', 'params.json', '-o', 'params.json'], keep: 'params.json', message: /params\.json is also an input/ },
    { args: ['tune', 'fit', 'pos.epd', '-o', 'fit.json', '--plot', 'fit.json'], keep: 'params.json', message: /fit\.json \(--plot\) and fit\.json \(-o\) are the same file/ },
    { args: ['book', 'export', 'a.tbk', '-o', 'alias.bin'], keep: 'a.tbk', message: /alias\.bin is the same file as the input a\.tbk/ },
    { args: ['book', 'import', 'a.bin', '-o', 'alias.tbk'], keep: 'a.bin', message: /alias\.tbk is the same file as the input a\.bin/ },
    { args: ['book', 'dump', 'a.bin', '--color', 'white', '-o', 'a.bin'], keep: 'a.bin', message: /a\.bin is also an input/ },
    { args: ['book', 'merge', 'a.bin', 'b.bin', '-o', 'a.bin'], keep: 'a.bin', message: /a\.bin is also an input: write to another file \(a merge adds counts/ },
    { args: ['book', 'merge', 'a.tbk', 'b.tbk', '-o', 'a.tbk'], keep: 'a.tbk', message: /a\.tbk is also an input: write to another file \(a merge adds counts/ },
    { args: ['book', 'merge', 'b.tbk', 'a.tbk', '-o', 'same.tbk'], keep: 'a.tbk', message: /same\.tbk is the same file as the input a\.tbk/ },
    { args: ['demo', '-o', 'masters.link', '--quiet'], keep: DEFAULT_GAMES, message: /masters\.link is the same file as the input .*masters-2550\.pgn\.gz/ },
    { args: ['book', 'add', 'a.tbk', '-'], keep: 'a.tbk', stdin: 'a.tbk', message: /a\.tbk is the file on standard input/ },
    // Text outputs are not compressed: a compressed file's name is refused rather than given to plain text.
    { args: ['tune', 'data', 'in.pgn', '-o', 'pos.epd.gz'], keep: 'in.pgn', message: /^tabiya: pos\.epd\.gz: the output is plain text, not \.gz: give a name without \.gz/m },
    { args: ['pgn', 'filter', 'in.pgn', '-o', 'games.pgn.zst'], keep: 'in.pgn', message: /^tabiya: games\.pgn\.zst: the output is plain text, not \.zst/m },
    // A Polyglot book is binary: a text format's name is refused (book export once wrote x.pgn as a
    // .bin; -o X.pgn is now the book's tree as PGN).
    { args: ['book', 'export', 'a.tbk', '-o', 'book.epd'], keep: 'a.tbk', message: /^tabiya: book\.epd: the output is a Polyglot book \(binary\), not \.epd: give a name ending in \.bin/m },
    { args: ['book', 'make', 'in.pgn', '-o', 'book.JSON'], keep: 'in.pgn', message: /^tabiya: book\.JSON: the output is a Polyglot book \(binary\), not \.json/m },
    { args: ['book', 'merge', 'a.bin', 'b.bin', '-o', 'book.epd'], keep: 'a.bin', message: /^tabiya: book\.epd: the output is a Polyglot book \(binary\), not \.epd/m },
    { args: ['book', 'learn', 'a.tbk', 'in.pgn', '-', '--player', 'Duda,J'], keep: 'a.tbk', stdin: 'same.tbk', message: /a\.tbk is the file on standard input/ },
    { args: ['book', 'annotate', 'same.tbk', '-'], keep: 'a.tbk', stdin: 'a.tbk', message: /same\.tbk is the file on standard input/ },
    {
      args: ['match', '--engine', 'name=A', ...instant, '--engine', 'name=B', ...instant, '--each', 'tc=1+0.01', '--games', '2', '--openings', 'file=openings.pgn', '--pgnout', 'openings.pgn'],
      keep: 'openings.pgn',
      message: /openings\.pgn is also an input/,
    },
  ];
  for (const c of cases) {
    const before = bytes(c.keep);
    const stdin = c.stdin === undefined ? 'pipe' : openSync(at(c.stdin), 'r');
    const stdout = c.stdout === undefined ? 'pipe' : openSync(at(c.stdout), 'a');
    const r = tabiya(c.args, { stdio: [stdin, stdout, 'pipe'] });
    for (const fd of [stdin, stdout]) if (typeof fd === 'number') closeSync(fd);
    const what = c.args.join(' ');
    if (c.message.source === '^$') {
      // A control case: a new output next to a linked input is written as usual.
      assert.equal(r.code, 0, `${what}: ${r.stderr}`);
    } else {
      assert.equal(r.code, 1, `${what}: exit ${r.code}, ${r.stderr}`);
      assert.match(r.stderr, c.message, what);
    }
    assert.ok(bytes(c.keep).equals(before), `${what}: ${c.keep} is unchanged`);
    assert.deepEqual(temps(), [], what);
  }
  assert.ok(!existsSync(at('fit.json')));
  assert.ok(!existsSync(at('pos.epd.gz')) && !existsSync(at('games.pgn.zst')));
  assert.ok(!existsSync(at('book.pgn')) && !existsSync(at('book.JSON')) && !existsSync(at('book.epd')));
  assert.ok(!existsSync(at('openings.pgn.journal')), 'the match never started');
});

test('book make over a .tbk holding user values or learning is refused unless --force; the message says what would be lost', () => {
  const r0 = tabiya(['book', 'make', 'in.pgn', '-o', 'w.tbk', '--quiet']);
  assert.equal(r0.code, 0, r0.stderr);
  // A book of game counts alone is rebuilt from games as before.
  let r = tabiya(['book', 'make', 'more.pgn', '-o', 'w.tbk', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  for (const [m, v] of [['e4', '100'], ['d4', '?']]) assert.equal(tabiya(['book', 'set', 'w.tbk', '--move', m, '--value', v]).code, 0);
  r = tabiya(['book', 'learn', 'w.tbk', 'in.pgn', '--player', 'Duda,J', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const learned = (JSON.parse(r.stdout) as { gamesLearned: number }).gamesLearned;
  assert.ok(learned > 0);
  const before = bytes('w.tbk');
  r = tabiya(['book', 'make', 'in.pgn', '-o', 'w.tbk', '--quiet']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`^tabiya: w\\.tbk holds 2 user values and learning from ${learned} games \\(\\d+ moves with learned results, \\d+ PostBook records\\), which would be lost; use tabiya book add w\\.tbk to count more games into it, or give --force to replace it$`, 'm'),
  );
  assert.ok(bytes('w.tbk').equals(before));
  // merge and import would lose them as well.
  for (const args of [['book', 'merge', 'a.tbk', 'b.tbk', '-o', 'w.tbk'], ['book', 'import', 'a.bin', '-o', 'w.tbk']]) {
    r = tabiya(args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /w\.tbk holds 2 user values and learning/);
    assert.ok(bytes('w.tbk').equals(before));
  }
  r = tabiya(['book', 'make', 'in.pgn', '-o', 'w.tbk', '--quiet', '--force']);
  assert.equal(r.code, 0, r.stderr);
  r = tabiya(['book', 'info', 'w.tbk', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const info = JSON.parse(r.stdout) as { movesWithUserValue: number; learnedGames: number };
  assert.deepEqual([info.movesWithUserValue, info.learnedGames], [0, 0]);
  assert.deepEqual(temps(), []);
});

test('an output over a file of another kind is refused unless --force', () => {
  writeFileSync(at('notes.bin'), 'my notes, not a book\n');
  writeFileSync(at('notes.tbk'), 'my notes, not a book either\n');
  writeFileSync(at('games.book'), bytes('in.pgn'));
  const cases: [string[], string, RegExp][] = [
    [['book', 'make', 'in.pgn', '-o', 'notes.bin', '--quiet'], 'notes.bin', /notes\.bin exists and is not a Polyglot book \(it looks like text\); give --force to replace it/],
    [['book', 'make', 'in.pgn', '-o', 'notes.tbk', '--quiet'], 'notes.tbk', /notes\.tbk exists and is not a \.tbk book \(it looks like text\); give --force/],
    [['book', 'merge', 'a.bin', 'b.bin', '-o', 'games.book'], 'games.book', /games\.book exists and is not a Polyglot book \(it looks like PGN text\)/],
    [['book', 'export', 'a.tbk', '-o', 'b.tbk.bin'], 'b.tbk', /^$/],
    [['pgn', 'clean', 'more.pgn', '-o', 'a.bin'], 'a.bin', /a\.bin exists and holds binary data, not text; give --force/],
    [['pgn', 'filter', 'more.pgn', '-o', 'a.tbk', '--min-elo', '2000'], 'a.tbk', /a\.tbk exists and holds a \.tbk book, not text/],
    [['tune', 'data', 'more.pgn', '-o', 'b.bin', '--quiet'], 'b.bin', /b\.bin exists and holds binary data, not text/],
  ];
  for (const [args, keep, message] of cases) {
    const before = bytes(keep);
    const r = tabiya(args);
    const what = args.join(' ');
    if (message.source === '^$') {
      assert.equal(r.code, 0, `${what}: ${r.stderr}`);
      continue;
    }
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.match(r.stderr, message, what);
    assert.ok(bytes(keep).equals(before), `${what}: ${keep} is unchanged`);
  }
  const r = tabiya(['book', 'make', 'in.pgn', '-o', 'notes.bin', '--quiet', '--force']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(bytes('notes.bin').equals(bytes('a.bin')));
  assert.deepEqual(temps(), []);
});

test('PGN is never appended to a book or to a file that is not PGN (match and tune verify --pgnout)', () => {
  writeFileSync(at('games.pgn'), bytes('a.bin'));
  writeFileSync(at('suite.epd'), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "e4";\n');
  const instant = ['cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`];
  const match = (pgnout: string): string[] => ['match', '--engine', 'name=A', ...instant, '--engine', 'name=B', ...instant, '--each', 'tc=1+0.01', '--games', '2', '--pgnout', pgnout, '--json'];
  const cases: [string[], string, RegExp][] = [
    [match('a.bin'), 'a.bin', /a\.bin: PGN is not written into a \.bin file \(a book or an archive\)/],
    [match('new.tbk'), '', /new\.tbk: PGN is not written into a \.tbk file/],
    [match('games.pgn'), 'games.pgn', /games\.pgn exists and is not PGN \(it looks like binary data\)/],
    [match('suite.epd'), 'suite.epd', /suite\.epd exists and is not PGN \(it looks like text\)/],
    [['tune', 'verify', 'params.json', '--openings', 'suite.epd', '--pgnout', 'b.tbk', '--games', '2', '--nodes', '100'], 'b.tbk', /b\.tbk: PGN is not written into a \.tbk file/],
    [['tune', 'verify', 'params.json', '--openings', 'suite.epd', '--pgnout', 'suite.epd', '--games', '2', '--nodes', '100'], 'suite.epd', /suite\.epd is also an input/],
  ];
  for (const [args, keep, message] of cases) {
    const before = keep === '' ? undefined : bytes(keep);
    const r = tabiya(args, { timeout: 30_000 });
    const what = args.join(' ');
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.match(r.stderr, message, what);
    if (before !== undefined) assert.ok(bytes(keep).equals(before), `${what}: ${keep} is unchanged`);
  }
  assert.ok(!existsSync(at('new.tbk')));
  assert.deepEqual(readdirSync(tmp).filter((f) => f.endsWith('.journal')), []);
  // A PGN file is appended to as before.
  writeFileSync(at('played.pgn'), games[0] + '\n\n');
  const r = tabiya(match('played.pgn'), { timeout: 30_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(bytes('played.pgn').toString().startsWith(games[0]!));
  assert.equal(bytes('played.pgn').toString().match(/^\[Event /gm)?.length, 3);
});

/** The pid of a process that has exited (so no longer alive). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test("temporary files are named as tabiya's; a dead writer's of this machine are removed by the next write to the same target, others are left", () => {
  const dead = deadPid();
  const here = hostTag();
  const stale = [`.out.pgn.tabiya-${dead}@${here}-0badc0de.tmp`, `.out.pgn.tabiya-${dead}-0badc0de.tmp`, `.out.pgn.${dead}.lx2a9k.tmp`, `out.pgn.tmp-${dead}`, `.out.bin.tabiya-${dead}@${here}-12345678.tmp`, `.out.bin.tabiya-${dead}-12345678.tmp`];
  // Another machine's (a file system several share): its writer may be alive there, whatever
  // the pid means here.
  const kept = [`.out.pgn.tabiya-${process.pid}@${here}-0badc0de.tmp`, `.out.pgn.tabiya-${process.pid}-0badc0de.tmp`, `.other.pgn.tabiya-${dead}@${here}-0badc0de.tmp`, `.out.pgn.notes.tmp`, `.out.pgn.tabiya-${dead}@other-node.cluster-0badc0de.tmp`, `.out.bin.tabiya-${dead}@other-node-12345678.tmp`];
  for (const f of [...stale, ...kept]) writeFileSync(at(f), 'partial output\n');
  let r = tabiya(['pgn', 'clean', 'more.pgn', '-o', 'out.pgn', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  r = tabiya(['book', 'make', 'more.pgn', '-o', 'out.bin', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(temps().sort(), [...kept].sort());
  for (const f of kept) rmSync(at(f));
});

test('an output with a long legal name (250 and 252 bytes; file systems allow 255) is written: its temporary name and its lock fit', () => {
  const dir = join(tmp, 'long');
  mkdirSync(dir);
  const long = (ext: string, bytes = 250): string => join(dir, `${'n'.repeat(bytes - ext.length)}${ext}`);
  const runs: [string[], string][] = [
    [['pgn', 'clean', 'more.pgn', '-o', long('.pgn')], long('.pgn')],
    [['book', 'make', 'more.pgn', '-o', long('.bin')], long('.bin')],
    [['book', 'merge', 'a.bin', 'b.bin', '-o', long('m.bin')], long('m.bin')],
    [['book', 'make', 'more.pgn', '-o', long('.tbk', 252)], long('.tbk', 252)],
    // Changed in place under its lock: BOOK.lock would be 257 bytes.
    [['book', 'add', long('.tbk', 252), 'in.pgn'], long('.tbk', 252)],
    [['book', 'export', long('.tbk', 252), '-o', long('x.bin')], long('x.bin')],
  ];
  try {
    for (const [args, out] of runs) {
      const r = tabiya([...args, '--quiet']);
      assert.equal(r.code, 0, `${args.slice(0, 2).join(' ')}: ${r.stderr}`);
      assert.ok(existsSync(out), args.join(' '));
      assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('.') || f.endsWith('.lock')), [], args.slice(0, 2).join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Another machine, as far as process ids and the host name go: new pid and UTS namespaces (root only). */
const otherMachine = ((): string | false => {
  if (process.getuid?.() !== 0) return 'needs root, for unshare(1) to make a pid and a UTS namespace';
  const r = spawnSync('unshare', ['-p', '-u', '-f', '--mount-proc', 'true'], { encoding: 'utf8' });
  return r.status === 0 ? false : `unshare(1) cannot make namespaces here: ${r.error?.message ?? r.stderr.trim()}`;
})();

test("a write on another machine sharing the directory leaves the temporary file of a live writer here alone", { skip: otherMachine }, () => {
  const shared = join(tmp, 'shared');
  mkdirSync(shared);
  writeFileSync(at('few.pgn'), games.slice(0, 20).join('\n\n') + '\n');
  // A writer here, alive (this process), in the middle of writing shared/out.bin.
  const live = tempPathFor(join(shared, 'out.bin'));
  writeFileSync(live, 'being written here');
  // A dead writer of this machine: left by the other machine, which cannot tell it dead.
  const dead = join(shared, `.out.bin.tabiya-${deadPid()}@${hostTag()}-0badc0de.tmp`);
  writeFileSync(dead, 'torn');
  try {
    // Another node of the cluster, where this process's id means nothing (or another process).
    const script = `hostname other-node && exec "${process.execPath}" "${MAIN}" book make few.pgn -o shared/out.bin --quiet`;
    const r = spawnSync('unshare', ['-p', '-u', '-f', '--mount-proc', 'sh', '-c', script], { cwd: tmp, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(live), `the other machine's write removed ${live}, which a live writer on this machine is writing`);
    assert.ok(existsSync(dead), "the other machine's write removed this machine's leftover, which it cannot tell dead");
    // The next write here removes this machine's dead writer's leftover, not the live one.
    assert.equal(tabiya(['book', 'make', 'few.pgn', '-o', 'shared/out.bin', '--quiet', '--force']).code, 0);
    assert.ok(!existsSync(dead), 'the leftover of a dead writer of this machine is removed');
    assert.ok(existsSync(live));
  } finally {
    rmSync(shared, { recursive: true, force: true });
  }
});

test('SIGINT, SIGTERM and SIGHUP remove the temporary file and end the run with the signal (exit status 128 + n)', async () => {
  writeFileSync(at('old.pgn'), games[5] + '\n');
  const old = bytes('old.pgn');
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // Input from a pipe that stays open: the output's temporary file is live until the signal.
    const child = spawn(process.execPath, [MAIN, 'pgn', 'clean', '-', '-o', 'old.pgn', '--quiet'], { cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.write(games.slice(0, 50).join('\n\n') + '\n\n');
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
    const name = new RegExp(`^\\.old\\.pgn\\.tabiya-${child.pid}@${hostTag().replace(/[.]/g, '\\.')}-[0-9a-f]{8}\\.tmp$`);
    try {
      // The listing that saw the file is the one asserted on (one listing, not a second one).
      let seen: string[] = [];
      for (let i = 0; i < 500; i++) {
        seen = readdirSync(tmp);
        if (seen.some((f) => name.test(f))) break;
        await new Promise((w) => setTimeout(w, 20));
      }
      assert.ok(seen.some((f) => name.test(f)), `${sig}: a temporary file named .old.pgn.tabiya-${child.pid}@${hostTag()}-XXXXXXXX.tmp while writing (${seen.join(' ')})`);
      child.kill(sig);
      const end = await exited;
      assert.deepEqual(end, { code: null, signal: sig }, `${sig}: ${stderr}`);
      assert.deepEqual(temps(), [], sig);
      assert.ok(bytes('old.pgn').equals(old), `${sig}: the old file is intact`);
    } finally {
      // A failure above leaves no writer running, nor its file, to mislead the tests after it.
      child.stdin.destroy();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
        for (const f of readdirSync(tmp)) if (name.test(f)) rmSync(join(tmp, f), { force: true });
      }
    }
  }
});

test("a signal handled before a worker's report of its file reaches the main thread still removes the file (book lock, build scratch directory)", async () => {
  // A book job's worker reports its temporaries to the main thread, which alone sees signals.
  // Here the main thread is held (as by any work on its event loop) until the worker has made
  // its file, and the signal's handler runs before the report is delivered: the order the
  // event loop may take when both are pending. The job's input is a pipe that stays open.
  const src = fileURLToPath(new URL('../src/', import.meta.url));
  const script = `
    const [mode, dir] = process.argv.slice(2);
    const { runBookJob } = await import(${JSON.stringify(join(src, 'book/node/bookJob.js'))});
    const { checkOutputs } = await import(${JSON.stringify(join(src, 'node/outputs.js'))});
    const { readdirSync } = await import('node:fs');
    const book = dir + '/held.tbk';
    const out = dir + '/scratch.tbk';
    checkOutputs([mode === 'add' ? { path: book, kind: 'tbk', mode: 'update' } : { path: out, kind: 'tbk' }], ['-']);
    const job = mode === 'add' ? { kind: 'add', path: book, opts: { inputs: ['-'] } } : { kind: 'build', output: out, opts: { inputs: ['-'], tmpDir: dir } };
    runBookJob(job).catch(() => {});
    const made = () => readdirSync(dir).filter((f) => f.endsWith('.lock') || f.startsWith('tabiya-build-'));
    const sleep = new Int32Array(new SharedArrayBuffer(4));
    for (let i = 0; i < 3000 && made().length === 0; i++) Atomics.wait(sleep, 0, 0, 10);
    process.stdout.write(made().join(' '));
    process.emit('SIGTERM', 'SIGTERM');
  `;
  const dir = join(tmp, 'held');
  mkdirSync(dir);
  // A file, not --input-type=module -e: the worker threads would inherit that flag and fail.
  const fixture = join(tmp, 'held-fixture.mjs');
  writeFileSync(fixture, script);
  try {
    writeFileSync(join(dir, 'held.tbk'), bytes('a.tbk'));
    for (const [mode, file] of [['add', /^held\.tbk\.lock$/], ['build', /^tabiya-build-\d+@/]] as const) {
      const child = spawn(process.execPath, [fixture, mode, dir], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const signal = await new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, sig) => done(sig)));
      child.stdin.destroy();
      assert.match(stdout, file, `${mode}: the worker made its file before the signal (${stderr})`);
      assert.equal(signal, 'SIGTERM', `${mode}: ${stderr}`);
      assert.deepEqual(readdirSync(dir), ['held.tbk'], `${mode}: nothing left`);
    }
    assert.ok(readFileSync(join(dir, 'held.tbk')).equals(bytes('a.tbk')), 'the book as it was');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(fixture, { force: true });
  }
});

test('a signal during a book change removes its lock and leaves the book as it was', async () => {
  writeFileSync(at('locked.tbk'), bytes('a.tbk'));
  // book add holds the lock while it reads the games: here from a pipe that stays open.
  const child = spawn(process.execPath, [MAIN, 'book', 'add', 'locked.tbk', '-', '--quiet'], { cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.write(games.slice(0, 20).join('\n\n') + '\n\n');
  const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
  for (let i = 0; i < 500 && !existsSync(at('locked.tbk.lock')); i++) await new Promise((w) => setTimeout(w, 20));
  assert.ok(existsSync(at('locked.tbk.lock')), 'the lock is held while the games are read');
  child.kill('SIGTERM');
  assert.equal(await exited, 'SIGTERM');
  child.stdin.destroy();
  assert.equal(existsSync(at('locked.tbk.lock')), false);
  assert.ok(bytes('locked.tbk').equals(bytes('a.tbk')));
});

test("Ctrl-C ends book learn, set and annotate at once while they wait for the book's lock, and leaves the book and the other writer's lock as they were", async () => {
  const player = /\[White "([^"]+)"\]/.exec(games[0]!)![1]!;
  writeFileSync(at('line.pgn'), '1. e4 c5 {!} *\n');
  for (const args of [
    ['learn', 'learn.tbk', '-', '--player', player, '--quiet'],
    ['set', 'learn.tbk', '--moves', 'e4', '--move', 'c5', '--value', '50'],
    ['annotate', 'learn.tbk', 'line.pgn'],
  ]) {
    const what = `book ${args[0]}`;
    writeFileSync(at('learn.tbk'), bytes('a.tbk'));
    // Another writer holds the book (a live process: this one); the command waits up to 30 s for it.
    writeFileSync(at('learn.tbk.lock'), `${process.pid}\n`);
    const child = spawn(process.execPath, [MAIN, 'book', ...args], { cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
    // learn reads its games first. The wait only lets the command reach the lock: a signal that
    // came earlier would end it at once as well.
    child.stdin.end(games.slice(0, 20).join('\n\n') + '\n');
    await new Promise((w) => setTimeout(w, 2000));
    child.kill('SIGINT');
    // A synchronous wait for the lock on the main thread held the signal back until it gave up (30 s,
    // exit 1): the end is judged by how the command ended (by SIGINT, not by giving up), and this
    // only bounds a hang.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const end = await exited;
    clearTimeout(timer);
    assert.deepEqual(end, { code: null, signal: 'SIGINT' }, `${what}: ${stderr}`);
    assert.equal(readFileSync(at('learn.tbk.lock'), 'utf8'), `${process.pid}\n`, `${what}: the other writer's lock is not ours to remove`);
    assert.ok(bytes('learn.tbk').equals(bytes('a.tbk')), what);
    assert.deepEqual(temps(), [], what);
    rmSync(at('learn.tbk.lock'));
  }
});

test('a failed write is an error naming the output, never the temporary file (directory, full device, missing directory)', () => {
  mkdirSync(at('dir.bin'));
  for (const args of [
    ['book', 'make', 'in.pgn', '-o', 'dir.bin', '--quiet'],
    ['pgn', 'clean', 'in.pgn', '-o', 'dir.bin', '--quiet'],
    ['tune', 'data', 'in.pgn', '-o', 'dir.bin', '--quiet'],
    ['book', 'merge', 'a.bin', 'b.bin', '-o', 'dir.bin'],
    ['book', 'make', 'in.pgn', '-o', 'dir.bin/../nowhere/x.bin', '--quiet'],
  ]) {
    const r = tabiya(args);
    const what = args.join(' ');
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.match(r.stderr, /^tabiya: dir\.bin(\/\.\.\/nowhere\/x\.bin: cannot write: no such directory dir\.bin\/\.\.\/nowhere|: is a directory, not a file to write)$/m, what);
    assert.doesNotMatch(r.stderr, /\.tmp/, what);
  }
  assert.deepEqual(readdirSync(at('dir.bin')), []);
  if (!existsSync('/dev/full')) return;
  // A device is written to, not replaced: a full disk is an error (the link and /dev/full stay).
  symlinkSync('/dev/full', at('full.pgn'));
  symlinkSync('/dev/full', at('full.bin'));
  symlinkSync('/dev/full', at('full.tbk'));
  for (const args of [
    ['pgn', 'clean', 'in.pgn', '-o', 'full.pgn', '--quiet'],
    ['book', 'make', 'in.pgn', '-o', 'full.bin', '--quiet'],
    // Two threads write a book while they replay the halving, in place; a device takes it in order.
    ['book', 'make', 'in.pgn', '-o', 'full.tbk', '--quiet', '--threads', '2'],
    ['book', 'export', 'a.tbk', '-o', 'full.bin'],
  ]) {
    const r = tabiya(args);
    const what = args.join(' ');
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.match(r.stderr, /^tabiya: full\.(pgn|bin|tbk): cannot write: no space left on device$/m, what);
  }
  assert.deepEqual(temps(), []);
});

test('a state or book under a path whose parent is a file: one line naming it, no stack trace, no temporary name', () => {
  // tune spsa locks its state before anything else; the lock's temporary file could not be made
  // there, and removing it again threw ENOTDIR in the exit handler (a stack trace).
  const r = tabiya(['tune', 'spsa', '-o', 'in.pgn/state.json', '--param', 'rfpMargin', '--openings', 'in.pgn', '--quiet']);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, 'tabiya: tune spsa: in.pgn/state.json: cannot lock: not a directory\n');
  assert.deepEqual(temps(), []);
});

test('an output in a directory that cannot be written is refused before any input is read', { skip: !existsSync('/proc/self') && 'needs /proc' }, async () => {
  // /proc cannot hold a new file, even for root (for whom a chmod'ed directory is writable).
  // Standard input is left open: a command that reads it before trying its output never ends.
  for (const args of [
    ['book', 'make', '-', '-o', '/proc/tabiya-x.bin'],
    ['book', 'make', '-', '-o', '/proc/tabiya-x.tbk'],
    ['pgn', 'clean', '-', '-o', '/proc/tabiya-x.pgn'],
  ]) {
    const child = spawn(process.execPath, [MAIN, ...args, '--quiet'], { cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The input is never closed: a command that reads it before refusing never ends, and is
    // killed at this hang bound (a refusal takes well under a second on an idle machine).
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    clearTimeout(timer);
    child.stdin.destroy();
    assert.equal(code, 1, `${args.join(' ')}: still reading its input (${stderr})`);
    assert.match(stderr, /^tabiya: \/proc\/tabiya-x\.(bin|tbk|pgn): cannot write: /, args.join(' '));
  }
  // tune fit used to run for its time budget before finding it could not write its output. Its
  // budget here is an hour, past the run's 60 s hang bound: the refusal must come before the fit
  // has read its positions (whose summary goes to stderr) or printed an epoch (to stdout).
  writeFileSync(at('fit.epd'), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 "1-0";\n'.repeat(50));
  const fit = tabiya(['tune', 'fit', 'fit.epd', '-o', '/proc/tabiya-x.json', '--max-seconds', '3600', '--epochs', '100000000', '--threads', '1']);
  assert.equal(fit.code, 1, `${fit.signal ?? ''} ${fit.stderr}`);
  assert.match(fit.stderr, /^tabiya: \/proc\/tabiya-x\.json: cannot write: [^\n]*\n$/, 'refused before the fit: the refusal alone');
  assert.equal(fit.stdout, '', 'refused before the fit: no epoch');
});

test('a write that fails midway (file size limit) is an error naming the output; the old file stays and no temporary is left', () => {
  writeFileSync(at('limited.out'), 'the old file\n');
  for (const [args, name] of [
    [['pgn', 'clean', 'in.pgn', '-o', 'limited.out', '--quiet'], 'limited.out'],
    [['tune', 'data', 'in.pgn', '-o', 'limited.out', '--quiet'], 'limited.out'],
    [['book', 'make', 'in.pgn', '-o', 'limited.bin', '--min-game', '1', '--quiet'], 'limited.bin'],
    [['book', 'make', 'in.pgn', '-o', 'limited.tbk', '--quiet'], 'limited.tbk'],
    // The threads' scratch files fill up inside a worker: the same message, naming the output.
    [['book', 'make', 'in.pgn', '-o', 'limited.tbk', '--quiet', '--threads', '2', '--memory', '300000'], 'limited.tbk'],
    // Replayed from the book's games to another --max-ply: its spilled runs fill up.
    [['book', 'export', 'a.tbk', '-o', 'limited.bin', '--min-games', '1', '--max-ply', '10'], 'limited.bin'],
  ] as const) {
    // RLIMIT_FSIZE with SIGXFSZ ignored: a write past 1 block fails with EFBIG, as on a full disk.
    const quoted = [process.execPath, MAIN, ...args].map((w) => `'${w}'`).join(' ');
    const r = spawnSync('sh', ['-c', `trap '' XFSZ; ulimit -f 1; exec ${quoted}`], { cwd: tmp, encoding: 'utf8', timeout: 60_000 });
    const what = args.join(' ');
    assert.equal(r.status, 1, `${what}: ${r.stderr}`);
    // (A build that spills names its scratch files too: they are what filled up.)
    assert.match(r.stderr, new RegExp(`^tabiya: ${name.replace('.', '\\.')}: cannot write: file too large( \\(writing scratch files in .*\\))?$`, 'm'), what);
    assert.deepEqual(temps(), [], what);
  }
  assert.equal(bytes('limited.out').toString(), 'the old file\n');
  assert.ok(!existsSync(at('limited.bin')) && !existsSync(at('limited.tbk')));
});

test('match --pgnout on a full disk stops with an error naming the PGN', () => {
  if (!existsSync('/dev/full')) return;
  if (!existsSync(at('full.pgn'))) symlinkSync('/dev/full', at('full.pgn'));
  const instant = ['cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`];
  const r = tabiya(['match', '--engine', 'name=A', ...instant, '--engine', 'name=B', ...instant, '--each', 'tc=1+0.01', '--games', '2', '--pgnout', 'full.pgn', '--quiet'], { timeout: 30_000 });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /full\.pgn: cannot write: no space left on device/);
  rmSync(at('full.pgn.journal'), { force: true });
});

test('match --pgnout whose journal name would pass 255 bytes is refused before the PGN is made; so is a name too long itself', () => {
  const instant = ['cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`];
  const pgn = `${'m'.repeat(244)}.pgn`; // 248 bytes: legal, but PGN.journal is 256
  const r = tabiya(['match', '--engine', 'name=A', ...instant, '--engine', 'name=B', ...instant, '--each', 'tc=1+0.01', '--games', '2', '--pgnout', pgn, '--quiet'], { timeout: 30_000 });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /m\.pgn\.journal: cannot write: its name is 256 bytes, more than the 255 a file name may have; nothing was written/);
  assert.equal(existsSync(at(pgn)), false, 'no PGN was made');
  const tooLong = `${'o'.repeat(256)}.pgn`;
  const c = tabiya(['pgn', 'clean', 'more.pgn', '-o', tooLong]);
  assert.equal(c.code, 1, c.stderr);
  assert.match(c.stderr, /its name is 260 bytes/);
});

test("match: an engine's stderr= log that cannot be a text file is refused before the match, not a crash", () => {
  const instant = ['cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`];
  mkdirSync(at('logs'), { recursive: true });
  for (const [log, message] of [
    ['logs', /^tabiya: logs: is a directory, not a file to write$/m],
    ['a.bin', /^tabiya: a\.bin exists and holds binary data: text is only appended to a text file/m],
  ] as const) {
    const before = existsSync(at(log)) && !log.startsWith('logs') ? bytes(log) : undefined;
    const r = tabiya(['match', '--engine', 'name=A', ...instant, `stderr=${log}`, '--engine', 'name=B', ...instant, '--each', 'tc=1+0.01', '--games', '2', '--quiet'], { timeout: 30_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /Unhandled|\n\s+at /);
    if (before !== undefined) assert.ok(bytes(log).equals(before));
  }
  // Two engines may share one log.
  const r = tabiya(['match', '--engine', 'name=A', ...instant, '--engine', 'name=B', ...instant, '--each', 'tc=1+0.01', 'stderr=engines.log', '--games', '2', '--quiet'], { timeout: 30_000 });
  assert.equal(r.code, 0, r.stderr);
});

test('a standard output closed by its reader (| head) ends the run with exit 1 and one line, not a stack trace', async () => {
  for (const args of [
    ['pgn', 'stats', 'in.pgn', '--quiet'],
    ['pgn', 'clean', 'in.pgn', '-o', '-', '--quiet'],
    ['book', 'make', 'in.pgn', '-o', '-', '--quiet'],
    // Output larger than one buffer: the write fails while the input is being read, and is not
    // the input's fault.
    ['pgn', 'filter', SAMPLE_GZ, '-o', '-', '--quiet'],
    ['pgn', 'clean', SAMPLE_GZ, '-o', '-'],
  ]) {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the first byte.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    const what = args.join(' ');
    assert.equal(code, 1, `${what}: ${stderr}`);
    assert.equal(stderr, 'tabiya: standard output: cannot write: broken pipe (the reader closed it)\n', what);
  }
});

test('notes that do not fit (a full disk; here a file size limit) leave the .tbk as it was, byte for byte', { skip: process.platform === 'win32' }, () => {
  // 100 lines of 16 annotated moves: kilobytes of notes, appended to the book in one write.
  const lines = games.slice(0, 100).map((g) => {
    const [head, moves = ''] = g.split(/\n\n/, 2);
    let n = 0;
    const marked = moves.split(/\s+/).map((t) => (/^[A-Za-z]/.test(t) && n++ < 16 ? `${t} $1` : t));
    return `${head}\n\n${marked.join(' ')}\n`;
  });
  writeFileSync(at('nags.pgn'), lines.join('\n'));
  writeFileSync(at('noted.tbk'), bytes('a.tbk'));
  // `ulimit -f` counts 1,024-byte blocks: the book fits, its notes do not. SIGXFSZ ignored, the
  // write past the limit fails (EFBIG) as it would on a full disk (ENOSPC).
  const blocks = Math.ceil(bytes('a.tbk').length / 1024);
  const r = spawnSync('sh', ['-c', `trap '' XFSZ; ulimit -f ${blocks}; exec '${process.execPath}' '${MAIN}' book annotate noted.tbk nags.pgn`], { cwd: tmp, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.trim().split('\n').at(-1), 'tabiya: noted.tbk: cannot write: file too large');
  assert.ok(bytes('noted.tbk').equals(bytes('a.tbk')), 'the book is unchanged');
  assert.equal(existsSync(at('noted.tbk.lock')), false);
  // With room it takes the notes.
  assert.equal(tabiya(['book', 'annotate', 'noted.tbk', 'nags.pgn']).code, 0);
  assert.ok(bytes('noted.tbk').length > blocks * 1024, 'the notes need more than the limit');
});
