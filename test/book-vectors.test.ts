/**
 * Every make-book vector of polyglot-vectors/ (as run_vectors.sh makes them), reproduced byte
 * for byte by `makeBook`; the vectors where PolyGlot aborts show what we do instead; merge,
 * dump and info vectors are in the unit tests of book/polyglot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeBook, type MakeBookOptions } from '../src/book/node/makeBook.js';
import { PolyglotReader } from '../src/book/polyglot/reader.js';
import { unwrap } from '../src/core/result.js';
import { keyToHex } from '../src/core/zobrist.js';
import { positionFromFen } from '../src/notation/fen.js';
import type { PgnGameError } from '../src/pgn/visitor.js';

const DIR = fileURLToPath(new URL('../../../shared/docs/polyglot-vectors/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-vectors-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** The `mk NAME PGN options` runs of run_vectors.sh, loops expanded. */
function vectorRuns(): { name: string; pgn: string; args: string[] }[] {
  const script = readFileSync(join(DIR, 'run_vectors.sh'), 'utf8');
  const runs: { name: string; pgn: string; args: string[] }[] = [];
  for (const line of script.split('\n')) {
    const words = line.trim().split(/\s+/);
    let m: RegExpExecArray | null;
    if (words[0] === 'mk' && !words[1]!.startsWith('$')) runs.push({ name: words[1]!, pgn: words[2]!, args: words.slice(3) });
    else if ((m = /^for n in ([\w ]+); do mk \$n \$n\.pgn (.*); done$/.exec(line.trim()))) {
      for (const n of m[1]!.trim().split(' ')) runs.push({ name: n, pgn: `${n}.pgn`, args: m[2]!.split(' ') });
    } else if ((m = /^for f in pgn\/odd_\*\.pgn; .* mk \$n \$n\.pgn (.*); done$/.exec(line.trim()))) {
      for (const f of readFileSync(join(DIR, 'out', 'SUMMARY.txt'), 'utf8').split('\n')) {
        const n = f.split(/\s+/)[0]!;
        if (n.startsWith('odd_')) runs.push({ name: n, pgn: `${n}.pgn`, args: m[1]!.split(' ') });
      }
    }
  }
  return runs;
}

/** polyglot make-book's options as ours. */
function options(args: string[]): Partial<MakeBookOptions> {
  const o: Partial<MakeBookOptions> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-min-game') o.minGame = Number(args[++i]);
    else if (a === '-max-ply') o.maxPly = Number(args[++i]);
    else if (a === '-min-score') o.minScore = Number(args[++i]);
    else if (a === '-only-white') o.colour = 'white';
    else if (a === '-only-black') o.colour = 'black';
    else if (a === '-uniform') o.uniform = true;
    else throw new Error(`unexpected option ${a}`);
  }
  return o;
}

/** pgn/halving.pgn is not stored (16 493 games); halving_gen.py's recipe, written to a temporary file. */
function pgnPath(pgn: string): string {
  if (pgn !== 'halving.pgn') return join(DIR, 'pgn', pgn);
  const path = join(tmp, pgn);
  if (!existsSync(path)) {
    const games = (n: number, result: string, moves: string): string => `[Result "${result}"]\n\n${moves} ${result}\n\n`.repeat(n);
    writeFileSync(path, games(101, '1/2-1/2', '1. d4 d5') + games(16384, '1-0', '1. e4 e5') + games(5, '0-1', '1. e4 e5') + games(3, '1/2-1/2', '1. d4 d5'));
  }
  return path;
}

async function make(pgn: string, args: string[], extra: Partial<MakeBookOptions> = {}): Promise<{ bytes: Uint8Array | undefined; errors: PgnGameError[]; failure?: string }> {
  const output = join(tmp, `${Math.random().toString(36).slice(2)}.bin`);
  const errors: PgnGameError[] = [];
  try {
    await makeBook({ inputs: [pgnPath(pgn)], output, ...options(args), ...extra, onError: (e) => errors.push(e) });
  } catch (e) {
    return { bytes: undefined, errors, failure: (e as Error).message };
  }
  return { bytes: new Uint8Array(readFileSync(output)), errors };
}

