/**
 * The engine's batch commands as a user runs them: bench, analyse and epd, with --json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BENCH_DEPTH, BENCH_SIGNATURE } from '../src/engine/bench.js';
import { MAIN } from './engineProcess.js';

const DATA_BOOK = fileURLToPath(new URL('../../data/tabiya.bin', import.meta.url));

const run = (...args: string[]): unknown => JSON.parse(execFileSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' }));

test('bench --json: a node-count signature that repeats, and nodes/s', () => {
  const a = run('bench', '--depth', '4', '--json', '--no-warmup') as { nodes: number; nps: number; positions: number };
  const b = run('bench', '--depth', '4', '--json') as { nodes: number; nps: number };
  assert.equal(a.positions, 30);
  assert.ok(a.nodes > 1000 && a.nps > 0);
  assert.equal(a.nodes, b.nodes, 'the warm-up does not change the signature');
});

test('bench at its depth: the recorded signature (src/engine/bench.ts BENCH_SIGNATURE)', () => {
  const r = run('bench', '--json', '--no-warmup') as { nodes: number; depth: number; signature: string };
  assert.equal(r.depth, BENCH_DEPTH);
  assert.equal(r.nodes, BENCH_SIGNATURE, 'a change to the search or evaluation records its new signature (docs/engine.md, Benchmark)');
  assert.equal(r.signature, 'as recorded');
});

test('analyse --json: MultiPV lines with scores, UCI and SAN principal variations', () => {
  const r = run('analyse', '--fen', '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', '--depth', '5', '--multipv', '2', '--json') as {
    bestmove: string;
    lines: { multipv: number; score: { cp?: number; mate?: number }; wdl: number[]; pv: string[]; san: string[] }[];
  };
  assert.equal(r.bestmove, 'd1d8');
  assert.equal(r.lines.length, 2);
  assert.deepEqual(r.lines[0]!.score, { mate: 1 });
  assert.deepEqual(r.lines[0]!.wdl, [1000, 0, 0], 'a mate in one is a certain win');
  assert.equal(r.lines[1]!.wdl.reduce((a, b) => a + b, 0), 1000);
  assert.deepEqual([r.lines[0]!.pv[0], r.lines[0]!.san[0]], ['d1d8', 'Rd8#']);
  assert.equal(r.lines[1]!.multipv, 2);
});

test('analyse of a position without moves says whether it is mate or stalemate', () => {
  const mated = run('analyse', '--moves', 'f3 e5 g4 Qh4#', '--json') as { bestmove: string | null; termination?: string; lines: unknown[] };
  assert.deepEqual([mated.bestmove, mated.termination, mated.lines], [null, 'checkmate', []]);
  const stale = run('analyse', '--fen', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', '--json') as { termination?: string };
  assert.equal(stale.termination, 'stalemate');
  assert.equal(execFileSync(process.execPath, [MAIN, 'analyse', '--fen', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'], { encoding: 'utf8' }).trim(), 'no move: stalemate (1/2-1/2)');
  const going = run('analyse', '--depth', '2', '--json') as { termination?: string };
  assert.equal(going.termination, undefined);
});

test('epd: solved/total, failures by id, unreadable records skipped with their line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    const file = join(dir, 'suite.epd');
    writeFileSync(
      file,
      [
        '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id "mate1";',
        '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - am Rd8#; id "avoid";',
        'this is not an epd line',
        '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Nf3; id "illegal bm";',
      ].join('\n'),
    );
    const p = spawnSync(process.execPath, [MAIN, 'epd', file, '--depth', '3', '--json'], { encoding: 'utf8' });
    assert.equal(p.status, 0, p.stderr);
    const r = JSON.parse(p.stdout) as {
      solved: number;
      total: number;
      skipped: number;
      nodes: number;
      ms: number;
      nps: number;
      failed: { id: string; played: string }[];
      solutions: { id: string; depth: number; nodes: number }[];
      found: { nodes: { total: number; median: number }; depth: { median: number } };
    };
    assert.deepEqual([r.solved, r.total, r.skipped], [1, 2, 2]);
    // The mate in one is the best move from the first iteration on.
    assert.deepEqual(r.solutions.map((s) => [s.id, s.depth]), [['mate1', 1]]);
    assert.ok(r.solutions[0]!.nodes > 0);
    assert.deepEqual([r.found.nodes.total, r.found.nodes.median, r.found.depth.median], [r.solutions[0]!.nodes, r.solutions[0]!.nodes, 1]);
    // Every search's nodes, the failed one's too: more than the solution's, and nps their ratio to the time.
    assert.ok(r.nodes > r.solutions[0]!.nodes, `${r.nodes} nodes in all`);
    assert.equal(r.nps, Math.round((r.nodes * 1000) / Math.max(1, r.ms)));
    assert.deepEqual(r.failed.map((f) => [f.id, f.played]), [['avoid', 'Rd8#']]);
    assert.match(p.stderr, /suite\.epd:3: /);
    assert.match(p.stderr, /suite\.epd:4: bm Nf3/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('epd: graded suites (STS c0 "move=points") score the move played, in all and by theme', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    const file = join(dir, 'graded.epd');
    writeFileSync(
      file,
      [
        '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id "STS Mate.001"; c0 "Rd8#=10, Kf1=3";',
        '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Kf1; id "STS Quiet.001"; c0 "Kf1=10, h3=4";',
        '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Kf1; id "STS Quiet.002"; c0 "Kf1=10, Nf3=4";',
        // A c0 that is a remark, as in WAC and Arasan, grades nothing.
        '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id "WAC.999"; c0 "All win but Rd8# is best.";',
      ].join('\n'),
    );
    const p = spawnSync(process.execPath, [MAIN, 'epd', file, '--depth', '3', '--json'], { encoding: 'utf8' });
    assert.equal(p.status, 0, p.stderr);
    const r = JSON.parse(p.stdout) as { total: number; points: { points: number; max: number; positions: number; byTheme: { theme: string; points: number; max: number }[] } };
    // The engine mates in every searched position: 10 points for the first, none for the second.
    assert.equal(r.total, 3);
    assert.deepEqual([r.points.points, r.points.max, r.points.positions], [10, 20, 2]);
    assert.deepEqual(r.points.byTheme.map((t) => [t.theme, t.points, t.max]), [['STS Mate', 10, 10], ['STS Quiet', 0, 10]]);
    // A grade whose move is not legal is a skipped record with its line.
    assert.match(p.stderr, /graded\.epd:3: c0: Nf3/);
    const text = spawnSync(process.execPath, [MAIN, 'epd', file, '--depth', '3'], { encoding: 'utf8' });
    assert.match(text.stdout, /STS Quiet: 0\/10 \(0\.0%\) over 1/);
    assert.match(text.stdout, /points 10\/20 \(50\.0%\) over 2 graded positions/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('epd: mate problems (dm N, and bm #N as the Chest suites write it) are solved by a mate score within N', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    const file = join(dir, 'mates.epd');
    // Rook and king against king: 1.Kb6 Kb8 2.Rh8# is a mate in two, and no mate in one exists;
    // with the king already on b6, Black's only move Kb8 is mated in one.
    writeFileSync(
      file,
      [
        'k7/8/2K5/8/8/8/8/7R w - - dm 2; id "mate2";',
        'k7/8/2K5/8/8/8/8/7R w - - dm 1; id "no mate in one";',
        'k7/8/1K6/8/8/8/8/7R b - - bm #-1; id "mated in one";',
        'k7/8/2K5/8/8/8/8/7R w - - bm #2; id "chest mate2";',
        'k7/8/2K5/8/8/8/8/7R w - - dm 0; id "dm zero";',
      ].join('\n'),
    );
    const p = spawnSync(process.execPath, [MAIN, 'epd', file, '--depth', '6', '--json'], { encoding: 'utf8' });
    assert.equal(p.status, 0, p.stderr);
    const r = JSON.parse(p.stdout) as { solved: number; total: number; skipped: number; failed: { id: string; mate: number; foundMate: number | null }[]; solutions: { id: string }[] };
    assert.deepEqual([r.solved, r.total, r.skipped], [3, 4, 1]);
    assert.deepEqual(r.solutions.map((s) => s.id), ['mate2', 'mated in one', 'chest mate2']);
    assert.deepEqual(r.failed.map((f) => [f.id, f.mate, f.foundMate]), [['no mate in one', 1, 2]]);
    assert.match(p.stderr, /mates\.epd:5: dm 0: expected one whole number of moves, at least 1/);
    const text = spawnSync(process.execPath, [MAIN, 'epd', file, '--depth', '6', '--quiet'], { encoding: 'utf8' });
    assert.match(text.stdout, /no mate in one: played \S+, found mate in 2, wanted mate in 1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('epd: a solution is found at the iteration from which the best move stays right', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    // WAC.001: the first iterations prefer Ne8, then Nh5; Qg6 (mate in two, a queen offered to
    // the f-pawn) takes over at depth 11 (at depth 8 with the evaluation before the refit of
    // docs/strength.md §6: when a pruned search finds it depends on the evaluation).
    const file = join(dir, 'wac1.epd');
    writeFileSync(file, '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";\n');
    const r = run('epd', file, '--depth', '14', '--json') as { solutions: { id: string; depth: number }[] };
    assert.equal(r.solutions.length, 1);
    assert.ok(r.solutions[0]!.depth > 1 && r.solutions[0]!.depth <= 14, `found at depth ${r.solutions[0]!.depth}`);
    const text = execFileSync(process.execPath, [MAIN, 'epd', file, '--depth', '14', '--quiet'], { encoding: 'utf8' });
    assert.match(text, /solved 1\/1, [\d,]+ nodes in [\d.]+ s, [\d,]+ nodes\/s\nsolutions found after [\d,]+ nodes and [\d.]+ s in all; median [\d,]+ nodes, \d+ ms, depth \d+\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('epd --json: progress still goes to stderr (docs/cli.md: in both modes; --quiet hides it), the JSON alone to stdout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    // Two positions of 3 s each: past the 5 s after which a job that is not on a terminal writes a line.
    const file = join(dir, 'two.epd');
    // Quiet positions: a search that finds a mate ends before its time.
    writeFileSync(file, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id "start";\nr1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "ruy";\n');
    const r = spawnSync(process.execPath, [MAIN, 'epd', file, '--movetime', '3000', '--json'], { encoding: 'utf8', env: { ...process.env, TERM: 'dumb' } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { total: number }).total, 2);
    assert.match(r.stderr, /^epd: 100\.0% 2 positions, .* in [\d.]+ s, \d solved$/m);
    const quiet = spawnSync(process.execPath, [MAIN, 'epd', file, '--movetime', '3000', '--json', '--quiet'], { encoding: 'utf8', env: { ...process.env, TERM: 'dumb' } });
    assert.equal(quiet.stderr, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('epd --set NAME=V changes a search constant for the run; a name or value the engine does not take is refused before any search', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    const file = join(dir, 'wac3.epd');
    writeFileSync(file, '5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id "WAC.003";\n');
    type R = { solved: number; solutions: { nodes: number; depth: number }[] };
    const nodesAt = (...set: string[]): number => {
      const r = run('epd', file, '--depth', '10', ...set.flatMap((x) => ['--set', x]), '--json') as R;
      assert.equal(r.solved, 1);
      return r.solutions[0]!.nodes;
    };
    const base = nodesAt();
    assert.equal(nodesAt('lmrBase=80'), base, 'the default value: the same search, node for node');
    assert.notEqual(nodesAt('lmrBase=160', 'rfpMargin=30'), base, 'other values: another search');
    for (const [arg, message] of [
      ['noSuchConstant=3', /--set noSuchConstant=3: unknown search parameter "noSuchConstant"/],
      ['rfpMargin=1000', /--set rfpMargin=1000: rfpMargin: 1000 is not a whole number from 30 to 150/],
      ['rfpMargin', /--set rfpMargin: expected NAME=VALUE/],
    ] as const) {
      const bad = spawnSync(process.execPath, [MAIN, 'epd', file, '--depth', '2', '--set', arg], { encoding: 'utf8' });
      assert.equal(bad.status, 2, arg);
      assert.match(bad.stderr, message);
      assert.equal(bad.stdout, '');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('epd --threads 2 searches on worker threads and solves what one thread solves', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    const file = join(dir, 'two.epd');
    // WAC.003 and WAC.004: a rook sacrifice and a mate threat, found within a few plies.
    writeFileSync(
      file,
      [
        '5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id "WAC.003";',
        'r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id "WAC.004";',
      ].join('\n'),
    );
    const one = run('epd', file, '--depth', '8', '--json') as { solved: number; total: number };
    const two = run('epd', file, '--depth', '8', '--threads', '2', '--json') as { solved: number; total: number; solutions: { nodes: number }[] };
    assert.deepEqual([one.solved, one.total], [2, 2]);
    assert.deepEqual([two.solved, two.total], [2, 2]);
    assert.ok(two.solutions.every((s) => s.nodes > 0));
    const bad = spawnSync(process.execPath, [MAIN, 'epd', file, '--depth', '2', '--threads', '0'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--threads: 0 is out of range/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('analyse --moves takes what book probe takes: one argument of UCI or SAN; the old one-word-per-move form still works', () => {
  const searched = (...moves: string[]): string[] => {
    const r = run('analyse', '--moves', ...moves, '--depth', '2', '--json') as { moves: string[]; bestmove: string };
    assert.ok(r.bestmove);
    return r.moves;
  };
  const uci = ['e2e4', 'e7e5', 'g1f3'];
  assert.deepEqual(searched('e4 e5 Nf3'), uci);
  assert.deepEqual(searched('e2e4 e7e5 g1f3'), uci);
  assert.deepEqual(searched('1. e4 e5 2. Nf3'), uci);
  assert.deepEqual(searched('e4,e5,Nf3'), uci);
  assert.deepEqual(searched('e2e4', 'e7e5', 'g1f3'), uci);
  const bad = spawnSync(process.execPath, [MAIN, 'analyse', '--moves', 'e4 e5 Nf6', '--depth', '2'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^tabiya: --moves: move 3 of the list: illegal move "Nf6" in position \S+ w KQkq/);
  const probe = spawnSync(process.execPath, [MAIN, 'book', 'probe', DATA_BOOK, '--moves', 'e4 e5 Nf6'], { encoding: 'utf8' });
  assert.equal(probe.status, 2);
  assert.match(probe.stderr, /^tabiya: --moves: move 3 of the list: illegal move "Nf6"/);
});

test('epd and perft --suite refuse a binary file with file:line, and a suite with nothing to do', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    const bin = join(dir, 'book.bin');
    // Polyglot entries: key, move, weight, learn (zeros).
    writeFileSync(bin, Buffer.from('463b96181691fc9c031c000a00000000463b96181691fc9c0b1c000500000000', 'hex'));
    const text = join(dir, 'text.epd');
    writeFileSync(text, '# a comment\n\n6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#;\nmore\n\u0000\n');
    const empty = join(dir, 'empty.epd');
    writeFileSync(empty, '# only a comment\n\n');
    const useless = join(dir, 'useless.epd');
    writeFileSync(useless, 'not a position\n6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - id "no bm";\n');
    const cases: [string[], RegExp][] = [
      [['epd', bin, '--depth', '1'], /book\.bin:1: binary data \(a NUL byte at byte 11\), not EPD text/],
      [['epd', text, '--depth', '1'], /text\.epd:5: binary data/],
      [['perft', '--suite', bin], /book\.bin:1: binary data/],
      [['epd', empty, '--depth', '1'], /empty\.epd: no EPD record/],
      [['perft', '--suite', empty], /empty\.epd: no EPD record/],
      [['epd', useless, '--depth', '1'], /useless\.epd: none of its 2 positions could be searched/],
      [['perft', '--suite', useless], /useless\.epd: no perft count/],
    ];
    for (const [args, message] of cases) {
      const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
      assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.ok(r.stderr.length < 2000, 'no garbage echoed back');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('epd and perft --suite read a gzip-compressed suite as the plain one (told by its first bytes); a damaged one is refused with its name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-gz-'));
  try {
    const suite = join(dir, 'suite.epd.gz');
    writeFileSync(suite, gzipSync('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id "mate";\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400\n'));
    const epd = spawnSync(process.execPath, [MAIN, 'epd', suite, '--depth', '2', '--json', '--quiet'], { encoding: 'utf8' });
    // Before, the gzip header's NUL byte made it "binary data, not EPD text".
    assert.equal(epd.status, 0, epd.stderr);
    assert.deepEqual((JSON.parse(epd.stdout) as { solved: number; total: number }).solved, 1);
    const perft = spawnSync(process.execPath, [MAIN, 'perft', '--suite', suite, '--max-depth', '2'], { encoding: 'utf8' });
    assert.equal(perft.status, 0, perft.stderr);
    assert.match(perft.stdout, /2 counts checked to depth 2: 0 mismatches/);
    const cut = join(dir, 'cut.epd.gz');
    writeFileSync(cut, gzipSync('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#;\n'.repeat(50)).subarray(0, 30));
    const r = spawnSync(process.execPath, [MAIN, 'epd', cut, '--depth', '1'], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `tabiya: ${cut}: damaged gzip data (unexpected end of file)\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
