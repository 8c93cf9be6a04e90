/**
 * Board conversion (src/book/reach/): every irreversibility test is sound (it never rules out a
 * position that some legal move sequence reaches), checked on every position a brute-force
 * enumeration reaches from perft-suite and real-game positions; the reach search finds exactly
 * the book positions the brute force finds, at the same least number of plies, on small .bin
 * and .tbk books built from real games; `book reach` on the CLI; BookReturn in UCI and xboard;
 * the index saved between runs (a copy answers as the walk does; a changed book or a damaged
 * file is walked again).
 */
import { test } from 'node:test';
import { Chess } from 'chess.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateLegal } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { MAX_MOVES } from '../src/core/types.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../src/notation/fen.js';
import { playMoveList } from '../src/notation/moveList.js';
import { openBookForReading, loadEngineBook } from '../src/node/engineBook.js';
import { ReachIndex } from '../src/book/reach/reachIndex.js';
import { ReachSearch } from '../src/book/reach/reach.js';
import { nearestPositions } from '../src/book/reach/nearest.js';
import { decodeReachIndex, encodeReachIndex } from '../src/book/reach/indexFile.js';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { openAnyRichBook } from '../src/book/node/openTbk.js';
import { reachWalkOptions } from '../src/engine/bookReturn.js';
import { numbered } from '../src/cli/commands/bookReach.js';
import { keyToHex } from '../src/core/zobrist.js';
import {
  BOARD_WORDS, capturesBy, castlingAllows, materialAllows, materialKey, pawnsAllow, pieceDistance, pliesNeeded, wordOf, writeBoard,
} from '../src/book/reach/signature.js';
import { LocalHost } from '../src/engine/host.js';
import { UciServer } from '../src/protocol/uci/server.js';
import { XboardServer } from '../src/protocol/xboard/server.js';
import { pgnGames, sanMoves } from './support/gameText.js';
import { perftSuite } from './support/perftSuite.js';
import { Engine } from '../src/engine/engine.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-reach-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
// The indexes of this file's books go to its own cache, removed with it, not the user's
// ~/.cache/tabiya/reach (where the runs left one file per temporary book).
process.env.TABIYA_CACHE_DIR = join(tmp, 'test-cache');