// Where PolyGlot aborts, we read on: the game it names is skipped at the same line, or, where
// PolyGlot is merely strict about spelling, the game is read.
const ABORTS: Record<string, { skippedLine?: number; fails?: boolean }> = {
  illegal: { skippedLine: 9 },
  noresult: { skippedLine: 6 },
  odd_promo_none: { fails: true },
};

test('run_vectors.sh lists the vectors this test expects', () => {
  const names = vectorRuns().map((r) => r.name);
  assert.ok(names.length >= 40, names.join(' '));
  for (const n of ['main_min1', 'filters_bw', 'tie2', 'syntax_ok', 'odd_kxr', 'illegal', 'odd_bom', 'rounding', 'mA']) assert.ok(names.includes(n), n);
});

test('every make-book vector written by polyglot is reproduced byte for byte', async () => {
  let compared = 0;
  for (const run of vectorRuns()) {
    const expected = join(DIR, 'out', `${run.name}.bin`);
    if (!existsSync(expected) || run.name === 'fen_legal') continue;
    const r = await make(run.pgn, run.args);
    assert.equal(r.failure, undefined, run.name);
    assert.deepEqual(r.errors, [], run.name);
    assert.deepEqual(r.bytes, new Uint8Array(readFileSync(expected)), `${run.name}: ${run.pgn} ${run.args.join(' ')}`);
    compared++;
  }
  assert.ok(compared >= 30, `${compared} vectors compared`);
});

test('vectors where polyglot aborts: the broken game is skipped at the line polyglot names, or read', async () => {
  for (const run of vectorRuns()) {
    if (existsSync(join(DIR, 'out', `${run.name}.bin`))) continue;
    const log = readFileSync(join(DIR, 'out', `${run.name}.log`), 'utf8');
    assert.match(log, /tellusererror POLYGLOT/, run.name);
    const r = await make(run.pgn, run.args);
    const expect = ABORTS[run.name] ?? {};
    if (expect.fails) {
      assert.match(r.failure ?? '', new RegExp(`${run.pgn}: no readable game \\(first error at line 3`), run.name);
      continue;
    }
    assert.equal(r.failure, undefined, run.name);
    assert.ok(r.bytes !== undefined && r.bytes.length > 0, `${run.name}: a book is written`);
    if (expect.skippedLine !== undefined) {
      assert.equal(r.errors.length, 1, run.name);
      assert.equal(r.errors[0]!.line, expect.skippedLine, run.name);
      assert.equal(Number(/at line (\d+)/.exec(log)![1]), expect.skippedLine, `${run.name}: polyglot names the same line`);
    } else {
      assert.deepEqual(r.errors, [], run.name);
    }
  }
});

test('a [FEN] game is keyed from its own position (polyglot keys it from the initial one)', async () => {
  const r = await make('fen_legal.pgn', ['-min-game', '1']);
  const book = unwrap(PolyglotReader.from(r.bytes!, 'ours'));
  const fenKey = unwrap(positionFromFen('rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2'));
  assert.equal(book.size, 1);
  const e = book.entry(0);
  assert.equal(keyToHex(e.keyHi, e.keyLo), keyToHex(fenKey.keyHi, fenKey.keyLo));
  assert.equal(book.moves(fenKey)[0]!.uci, 'g1f3');
  const theirs = unwrap(PolyglotReader.from(readFileSync(join(DIR, 'out', 'fen_legal.bin')), 'polyglot')).entry(0);
  assert.equal(keyToHex(theirs.keyHi, theirs.keyLo), '463b96181691fc9c');
  // --from-start leaves such games out.
  const skipped = await make('fen_legal.pgn', ['-min-game', '1'], { filter: { fromStart: true } });
  assert.equal(skipped.bytes!.length, 0);
});

test('threads give the same bytes on the vectors', async () => {
  for (const name of ['main_min1', 'filters_bw', 'tie2', 'halving']) {
    const run = vectorRuns().find((r) => r.name === name)!;
    const r = await make(run.pgn, run.args, { threads: 2, chunkBytes: 256 });
    assert.deepEqual(r.bytes, new Uint8Array(readFileSync(join(DIR, 'out', `${name}.bin`))), name);
  }
});
