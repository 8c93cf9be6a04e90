/**
 * The `polyglot-best` policy against PolyGlot 2.0.4 itself: a `.tbk` and a `.bin` made from the
 * same real games (the `.bin` by `polyglot make-book`), and in every book position PolyGlot's
 * adapter (Book=true, BookRandom=false) plays the move our policy picks from the `.tbk`; with
 * BookRandom=true and a BookTreshold, PolyGlot's frequencies over many games match the
 * probabilities of `polyglot-weighted`, and it never plays a move the threshold excludes.
 * Skipped when polyglot or stockfish (the engine PolyGlot adapts) is not installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PolyglotReader } from '../src/book/polyglot/reader.js';
import { RichBook } from '../src/book/rich/reader.js';
import { encodeMove } from '../src/book/polyglot/format.js';
import { encodeBook, type EntryInput } from '../src/book/polyglot/writer.js';
import { BookProbe, polyglotSource } from '../src/engine/bookProbe.js';
import { bookReport } from '../src/engine/bookReport.js';
import { parseUci } from '../src/notation/uci.js';
import { makeRichBook } from '../src/book/node/richMake.js';
import { choose, explainPolicy, parsePolicy } from '../src/book/select/index.js';
import { unwrap } from '../src/core/result.js';
import { makeUci } from '../src/notation/uci.js';
import { positionAfter } from './support/tbk.js';

const POLYGLOT = '/usr/games/polyglot';
const ENGINE = '/usr/games/stockfish';
const GAMES = new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url);
const skip = !existsSync(POLYGLOT) || !existsSync(ENGINE) ? 'polyglot or stockfish is not installed' : !existsSync(GAMES) ? 'shared data is missing' : false;

const dir = mkdtempSync(join(tmpdir(), 'tabiya-select-pg-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** The same games as a `.bin` by polyglot make-book and as a `.tbk` by us (max-ply 16, min-game 3). */
async function books(): Promise<{ bin: string; polyglotBook: PolyglotReader; rich: RichBook }> {
  const pgn = join(dir, 'games.pgn');
  const bin = join(dir, 'book.bin');
  const tbk = join(dir, 'book.tbk');
  if (!existsSync(tbk)) {
    writeFileSync(pgn, gunzipSync(readFileSync(GAMES)));
    const made = spawnSync(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', bin, '-max-ply', '16', '-min-game', '3'], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    await makeRichBook(tbk, { inputs: [pgn], maxPly: 16, minGames: 3 });
  }
  return { bin, polyglotBook: unwrap(PolyglotReader.from(readFileSync(bin), 'book.bin')), rich: unwrap(RichBook.open(readFileSync(tbk), 'book.tbk')) };
}

/** PolyGlot's moves for a series of positions (UCI lines from the start), one session. */
function polyglotMoves(bin: string, lines: readonly string[], pg: readonly string[]): string[] {
  let script = 'xboard\nprotover 2\n';
  for (const line of lines) script += `new\nforce\n${line.split(' ').filter(Boolean).join('\n')}${line === '' ? '' : '\n'}go\n`;
  script += 'quit\n';
  const args = ['-noini', '-ec', ENGINE, '-pg', 'Book=true', '-pg', `BookFile=${bin}`, ...pg.flatMap((x) => ['-pg', x])];
  const run = spawnSync(POLYGLOT, args, { input: script, encoding: 'utf8', timeout: 60000 });
  const moves = run.stdout.split('\n').filter((l) => l.startsWith('move ')).map((l) => l.slice(5).trim());
  assert.equal(moves.length, lines.length, run.stdout.slice(-500));
  return moves;
}

test('polyglot-best plays what PolyGlot plays from the same games', { skip, timeout: 120000 }, async () => {
  const { bin, polyglotBook, rich } = await books();
  // Book positions, breadth first from the start, as UCI lines.
  const lines: string[] = [];
  const queue = [''];
  while (queue.length > 0 && lines.length < 150) {
    const line = queue.shift()!;
    const moves = polyglotBook.moves(positionAfter(line));
    if (moves.length === 0) continue;
    lines.push(line);
    for (const m of moves) queue.push(line === '' ? m.uci : `${line} ${m.uci}`);
  }
  assert.equal(lines.length, 150);
  const theirs = polyglotMoves(bin, lines, ['BookRandom=false']);
  const policy = parsePolicy({ policy: 'polyglot-best' });
  lines.forEach((line, i) => {
    const moves = rich.probe(positionAfter(line));
    const ours = makeUci(choose(policy, moves, () => 0.5), false);
    if (ours !== theirs[i]) {
      const why = explainPolicy(policy, moves).map((r) => `${makeUci(r.move, false)} ${r.reason}`).join('; ');
      assert.fail(`after "${line}": PolyGlot ${theirs[i]}, ours ${ours} (${why})`);
    }
  });
});

test('polyglot-weighted: PolyGlot\'s frequencies over 2000 games match our probabilities, BookTreshold excludes the same moves', { skip, timeout: 120000 }, async () => {
  const { bin, rich } = await books();
  const n = 2000;
  // After 1.e4 the book has moves on both sides of a 1% threshold (b6 at 0.9%).
  const theirs = polyglotMoves(bin, new Array<string>(n).fill('e2e4'), ['BookRandom=true', 'BookTreshold=10']);
  const rows = explainPolicy(parsePolicy({ policy: 'polyglot-weighted', BookTreshold: 10 }), rich.probe(positionAfter('e2e4')));
  const excluded = rows.filter((r) => !r.inPlay).map((r) => makeUci(r.move, false));
  assert.ok(excluded.includes('b7b6'), `excluded: ${excluded.join(' ')}`);
  for (const r of rows) {
    const u = makeUci(r.move, false);
    const f = theirs.filter((m) => m === u).length / n;
    const tol = 5 * Math.sqrt((r.probability * (1 - r.probability)) / n) + 1e-9;
    assert.ok(Math.abs(f - r.probability) <= tol, `${u}: PolyGlot ${f}, ours ${r.probability}`);
  }
  for (const m of theirs) assert.ok(rows.some((r) => r.inPlay && makeUci(r.move, false) === m), `PolyGlot played ${m}`);
});

/** PolyGlot's first move as White, out of the book too: its engine searches to depth 6 before `quit` is sent. */
async function polyglotFirstMove(bin: string, pg: readonly string[]): Promise<string> {
  const child = spawn(POLYGLOT, ['-noini', '-ec', ENGINE, '-pg', 'Book=true', '-pg', `BookFile=${bin}`, ...pg.flatMap((x) => ['-pg', x])], { stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.write('xboard\nprotover 2\nnew\nsd 6\ngo\n');
  let text = '';
  const move = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      text += d;
      const m = /^move (\S+)/m.exec(text);
      if (m) resolve(m[1]!);
    });
    child.on('exit', () => reject(new Error(`PolyGlot gave no move: ${text.slice(-500)}`)));
  });
  child.stdin.end('quit\n');
  await once(child, 'exit');
  return move;
}

