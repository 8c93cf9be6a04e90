/**
 * The WebAssembly core's search pieces (src/wasm: the stages of movegen.ts, legality.ts,
 * givesCheck.ts, draw.ts and the Position additions) against the TypeScript board and its one move generator
 * (the legal moves notation and books use), and the draw rule written out from its definition, on
 * the perft suites' positions, positions reached from them by seeded random play, and every
 * position of real games: the noisy and quiet stages are the legal moves, split by kind;
 * isLegalNotInCheck accepts exactly the legal moves, whatever 16-bit value it is given;
 * givesCheck for every legal move is whether the move, played, checks; check, insufficient
 * material, repetitions and the search's draw test (with null moves, and with the game history
 * loaded before the set-up position). Every test runs on the release build and on the checked
 * build (every array access bounds-checked).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { generateLegal } from '../src/core/movegen.js';
import { CASTLING, EN_PASSANT, KIND_MASK, PROMOTION } from '../src/core/move.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { BISHOP, KING, KNIGHT, MAX_MOVES, PAWN, QUEEN, ROOK } from '../src/core/types.js';
import type { WasmCore } from '../src/engine/wasm/core.js';
import { positionFromFen } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { loadWasmCore } from '../src/node/wasmCore.js';
import { mainLine, readGames } from '../src/pgn/game.js';
import { perftSuite } from './support/perftSuite.js';

const BUILDS = [false, true];
const buildName = (checked: boolean): string => (checked ? 'checked build' : 'release build');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A small seeded generator, so the played-into positions are the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const buf = new Uint16Array(MAX_MOVES);
function legalOf(pos: Position): number[] {
  return Array.from(buf.subarray(0, generateLegal(pos, buf, 0)));
}

/**
 * The search's draw rule, from its definition: the fifty-move rule, a position seen before
 * with the same side to move since the last irreversible move and since the line's last null
 * move (at ply `nullAt`), or insufficient material.
 */
function isDraw(pos: Position, nullAt = -1): boolean {
  if (pos.halfmoves >= 100) return true;
  const end = Math.max(pos.ply - pos.halfmoves, nullAt + 1);
  for (let i = pos.ply - 4; i >= end; i -= 2) if (pos.stack[(i << 2) + 2] === pos.keyLo && pos.stack[(i << 2) + 3] === pos.keyHi) return true;
  return pos.isInsufficientMaterial();
}

/** The side to move has a knight, bishop, rook or queen (null-move pruning needs one). */
const hasNonPawnMaterial = (pos: Position): boolean => [KNIGHT, BISHOP, ROOK, QUEEN].some((t) => Array.from(pos.board).includes((pos.turn << 3) | t));

/** Suite positions, then up to `plies` random plies from each (rights lost, en passant appears). */
function* suitePositions(name: string, every: number, plies: number, seed: number): Generator<Position> {
  const rand = lcg(seed);
  const entries = perftSuite(name).filter((_, i) => i % every === 0);
  for (const e of entries) {
    const pos = unwrap(positionFromFen(e.fen));
    yield pos;
    for (let p = 0; p < plies; p++) {
      const legal = legalOf(pos);
      if (legal.length === 0) break;
      pos.play(legal[Math.floor(rand() * legal.length)]!);
      yield pos;
    }
  }
}

const GAMES = (() => {
  const url = new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url);
  const text = gunzipSync(readFileSync(url)).toString('utf8');
  // The first games of the sample: enough for a few thousand positions.
  const head = text.split(/\n\n(?=\[Event )/).slice(0, 40).join('\n\n');
  return readGames(head).games.filter((g) => g.fen === undefined).map(mainLine);
})();

/** Every position of the sample games' main lines (the same Position, moves played in turn). */
function* gamePositions(): Generator<Position> {
  for (const sans of GAMES) {
    const pos = unwrap(positionFromFen(START));
    yield pos;
    for (const san of sans) {
      pos.play(unwrap(parseSan(pos, san)));
      yield pos;
    }
  }
}