function tabiya(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The first `n` games of the 2,000-game sample, from game `from`. */
const games = (from: number, n: number): string[] => pgnGames(SAMPLE_GZ, from, n);

function at(fen: string, moves: string[] = []): Position {
  const pos = unwrap(positionFromFen(fen));
  if (moves.length > 0) assert.ok(playMoveList(pos, moves.join(' ')).ok, moves.join(' '));
  return pos;
}

/** Every move sequence of 1..n plies from `pos`: `visit(pos, plies)` after each move. */
function enumerate(pos: Position, n: number, visit: (p: Position, plies: number) => void): void {
  const buf = new Uint16Array(MAX_MOVES * (n + 1));
  const go = (depth: number): void => {
    const end = generateLegal(pos, buf, depth * MAX_MOVES);
    for (let k = depth * MAX_MOVES; k < end; k++) {
      pos.play(buf[k]!);
      visit(pos, depth + 1);
      if (depth + 1 < n) go(depth + 1);
      pos.undo();
    }
  };
  go(0);
}

/** Brute force: each book position (≠ the start) some sequence of at most n plies reaches, with the least plies. */
function bruteForce(index: ReachIndex, pos: Position, n: number): Map<number, number> {
  const out = new Map<number, number>();
  const hi = pos.keyHi;
  const lo = pos.keyLo;
  enumerate(pos, n, (p, plies) => {
    const t = index.find(p.keyHi, p.keyLo);
    if (t < 0 || (p.keyHi === hi && p.keyLo === lo)) return;
    const had = out.get(t);
    if (had === undefined || plies < had) out.set(t, plies);
  });
  return out;
}

// Small books from real games: the first 40 games of the sample, 16 plies each.
const PGN = join(tmp, 'games.pgn');
writeFileSync(PGN, games(0, 40).join('\n'));
for (const out of ['small.bin', 'small.tbk']) {
  const r = tabiya(['book', 'make', PGN, '-o', out, '--max-ply', '16', '--min-games', '1', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
}
const indexes = ['small.bin', 'small.tbk'].map((f) => {
  const book = openBookForReading(join(tmp, f));
  return { name: f, index: ReachIndex.build((p) => book.source.candidates(p)), movesOf: book.source };
});

/** Positions to search from: the 40 book games left at plies 6..18, and 10 other games (out of book soon). */
function startPositions(): Position[] {
  const out: Position[] = [];
  const all = [...games(0, 40).filter((_, i) => i % 8 === 0), ...games(40, 10)];
  for (const g of all) {
    const moves = sanMoves(g);
    for (const ply of [6, 12, 18]) if (moves.length > ply) out.push(at(STARTING_FEN, moves.slice(0, ply)));
  }
  return out;
}

test('the index holds the boards of the book: every position replays to its own key, and the start is position 0', () => {
  for (const { name, index } of indexes) {
    assert.ok(index.size > 150, `${name}: ${index.size} positions`);
    const start = at(STARTING_FEN);
    assert.equal(index.find(start.keyHi, start.keyLo), 0, name);
    for (let i = 0; i < index.size; i += 7) {
      const p = index.position(i);
      assert.deepEqual([p.keyHi, p.keyLo], [index.keyHi[i], index.keyLo[i]], `${name}: position ${i}`);
      const b = new Int32Array(BOARD_WORDS);
      writeBoard(p, b, 0);
      assert.deepEqual([...b], [...index.boards.subarray(i * BOARD_WORDS, (i + 1) * BOARD_WORDS)], `${name}: board ${i}`);
    }
  }
});

test('every pruning rule is sound: no position that a sequence of n plies reaches fails any test', () => {
  // Perft positions (castling both ways, en passant, promotions, checks) and positions of real games.
  const suite = perftSuite('perft_standard.epd').filter((s) => (s.counts.get(3) ?? Infinity) <= 120_000);
  const starts = [...suite.slice(0, 10).map((s) => at(s.fen)), ...startPositions().slice(0, 8)];
  const a = new Int32Array(BOARD_WORDS);
  const b = new Int32Array(BOARD_WORDS);
  let checked = 0;
  for (const pos of starts) {
    writeBoard(pos, a, 0);
    const matA = materialKey(a, 0);
    const castleA = pos.castling & 15;
    const turnA = pos.turn;
    enumerate(pos, 3, (p, plies) => {
      writeBoard(p, b, 0);
      const matB = materialKey(b, 0);
      const where = (): string => `from ${pos.turn} ${castleA} after ${plies} plies`;
      assert.ok(materialAllows(matA, matB), `material ${where()}`);
      assert.ok(castlingAllows(castleA, p.castling & 15), `castling ${where()}`);
      for (const c of [0, 1]) {
        const w = wordOf(c, 1);
        assert.ok(pawnsAllow(a[w]!, a[w + 1]!, b[w]!, b[w + 1]!, c, capturesBy(matA, matB, c)), `pawns of ${c} ${where()}`);
      }
      const need = pliesNeeded(a, 0, b, 0, turnA, castleA, p.turn);
      assert.ok(need <= plies, `plies needed ${need} > ${plies} ${where()}`);
      checked++;
    });
  }
  assert.ok(checked > 300_000, `${checked} positions checked`);
});

test('each rule refuses what cannot happen: uncaptures, pawns back or sideways, castling regained, too few plies, wrong parity', () => {
  const a = new Int32Array(BOARD_WORDS);
  const b = new Int32Array(BOARD_WORDS);
  const board = (fen: string, into: Int32Array): Position => {
    const p = at(fen);
    writeBoard(p, into, 0);
    return p;
  };
  // After 1.e4 d5 2.exd5: Black's pawn cannot come back (an uncapture).
  board('rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2', a);
  board('rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', b);
  assert.equal(materialAllows(materialKey(a, 0), materialKey(b, 0)), false, 'uncapture');
  // A pawn on e4 cannot go back to e2, nor to d4 without a capture.
  board('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', a);
  board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1', b);
  assert.equal(pawnsAllow(a[0]!, a[1]!, b[0]!, b[1]!, 0, 0), false, 'pawn back');
  board('rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1', b);
  assert.equal(pawnsAllow(a[0]!, a[1]!, b[0]!, b[1]!, 0, 0), false, 'file change without capture');
  assert.equal(pawnsAllow(a[0]!, a[1]!, b[0]!, b[1]!, 0, 1), false, 'sideways: a capture also advances');
  board('rnbqkbnr/pppppppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', b);
  assert.equal(pawnsAllow(a[0]!, a[1]!, b[0]!, b[1]!, 0, 1), true, 'exd5 with one capture');
  assert.equal(pawnsAllow(a[0]!, a[1]!, b[0]!, b[1]!, 0, 0), false, 'exd5 needs a capture');
  // Castling rights lost are never regained.
  assert.equal(castlingAllows(0b0111, 0b1111), false);
  assert.equal(castlingAllows(0b1111, 0b0101), true);
  // 1.Nf3 needs one ply; the same with Black to move again needs two (Nf3 … and a Black tempo cannot be zero).
  const s = board(STARTING_FEN, a);
  board('rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1', b);
  assert.equal(pliesNeeded(a, 0, b, 0, s.turn, s.castling, 1), 1);
  assert.equal(pliesNeeded(a, 0, b, 0, s.turn, s.castling, 0), 2, 'parity');
  // A knight needs three moves from f3 to f4; a bishop never changes colour; a pawn moves two only from its start.
  assert.equal(pieceDistance(2, 0, 21, 29), 3);
  assert.equal(pieceDistance(2, 0, 21, 27), 1);
  assert.equal(pieceDistance(3, 0, 2, 10), 1000);
  assert.equal(pieceDistance(1, 0, 12, 28), 1);
  assert.equal(pieceDistance(1, 0, 20, 36), 2);
  assert.equal(pieceDistance(1, 1, 52, 36), 1);
});

test('reach finds exactly the book positions the brute force finds, at the least plies, on .bin and .tbk books of real games', () => {
  const starts = startPositions();
  let compared = 0;
  let found = 0;
  for (const { name, index } of indexes) {
    const search = new ReachSearch(index);
    starts.forEach((pos, k) => {
      const n = k % 5 === 0 ? 4 : 3;
      if (n === 4 && k > 10) return;
      const expected = bruteForce(index, pos, n);
      const r = search.run(pos, { plies: n });
      assert.ok(r.complete);
      const got = new Map(r.hits.map((h) => [h.target, h.plies]));
      assert.deepEqual([...got].sort((x, y) => x[0] - y[0]), [...expected].sort((x, y) => x[0] - y[0]), `${name}: start ${k}, ${n} plies`);
      // Each line really arrives: played from the start, it ends on the target's key in that many plies.
      for (const h of r.hits) {
        assert.equal(h.moves.length, h.plies);
        for (const m of h.moves) pos.play(m);
        assert.deepEqual([pos.keyHi, pos.keyLo], [index.keyHi[h.target], index.keyLo[h.target]]);
        for (let i = 0; i < h.moves.length; i++) pos.undo();
      }
      compared++;
      found += expected.size;
    });
  }
  assert.ok(compared >= 40 && found > 50, `${compared} searches, ${found} positions reachable`);
});

test('nearest: same material and pawn structure first, then fewer pieces moved', () => {
  const { index } = indexes[0]!;
  // 1.a3 h6 2.Nf3: no book position can be reached (a3 and h6 never go back).
  const pos = at(STARTING_FEN, ['a3', 'h6', 'Nf3']);
  assert.equal(new ReachSearch(index).run(pos, { plies: 4 }).hits.length, 0);
  const near = nearestPositions(index, pos, 5);
  assert.equal(near.length, 5);
  for (let i = 1; i < near.length; i++) {
    const x = near[i - 1]!;
    const y = near[i]!;
    assert.ok([x.material, x.pawns, x.pieces, x.other].join() <= [y.material, y.pawns, y.pieces, y.other].join() || x.material < y.material || x.pawns < y.pawns || x.pieces < y.pieces);
  }
  assert.equal(near[0]!.material, 0);
  // The scan agrees with a direct count over the whole index for the nearest one.
  let bestPawns = Infinity;
  const here = new Int32Array(BOARD_WORDS);
  writeBoard(pos, here, 0);
  for (let i = 0; i < index.size; i++) {
    if (index.material[i] !== materialKey(here, 0)) continue;
    let d = 0;
    for (const c of [0, 1]) {
      const w = wordOf(c, 1);
      d += popcount(here[w]! ^ index.boards[i * BOARD_WORDS + w]!) + popcount(here[w + 1]! ^ index.boards[i * BOARD_WORDS + w + 1]!);
    }
    bestPawns = Math.min(bestPawns, d);
  }
  assert.equal(near[0]!.pawns, bestPawns);
});

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) n++;
  return n;
}

test('book reach on the CLI: .bin and .tbk, JSON and text, the nearest positions when nothing is reachable', () => {
  for (const f of ['small.bin', 'small.tbk']) {
    const r = tabiya(['book', 'reach', f, '--moves', sanMoves(games(0, 1)[0]!).slice(0, 6).join(' '), '--plies', '3', ...(f.endsWith('.tbk') ? ['--min-games', '1'] : []), '--json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.ok(j.found > 0 && j.reachable.length > 0, f);
    const first = j.reachable[0];
    assert.equal(first.san.length, first.plies);
    assert.ok(first.value > 0 && first.cooperation > 0 && first.cooperation <= 1);
    if (f.endsWith('.tbk')) assert.ok(first.games >= 1, 'a .tbk reports games at arrival');
    for (let i = 1; i < j.reachable.length; i++) assert.ok(j.reachable[i - 1].value >= j.reachable[i].value, 'best first');
    // Each arrival is the position after the line, the game's move counters included (chess.js
    // plays the line); the index's own board carries those of the book line that first met it.
    for (const h of j.reachable as { san: string[]; fen: string }[]) {
      const chess = new Chess(j.fen);
      for (const san of h.san) chess.move(san);
      const [board, turn, castling, , half, full] = chess.fen().split(' ');
      const ours = h.fen.split(' ');
      assert.deepEqual([ours[0], ours[1], ours[2], ours[4], ours[5]], [board, turn, castling, half, full], `${h.san.join(' ')}: ${h.fen}`);
    }
  }
  // One ply is "1 ply", in the header and on a line one move long (it said "1 plies").
  const one = tabiya(['book', 'reach', 'small.bin', '--moves', sanMoves(games(0, 1)[0]!).slice(0, 6).join(' '), '--plies', '1']);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /reachable within 1 ply: [1-9]/);
  assert.match(one.stdout, /\[1 ply, opponent/);
  assert.doesNotMatch(one.stdout, /\b1 plies\b/);
  const r = tabiya(['book', 'reach', 'small.bin', '--moves', 'a3 h6 Nf3']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /reachable within 4 plies: 0/);
  assert.match(r.stdout, /nothing reachable; nearest stored positions/);
  assert.match(r.stdout, /hints: /);
});

test('book reach refuses bad input with a clear message and a non-zero exit', () => {
  let r = tabiya(['book', 'reach', 'missing.bin']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /missing\.bin/);
  r = tabiya(['book', 'reach', 'small.bin', '--fen', 'rnbqkbnr/pppppppp/8/8 w KQkq - 0 1']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--fen/);
  for (const plies of ['0', '13', 'x']) {
    r = tabiya(['book', 'reach', 'small.bin', '--plies', plies]);
    assert.equal(r.code, 2, plies);
    assert.match(r.stderr, /--plies/);
  }
  // An option of the other format is refused, not ignored.
  r = tabiya(['book', 'reach', 'small.bin', '--min-games', '5']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--min-games applies to \.tbk books only/);
  writeFileSync(join(tmp, 'bad.bin'), Buffer.alloc(17, 1));
  r = tabiya(['book', 'reach', 'bad.bin']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /bad\.bin/);
});

// A one-line book whose third move throws the queen away: 1.e4 e5 2.Qh5 Nc6 3.Qxf7+ Kxf7.
// From 1.e4 e5 2.Qf3 Nc6 (out of book) 3.Qxf7+ reaches a book position in one ply, at a queen's cost.
const TRAP = '[Event "t"]\n[Result "1/2-1/2"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 1/2-1/2\n';
writeFileSync(join(tmp, 'trap.pgn'), TRAP);
assert.equal(tabiya(['book', 'make', 'trap.pgn', '-o', 'trap.bin', '--min-games', '1', '--quiet']).code, 0);

function uci(margin: number, book = 'trap.bin', go = 'go depth 4', bookReturn = true): string[] {
  const out: string[] = [];
  const server = new UciServer((l) => out.push(l), new LocalHost(new Engine({ wasm: wasmCoreModule() }), loadEngineBook));
  for (const l of [
    'uci',
    `setoption name BookFile value ${join(tmp, book)}`,
    `setoption name BookReturn value ${bookReturn}`,
    `setoption name BookReturnMargin value ${margin}`,
    'position startpos moves e2e4 e7e5 d1f3 b8c6',
    go,
  ]) {
    server.receive(l);
  }
  return out;
}

/** The score of the last info line with one. */
const lastScore = (out: string[]): number => Number(/ score cp (-?\d+)/.exec(out.filter((l) => / score cp /.test(l)).at(-1)!)![1]);

test('BookReturn in UCI: plays the returning move within the margin and says so; not beyond it', () => {
  let out = uci(1000);
  assert.match(out.at(-1)!, /^bestmove f3f7( |$)/);
  assert.match(out.find((l) => l.startsWith('info string BookReturn'))!, /^info string BookReturn: playing Qxf7\+ \(within 1000 cp of the best move\) toward book in 1 ply/);
  // The score said is the move's own: the margin that chose it is not in it.
  assert.ok(lastScore(out) < -300, `Qxf7+ gives the queen away, not ${lastScore(out)}`);
  // One search decides (not a second search of the return move alone).
  assert.equal(out.filter((l) => l.startsWith('info depth 1 ')).length, 1, out.join('\n'));
  out = uci(30);
  assert.notEqual(out.at(-1)!.split(' ')[1], 'f3f7');
  assert.match(out.find((l) => l.startsWith('info string BookReturn'))!, /Qxf7\+ would head for book in 1 ply .* but scores more than 30 cp below (\S+); playing \1$/);
  assert.equal(out.filter((l) => l.startsWith('info depth 1 ')).length, 1);
  assert.match(out.find((l) => l.startsWith('option name BookReturn '))!, /type check default false/);
  assert.match(out.find((l) => l.startsWith('option name BookReturnMargin '))!, /type spin default 30 min 0 max 1000/);
  // Off by default: no note, no return.
  const quiet: string[] = [];
  const server = new UciServer((l) => quiet.push(l), new LocalHost(new Engine({ wasm: wasmCoreModule() }), loadEngineBook));
  for (const l of [`setoption name BookFile value ${join(tmp, 'trap.bin')}`, 'position startpos moves e2e4 e7e5 d1f3 b8c6', 'go depth 4']) server.receive(l);
  assert.equal(quiet.filter((l) => l.startsWith('info string')).length, 0);
});

test('BookReturn decides by the margin: the return move is played when it costs less than the margin and not when it costs more, within the node limit', () => {
  // The cost of 3.Qxf7+ at this depth, from two plain searches: the best move, and Qxf7+ alone.
  const best = lastScore(uci(0, 'trap.bin', 'go depth 5', false));
  const alone = lastScore(uci(0, 'trap.bin', 'go depth 5 searchmoves f3f7', false));
  const cost = best - alone;
  assert.ok(cost > 300, `Qxf7+ costs ${cost}`);
  const played = (margin: number): string => uci(margin, 'trap.bin', 'go depth 5').at(-1)!.split(' ')[1]!;
  // BookReturnMargin goes up to 1000.
  const above = Math.min(1000, cost + 40);
  assert.ok(above > cost + 20, `Qxf7+ costs ${cost}`);
  assert.equal(played(above), 'f3f7');
  // (The search that decides is not the two plain ones: its own best may differ by a few tens of centipawns.)
  assert.notEqual(played(cost - 150), 'f3f7');
  // A node limit holds with BookReturn on: the search that decides is the only one.
  const limited = uci(1000, 'trap.bin', 'go nodes 3000');
  assert.match(limited.at(-1)!, /^bestmove f3f7/);
  const nodes = Math.max(...limited.filter((l) => / nodes /.test(l)).map((l) => Number(/ nodes (\d+)/.exec(l)![1])));
  assert.ok(nodes <= 3000 + 1024, `${nodes} nodes`);
});

test('BookReturn in xboard: the same choice, said in a # line before the move', () => {
  const run = (margin: number): string[] => {
    const out: string[] = [];
    const server = new XboardServer((l) => out.push(l), new LocalHost(new Engine({ wasm: wasmCoreModule() }), loadEngineBook));
    for (const l of ['xboard', 'protover 2', 'new', `option BookFile=${join(tmp, 'trap.bin')}`, 'option BookReturn=1', `option BookReturnMargin=${margin}`, 'force', 'usermove e2e4', 'usermove e7e5', 'usermove d1f3', 'usermove b8c6', 'sd 4', 'go']) {
      server.receive(l);
    }
    return out;
  };
  let out = run(1000);
  assert.match(out.find((l) => l.startsWith('feature'))!, /option="BookReturn -check 0" option="BookReturnMargin -spin 30 0 1000"/);
  const i = out.indexOf('move f3f7');
  assert.ok(i > 0, out.join('\n'));
  assert.match(out[i - 1]!, /^# BookReturn: playing Qxf7\+/);
  out = run(30);
  assert.ok(!out.includes('move f3f7'));
  assert.ok(out.some((l) => /^# BookReturn: Qxf7\+ would head for book/.test(l)));
  out = run(-5);
  assert.ok(out.some((l) => /BookReturnMargin/.test(l) && /Error|error/.test(l)), 'a margin out of range is refused');
});

test('BookReturn with a .tbk: only toward positions where the book scores at least 50% for the engine', () => {
  // The same line in two games (a .tbk line of one game is no book knowledge), drawn, then lost by White.
  const game = (result: string): string => `[Event "t"]\n[Result "${result}"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 ${result}\n\n`;
  writeFileSync(join(tmp, 'drawn.pgn'), game('1/2-1/2').repeat(2));
  writeFileSync(join(tmp, 'lost.pgn'), game('0-1').repeat(2));
  for (const name of ['drawn', 'lost']) assert.equal(tabiya(['book', 'make', `${name}.pgn`, '-o', `${name}.tbk`, '--quiet']).code, 0);
  let out = uci(1000, 'drawn.tbk');
  assert.match(out.at(-1)!, /^bestmove f3f7( |$)/);
  assert.match(out.find((l) => l.startsWith('info string BookReturn'))!, /playing Qxf7\+ .* result 0\.50\)/);
  out = uci(1000, 'lost.tbk');
  assert.ok(!out.some((l) => l.startsWith('info string BookReturn')), 'a book position where White lost every game is no place to return to');
  assert.doesNotMatch(out.at(-1)!, /^bestmove f3f7/);
});

test('the index file: saved and read back, it answers every search as the walk does; a damaged or foreign file is refused', () => {
  for (const { name, index } of indexes) {
    const bytes = encodeReachIndex(index, `book ${name}`, fastCrc32);
    const back = decodeReachIndex(bytes, `book ${name}`, fastCrc32);
    assert.ok(back.ok, back.ok ? '' : back.why);
    const copy = back.index;
    assert.equal(copy.size, index.size);
    assert.equal(copy.hasCounts, index.hasCounts);
    for (const [field, a] of Object.entries(index.save().arrays)) assert.deepEqual([...(copy.save().arrays as Record<string, Iterable<number>>)[field]!], [...(a as Iterable<number>)], `${name}: ${field}`);
    for (let i = 0; i < index.size; i += 11) assert.equal(copy.find(index.keyHi[i]!, index.keyLo[i]!), i);
    for (const pos of startPositions().slice(0, 12)) {
      const a = new ReachSearch(index).run(pos, { plies: 3 });
      const b = new ReachSearch(copy).run(pos, { plies: 3 });
      assert.deepEqual(b.hits, a.hits, `${name}: ${pos.keyHi}`);
    }
    const why = (b: Uint8Array, fp = `book ${name}`): string => {
      const r = decodeReachIndex(b, fp, fastCrc32);
      return r.ok ? 'accepted' : r.why;
    };
    assert.match(why(bytes, 'another book'), /another book/);
    assert.match(why(bytes.subarray(0, bytes.length - 9)), /checksum/);
    for (const at of [9, 40, bytes.length >> 1, bytes.length - 2]) {
      const bad = bytes.slice();
      bad[at]! ^= 0x10;
      assert.notEqual(why(bad), 'accepted', `flipped byte ${at}`);
    }
  }
});

test('book reach keeps the index between runs: read from the cache while the book is unchanged, walked again when it changes or the cache is damaged, never with --no-cache', () => {
  const cache = join(tmp, 'cache');
  const run = (args: string[]): { j: { index: { cached: boolean; positions: number; file?: string }; reachable: unknown[] }; stderr: string } => {
    const r = spawnSync(process.execPath, [MAIN, 'book', 'reach', 'cached.tbk', '--moves', 'e4 e5 Qh5', '--plies', '3', '--min-games', '1', '--json', ...args], {
      cwd: tmp,
      encoding: 'utf8',
      env: { ...process.env, TABIYA_CACHE_DIR: cache },
    });
    assert.equal(r.status, 0, r.stderr);
    return { j: JSON.parse(r.stdout), stderr: r.stderr };
  };
  const files = (): string[] => (existsSync(join(cache, 'reach')) ? readdirSync(join(cache, 'reach')) : []);
  copyFileSync(join(tmp, 'small.tbk'), join(tmp, 'cached.tbk'));
  const walked = run([]);
  assert.equal(walked.j.index.cached, false);
  assert.equal(files().length, 1);
  const read = run([]);
  assert.equal(read.j.index.cached, true);
  assert.equal(read.j.index.positions, walked.j.index.positions);
  assert.deepEqual(read.j.reachable, walked.j.reachable);
  // Another book under the same name: walked again, its entry replaced (still one file).
  const r = tabiya(['book', 'make', PGN, '-o', 'cached.tbk', '--max-ply', '10', '--min-games', '1', '--quiet', '--force']);
  assert.equal(r.code, 0, r.stderr);
  const changed = run([]);
  assert.equal(changed.j.index.cached, false);
  assert.ok(changed.j.index.positions < walked.j.index.positions, 'the new book (10 plies) is smaller');
  assert.equal(files().length, 1);
  assert.equal(run([]).j.index.cached, true);
  // A damaged cache file is said and rebuilt, with the same answer.
  const file = join(cache, 'reach', files()[0]!);
  const bytes = readFileSync(file);
  bytes[bytes.length >> 1]! ^= 1;
  writeFileSync(file, bytes);
  const repaired = run([]);
  assert.equal(repaired.j.index.cached, false);
  assert.match(repaired.stderr, /\.reach: checksum mismatch: the file is damaged; indexed the book again/);
  assert.deepEqual(repaired.j.reachable, changed.j.reachable);
  assert.equal(run([]).j.index.cached, true);
  // --no-cache walks and writes nothing.
  rmSync(join(cache, 'reach'), { recursive: true });
  assert.equal(run(['--no-cache']).j.index.cached, false);
  assert.deepEqual(files(), []);
});

test('the engine saves BookReturn\'s index at setoption and reads it back at the next start', () => {
  const cache = join(tmp, 'engine-cache');
  const script = ['uci', `setoption name BookFile value ${join(tmp, 'small.bin')}`, 'setoption name BookReturn value true', 'isready', 'quit'].join('\n') + '\n';
  const start = (): string => {
    const r = spawnSync(process.execPath, [MAIN, 'uci'], { input: script, encoding: 'utf8', env: { ...process.env, TABIYA_CACHE_DIR: cache } });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /readyok/);
    return readdirSync(join(cache, 'reach'))[0]!;
  };
  const name = start();
  const file = join(cache, 'reach', name);
  const first = statSync(file).mtimeMs;
  const saved = readFileSync(file);
  assert.equal(start(), name);
  assert.equal(statSync(file).mtimeMs, first, 'the second start read the index and wrote nothing');
  const r = decodeReachIndex(saved, JSON.parse(new TextDecoder().decode(saved.subarray(16, 16 + saved.readUInt32LE(12)))).fingerprint, fastCrc32);
  assert.ok(r.ok && r.index.size === indexes[0]!.index.size, 'the saved index is the book\'s');
});

test('a .tbk\'s positions no walk from the start reaches are indexed from its games (games set up from a FEN, transpositions of single games); a .bin says what it cannot index', () => {
  // Two games from the position a real game reached at ply 24, playing its next eight plies;
  // and two games that reach the Ruy Lopez by different move orders (each order in one game).
  const real = sanMoves(games(3, 1)[0]!);
  const fenAt = makeFen(at(STARTING_FEN, real.slice(0, 24)));
  const tail = real.slice(24, 32);
  const fenGame = (result: string): string => `[Event "from a FEN"]\n[SetUp "1"]\n[FEN "${fenAt}"]\n[Result "${result}"]\n\n${numbered(at(fenAt), tail)} ${result}\n`;
  const pgn = [
    fenGame('1-0'),
    fenGame('1/2-1/2'),
    '[Event "a"]\n[Result "1/2-1/2"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1/2-1/2\n',
    '[Event "b"]\n[Result "1/2-1/2"]\n\n1. Nf3 Nc6 2. e4 e5 3. Bb5 a6 4. Ba4 Nf6 1/2-1/2\n',
  ].join('\n');
  writeFileSync(join(tmp, 'roots.pgn'), pgn);
  for (const out of ['roots.tbk', 'roots.bin']) {
    const r = tabiya(['book', 'make', 'roots.pgn', '-o', out, '--min-games', '1', '--quiet']);
    assert.equal(r.code, 0, r.stderr);
  }
  const book = openBookForReading(join(tmp, 'roots.tbk'));
  const index = ReachIndex.build((p) => book.source.candidates(p), reachWalkOptions(book.source));
  // Every stored position of the book (two games or more) is in the index, and replays to its key.
  const opened = openAnyRichBook(join(tmp, 'roots.tbk'));
  const v2 = opened.v2!;
  let stored = 0;
  for (let b = 0; b < v2.blockCount; b++) {
    for (const p of v2.blockPositions(b)) {
      const i = index.find(p.keyHi | 0, p.keyLo | 0);
      assert.ok(i >= 0, `stored position ${keyToHex(p.keyHi, p.keyLo)} is indexed`);
      const board = index.position(i);
      assert.deepEqual([board.keyHi, board.keyLo], [index.keyHi[i], index.keyLo[i]]);
      stored++;
    }
  }
  opened.close();
  // The start, the eight positions of the FEN games, four of the Ruy Lopez after the transposition.
  assert.deepEqual([stored, index.fromOtherRoots], [13, 12]);
  // Recovered only where a game reached them before ply 4: the FEN games' positions (from their
  // own start), not the Ruy Lopez, which both its games reach at ply 4.
  assert.equal(ReachIndex.build((p) => book.source.candidates(p), reachWalkOptions(book.source, 2, 4)).fromOtherRoots, 8);
  // From the FEN game's second position, the search reaches its later positions.
  const inFenGame = at(fenAt, tail.slice(0, 1));
  const hits = new ReachSearch(index).run(inFenGame, { plies: 3 }).hits;
  assert.deepEqual(hits.map((h) => h.plies).sort(), [1, 2, 3]);
  // Saved and read back, a recovered position keeps its root.
  const back = decodeReachIndex(encodeReachIndex(index, 'roots', fastCrc32), 'roots', fastCrc32);
  assert.ok(back.ok);
  assert.equal(back.index.fromOtherRoots, index.fromOtherRoots);
  const last = index.size - 1;
  assert.equal(makeFen(back.index.position(last)), makeFen(index.position(last)));
  book.close();

  // The CLI: the .tbk says where the positions came from; the .bin, what it cannot index and why.
  const fen = makeFen(at(STARTING_FEN, ['e4', 'e5', 'Nf3', 'Nc6']));
  const tbk = JSON.parse(tabiya(['book', 'reach', 'roots.tbk', '--fen', fen, '--plies', '2', '--no-cache', '--json']).stdout);
  assert.ok(tbk.index.fromGames >= 12 && tbk.found >= 2, JSON.stringify(tbk.index));
  const bin = tabiya(['book', 'reach', 'roots.bin', '--fen', fen, '--plies', '2', '--no-cache']);
  assert.equal(bin.code, 0, bin.stderr);
  assert.match(bin.stdout, /not indexed: \d+ keys of the book that no book line from the start reaches \(a \.bin keeps keys, not boards or games/);
  const binJson = JSON.parse(tabiya(['book', 'reach', 'roots.bin', '--fen', fen, '--plies', '2', '--no-cache', '--json']).stdout);
  // The eight positions of the FEN games (the transposed lines are walked: a .bin follows moves of any weight).
  assert.deepEqual([binJson.index.notIndexed, binJson.index.fromGames], [8, 0]);
  // A key the index lacks is still a book position: `book probe` plays from it, so reach says
  // "in book" there, not "out of book".
  assert.match(tabiya(['book', 'probe', 'roots.bin', '--fen', fenAt]).stdout, new RegExp(`^${tail[0]!}\\s`, 'm'));
  const unindexed = tabiya(['book', 'reach', 'roots.bin', '--fen', fenAt, '--plies', '1', '--no-cache']);
  assert.equal(unindexed.code, 0, unindexed.stderr);
  assert.match(unindexed.stdout.split('\n')[0]!, / {2}in book$/);
  assert.equal(JSON.parse(tabiya(['book', 'reach', 'roots.bin', '--fen', fenAt, '--plies', '1', '--no-cache', '--json']).stdout).inBook, true);
});