test('polyglot-best and polyglot-weighted take shares of every entry of the key, as PolyGlot does, unplayable ones included', { skip, timeout: 120000 }, async () => {
  // At the start: 1.a3 weight 100 and 1.Nh3 weight 200 (moves Stockfish does not choose), and
  // entries the position cannot play: a pawn move e2e5, a knight move g1g4, and move 0. PolyGlot's
  // shares are over all of them (polyglot.md §5.1): with 30 of unplayable weight Nh3 keeps a share
  // above 0.5% and is played; with 60,000 neither share is above it, PolyGlot leaves the book and
  // its engine searches. The engine's Polyglot source must do the same.
  const start = positionAfter('');
  const raw = (uci: string): number => encodeMove(unwrap(parseUci(start, uci)));
  const key = { hi: start.keyHi, lo: start.keyLo };
  const cases: [string, number[], string | null][] = [
    ['light', [20, 10, 0], 'g1h3'],
    ['heavy', [30000, 20000, 10000], null],
  ];
  for (const [name, [e5, g4, zero], expected] of cases) {
    const entries: EntryInput[] = [
      { key, move: (12 << 6) | 36, weight: e5! }, // e2e5: not a pawn move
      { key, move: raw('g1h3'), weight: 200 },
      { key, move: (6 << 6) | 30, weight: g4! }, // g1g4: not a knight move
      { key, move: raw('a2a3'), weight: 100 },
      { key, move: 0, weight: zero! },
    ];
    const bin = join(dir, `unplayable-${name}.bin`);
    writeFileSync(bin, encodeBook(entries));
    const theirs = await polyglotFirstMove(bin, ['BookRandom=false']);
    const source = polyglotSource(unwrap(PolyglotReader.from(readFileSync(bin), bin)));
    const best = new BookProbe(source, { policy: 'polyglot-best' }).choose(start);
    if (expected === null) {
      assert.ok(theirs !== 'g1h3' && theirs !== 'a2a3', `PolyGlot left the book (${theirs})`);
      assert.equal(best, 0, `${name}: out of book for us too`);
    } else {
      assert.equal(theirs, expected, `${name}: PolyGlot plays from the book`);
      assert.equal(makeUci(best, false), expected);
    }
    // The weighted policy's probabilities, as xboard's bk shows them: shares of the whole key.
    const rows = bookReport(source, parsePolicy({ policy: 'polyglot-weighted' }), start);
    const total = 1000 * (100 + 200 + e5! + g4! + zero!);
    const share = (w: number): number => Math.trunc((10000 * 1000 * w) / total);
    const inPlay = [share(200), share(100)].map((s) => (s > 50 ? s : 0));
    const sum = inPlay[0]! + inPlay[1]!;
    assert.deepEqual(rows.map((r) => [makeUci(r.move, false), r.probability]), sum === 0 ? [['g1h3', 0], ['a2a3', 0]] : [['g1h3', inPlay[0]! / sum], ['a2a3', inPlay[1]! / sum]]);
  }
});