function* allPositions(): Generator<Position> {
  yield* suitePositions('perft_standard.epd', 1, 12, 11);
  yield* suitePositions('perft_chess960.epd', 6, 12, 12);
  yield* gamePositions();
}

function assertSameState(core: WasmCore, pos: Position, what: string): void {
  const s = core.state();
  assert.deepEqual(s.board, Array.from(pos.board), `${what}: board`);
  assert.deepEqual(
    [s.turn, s.castling, s.epSquare, s.halfmoves, s.ply],
    [pos.turn, pos.castling, pos.epSquare, pos.halfmoves, pos.ply],
    `${what}: turn, castling, ep, halfmoves, ply`,
  );
  assert.deepEqual(core.key(), [pos.keyLo, pos.keyHi], `${what}: key`);
}

for (const checked of BUILDS) {
  test(`wasm search core (${buildName(checked)}): noisy and quiet stages are the legal moves split by kind; check, material`, (t) => {
    const core = loadWasmCore(checked);
    let positions = 0;
    let staged = 0;
    let moves = 0;
    for (const pos of allPositions()) {
      core.setPosition(pos);
      const where = `${buildName(checked)}, ply ${pos.ply}`;
      assert.deepEqual(core.legalMoves(), legalOf(pos), `${where}: legal moves`);
      assert.equal(core.inCheck(), pos.inCheck(), `${where}: inCheck`);
      assert.equal(core.isInsufficientMaterial(), pos.isInsufficientMaterial(), `${where}: insufficient material`);
      assert.equal(core.hasInsufficientMaterial(0), pos.hasInsufficientMaterial(0), `${where}: White insufficient`);
      assert.equal(core.hasInsufficientMaterial(1), pos.hasInsufficientMaterial(1), `${where}: Black insufficient`);
      assert.equal(core.hasNonPawnMaterial(), hasNonPawnMaterial(pos), `${where}: non-pawn material`);
      positions++;
      if (pos.inCheck()) continue;
      // Noisy: captures, en passant and promotions; quiet: the rest (castling, king takes own rook, too); each legal move once.
      const legal = legalOf(pos);
      const isNoisy = (m: number): boolean => (m & KIND_MASK) === EN_PASSANT || (m & KIND_MASK) === PROMOTION || ((m & KIND_MASK) !== CASTLING && pos.board[m & 63] !== 0);
      core.computePins(); // the stages take the node's pins, as the search gives them
      const noisy = core.noisyMoves();
      const quiet = core.quietMoves();
      // In generateLegal's order, except that the stages write the king's moves after the
      // sliders' (the search breaks ties in move ordering by this order: the bench signature).
      const group = (m: number): number => {
        const type = pos.board[(m >>> 6) & 63]! & 7;
        if ((m & KIND_MASK) === CASTLING) return 3;
        return type === KING ? 1 : type === PAWN ? 2 : 0;
      };
      const stageOrder = (ms: number[]): number[] => ms.sort((a, b) => group(a) - group(b));
      assert.deepEqual(noisy, stageOrder(legal.filter(isNoisy)), `${where}: noisy moves`);
      assert.deepEqual(quiet, stageOrder(legal.filter((m) => !isNoisy(m))), `${where}: quiet moves`);
      assert.equal(new Set([...noisy, ...quiet]).size, legal.length, `${where}: no move twice`);
      staged++;
      moves += noisy.length + quiet.length;
    }
    t.diagnostic(`${positions} positions, ${staged} not in check, ${moves} staged moves`);
    assert.ok(positions > 5000, `${positions} positions`);
    assert.ok(staged > 4000, `${staged} positions not in check`);
    assert.ok(moves > 100000, `${moves} staged moves`);
  });

  test(`wasm search core (${buildName(checked)}): isLegalNotInCheck on moves of other positions and random values`, (t) => {
    const core = loadWasmCore(checked);
    const rand = lcg(99);
    // Moves of the last positions seen: hash moves, killers and counter-moves come from there.
    const pool: number[] = [];
    let asked = 0;
    let legalCount = 0;
    for (const pos of allPositions()) {
      const legal = legalOf(pos);
      if (!pos.inCheck()) {
        core.setPosition(pos, false);
        core.computePins();
        const legalSet = new Set(legal);
        const ask = (m: number): void => {
          const expected = legalSet.has(m);
          assert.equal(core.isLegalNotInCheck(m), expected, `${buildName(checked)}: move ${m} at ply ${pos.ply}`);
          asked++;
          if (expected) legalCount++;
        };
        for (const m of legal) ask(m);
        for (const m of pool) ask(m);
        for (let i = 0; i < 16; i++) ask(Math.floor(rand() * 65536));
      }
      for (const m of legal) {
        if (pool.length < 400) pool.push(m);
        else pool[Math.floor(rand() * pool.length)] = m;
      }
    }
    t.diagnostic(`${asked} moves asked, ${legalCount} legal`);
    assert.ok(asked > 1000000, `${asked} moves asked`);
    assert.ok(legalCount > 150000, `${legalCount} legal`);
  });

  test(`wasm search core (${buildName(checked)}): givesCheck for every legal move`, (t) => {
    const core = loadWasmCore(checked);
    let checks = 0;
    let moves = 0;
    for (const pos of allPositions()) {
      core.setPosition(pos, false);
      core.prepareCheckInfo();
      for (const m of legalOf(pos)) {
        pos.play(m);
        const gc = pos.inCheck();
        pos.undo();
        assert.equal(core.givesCheck(m), gc, `${buildName(checked)}: givesCheck ${m} at ply ${pos.ply}`);
        if (gc) checks++;
        moves++;
      }
    }
    t.diagnostic(`${moves} moves, ${checks} checking`);
    assert.ok(moves > 150000, `${moves} moves`);
    assert.ok(checks > 3000, `${checks} checking moves`);
  });

  test(`wasm search core (${buildName(checked)}): repetitions and the draw test while moves and null moves shuffle back and forth`, (t) => {
    const core = loadWasmCore(checked);
    const rand = lcg(5);
    let draws = 0;
    let nulls = 0;
    let cutByNull = 0;
    let steps = 0;
    const entries = perftSuite('perft_standard.epd').filter((_, i) => i % 3 === 0);
    for (const e of entries) {
      const pos = unwrap(positionFromFen(e.fen));
      core.setPosition(pos);
      // Stack of nullAt values as the search keeps them: the ply of the line's last null move.
      let nullAt = -1;
      const nullStack: number[] = [];
      const played: number[] = [];
      for (let p = 0; p < 40; p++) {
        const legal = legalOf(pos);
        const r = rand();
        let m = -1;
        if (r < 0.08 && !pos.inCheck() && played.length > 0 && played[played.length - 1] !== 0) {
          m = 0; // null move
        } else if (r < 0.14 && played.length > 0) {
          m = -2; // take a move back
        } else if (legal.length === 0) {
          break;
        } else if (r < 0.8 && played.length >= 2) {
          // Move the piece moved two plies ago back where it came from, if that is legal.
          const prev = played[played.length - 2]!;
          const back = ((prev & 63) << 6) | ((prev >>> 6) & 63);
          m = prev > 0 && prev < 4096 && legal.includes(back) ? back : legal[Math.floor(rand() * legal.length)]!;
        } else {
          m = legal[Math.floor(rand() * legal.length)]!;
        }
        if (m === -2) {
          const last = played.pop()!;
          pos.undo();
          core.undo();
          if (last === 0) nullAt = nullStack.pop()!;
        } else if (m === 0) {
          nullStack.push(nullAt);
          nullAt = pos.ply;
          pos.playNull();
          core.playNull();
          played.push(0);
          nulls++;
        } else {
          pos.play(m);
          core.play(m);
          played.push(m);
        }
        const where = `${buildName(checked)}: ${e.fen} after ${played.join(' ')}`;
        assertSameState(core, pos, where);
        for (const limit of [1, 2, 3]) assert.equal(core.repetitions(limit), pos.repetitions(limit), `${where}: repetitions(${limit})`);
        const d = isDraw(pos, nullAt);
        assert.equal(core.isDraw(nullAt), d, `${where}: isDraw (null move at ${nullAt})`);
        const d1 = isDraw(pos);
        assert.equal(core.isDraw(-1), d1, `${where}: isDraw ignoring null moves`);
        if (d) draws++;
        if (d !== d1) cutByNull++;
        steps++;
      }
    }
    t.diagnostic(`${steps} steps, ${draws} draws, ${nulls} null moves, ${cutByNull} repetitions across a null move not counted`);
    assert.ok(steps > 1500, `${steps} steps`);
    assert.ok(draws > 200, `${draws} draws`);
    assert.ok(nulls > 100, `${nulls} null moves`);
    assert.ok(cutByNull > 0, `${cutByNull} repetitions across a null move`);
  });

  test(`wasm search core (${buildName(checked)}): the game history before the set-up position (repetitions, draws, undo)`, (t) => {
    const core = loadWasmCore(checked);
    let positions = 0;
    let draws = 0;
    let games = 0;
    for (const sans of GAMES) {
      const pos = unwrap(positionFromFen(START));
      const moves: number[] = [];
      for (const san of sans) {
        const m = unwrap(parseSan(pos, san));
        moves.push(m);
        pos.play(m);
      }
      // Set up at every ply k with the history of plies 0..k-1, then play the rest of the
      // game in the core: each of its positions sees the repetitions the TypeScript board sees.
      const stride = Math.max(1, moves.length >> 3);
      for (let k = 0; k <= moves.length; k += stride) {
        const at = unwrap(positionFromFen(START));
        for (let i = 0; i < k; i++) at.play(moves[i]!);
        core.setPosition(at);
        assertSameState(core, at, `game ${games} set up at ply ${k}`);
        for (let i = k; i <= moves.length; i++) {
          const where = `${buildName(checked)}: game ${games}, set up at ply ${k}, ply ${i}`;
          assert.equal(core.repetitions(2), at.repetitions(2), `${where}: repetitions`);
          const d = isDraw(at);
          assert.equal(core.isDraw(-1), d, `${where}: isDraw`);
          if (d) draws++;
          positions++;
          if (i < moves.length) {
            at.play(moves[i]!);
            core.play(moves[i]!);
          }
        }
        // Without the history, the same position is set up at ply 0.
        core.setPosition(at, false);
        assert.equal(core.state().ply, 0);
        assert.deepEqual(core.key(), [pos.keyLo, pos.keyHi]);
      }
      // The loaded history can be taken back to the start position.
      core.setPosition(pos);
      for (let i = moves.length; i > 0; i--) {
        pos.undo();
        core.undo();
      }
      assertSameState(core, pos, `${buildName(checked)}: game ${games} taken back to the start`);
      games++;
    }
    t.diagnostic(`${games} games, ${positions} positions, ${draws} draws`);
    assert.ok(games >= 30, `${games} games`);
    assert.ok(positions > 10000, `${positions} positions`);
    assert.ok(draws > 0, `${draws} draws`);
  });
}

test('wasm search core: a repetition four plies after the set-up is a draw', () => {
  const core = loadWasmCore(true);
  const pos = unwrap(positionFromFen('4k3/8/8/8/8/8/8/R3K3 w - - 20 40'));
  core.setPosition(pos);
  assert.equal(core.isDraw(-1), false);
  // Rook out and back on both sides: the position repeats after four plies.
  for (const uci of [[0, 8], [60, 59], [8, 0], [59, 60]]) {
    const m = (uci[0]! << 6) | uci[1]!;
    pos.play(m);
    core.play(m);
  }
  assert.equal(core.repetitions(2), 1);
  assert.equal(core.isDraw(-1), true);
  assert.equal(isDraw(pos), true);
});
