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
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PolyglotReader } from '../src/book/polyglot/reader.js';
import { RichBook } from '../src/book/rich/reader.js';
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
