/**
 * W/D/L count each game once per (position, move), as the Lichess explorer counts: a game that
 * plays the same move from the same position again (a repetition) adds to the move's games once,
 * and its further occurrences only to make-book's counters, which count every occurrence. The
 * oracle is chessops replaying the games on its own; the `.bin` export is checked against
 * polyglot make-book itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeFen as opsMakeFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { mergeTbk } from '../src/book/node/tbkCombine.js';
import { FileReader } from '../src/book/node/tbkFile.js';
import { FLAG_GAMES_ONCE } from '../src/book/rich/container.js';
import { TbkBook } from '../src/book/rich/tbkBook.js';
import { unwrap } from '../src/core/result.js';
import { positionFromFen } from '../src/notation/fen.js';
import { makeUci } from '../src/notation/uci.js';
import { startServer } from '../src/serve/server.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const POLYGLOT = '/usr/games/polyglot';
const FIXTURE = fileURLToPath(new URL('../../test/fixtures/counted-each-time.tbk', import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-games-once-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
process.env.SOURCE_DATE_EPOCH = '1700000000';

function open(path: string): TbkBook {
  const r = TbkBook.open(new FileReader(path), path, fastCrc32);
  if (!r.ok) throw r.error;
  return r.value;
}

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
}

/** What chessops says of one (position, move): games (each once), results by game, every occurrence. */
interface Counted {
  fen: string;
  uci: string;
  wins: number;
  draws: number;
  losses: number;
  unfinished: number;
  rated: number;
  occurrences: number;
  lastGame: number;
}

const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n(?=\[Event )/);

/**
 * Replays every game with chessops and counts as the Lichess explorer does (lila-openingexplorer's
 * importer: a game counts once a position, under the last move it played there), every
 * occurrence as make-book does; keys by tabiya's Polyglot key of chessops's FEN, so the grouping
 * matches the book's. Also the games that reached each repeated position. chessops and not
 * chess.js: both give the same 164,877 (FEN, move) pairs for the sample, but every chess.js Move
 * carries a SAN made from a full legal-move list and two FENs, 10 times the CPU of this replay.
 */
function countWithChessops(): { moves: Map<string, Counted>; reached: Map<string, { fen: string; games: number }> } {
  const moves = new Map<string, Counted>();
  const reached = new Map<string, { fen: string; games: number }>();
  /** Games that reached each position, each once. */
  const reaching = new Map<string, number>();
  games.forEach((text) => {
    const game = parsePgn(text)[0]!;
    const pos = startingPosition(game.headers).unwrap();
    const result = /\[Result "([^"]*)"\]/.exec(text)?.[1] ?? '*';
    const elo = (side: string): number => {
      const v = new RegExp(`\\[${side}Elo "(\\d+)"\\]`).exec(text)?.[1];
      return v !== undefined && Number(v) >= 100 && Number(v) <= 4000 ? Number(v) : 0;
    };
    const plies: { m: { before: string; uci: string; color: 'w' | 'b' }; key: string }[] = [];
    for (const node of game.moves.mainline()) {
      const move = parseSan(pos, node.san);
      assert.ok(move !== undefined && 'from' in move, `chessops cannot play ${node.san} in ${opsMakeFen(pos.toSetup())}`);
      const before = opsMakeFen(pos.toSetup());
      // chessops writes castling as the king taking its rook (e1h1); UCI's standard form, and the
      // book's, is the king's two-square move (e1g1).
      const castles = pos.board.get(move.from)?.role === 'king' && pos.board.get(move.to)?.role === 'rook' && pos.board.get(move.to)?.color === pos.turn;
      const to = castles ? (move.to & ~7) | (move.to > move.from ? 6 : 2) : move.to;
      const uci = makeSquare(move.from) + makeSquare(to) + (move.promotion === undefined ? '' : move.promotion === 'knight' ? 'n' : move.promotion[0]!);
      const p = unwrap(positionFromFen(before));
      plies.push({ m: { before, uci, color: pos.turn === 'white' ? 'w' : 'b' }, key: `${p.keyHi >>> 0}:${p.keyLo >>> 0}` });
      pos.play(move);
    }
    const last = new Map<string, number>();
    plies.forEach((p, i) => last.set(p.key, i));
    plies.forEach(({ m, key }, i) => {
      const uci = m.uci;
      const k = `${key}:${uci}`;
      let e = moves.get(k);
      if (e === undefined) moves.set(k, (e = { fen: m.before, uci, wins: 0, draws: 0, losses: 0, unfinished: 0, rated: 0, occurrences: 0, lastGame: -1 }));
      e.occurrences++;
      if (last.get(key) !== i) {
        // An earlier visit of a position the game comes back to.
        const r = reached.get(key) ?? { fen: m.before, games: 0 };
        reached.set(key, r);
        return;
      }
      const white = m.color === 'w';
      if (result === '1/2-1/2') e.draws++;
      else if (result === (white ? '1-0' : '0-1')) e.wins++;
      else if (result === (white ? '0-1' : '1-0')) e.losses++;
      else e.unfinished++;
      if (elo(white ? 'White' : 'Black') > 0) e.rated++;
    });
    for (const key of last.keys()) reaching.set(key, (reaching.get(key) ?? 0) + 1);
  });
  for (const [key, r] of reached) r.games = reaching.get(key)!;
  return { moves, reached };
}

test('each game counts once a position, under its last move there (as the Lichess explorer), and make-book counters count every occurrence, as chessops and polyglot count them', async () => {
  const path = join(tmp, 'sample.tbk');
  await buildTbk(path, { inputs: [SAMPLE_GZ], tmpDir: tmp });
  const book = open(path);
  assert.notEqual(book.fields.flags & FLAG_GAMES_ONCE, 0, 'a new build says its W/D/L count each game once');
  const { moves, reached } = countWithChessops();
  let repeated = 0;
  let checked = 0;
  for (const e of moves.values()) {
    const games = e.wins + e.draws + e.losses + e.unfinished;
    if (e.occurrences < 2 && games === e.occurrences) continue;
    const pos = unwrap(positionFromFen(e.fen));
    const got = book.probe(pos).find((x) => makeUci(x.move) === e.uci || makeUci(x.move).slice(0, 4) === e.uci.slice(0, 4));
    assert.ok(got !== undefined, `${e.fen} ${e.uci} is in the book`);
    assert.deepEqual([got.wins, got.draws, got.losses, got.unfinished, got.ratedGames], [e.wins, e.draws, e.losses, e.unfinished, e.rated], `${e.fen} ${e.uci}: W/D/L/unfinished/rated per game`);
    assert.equal(got.pgN, e.occurrences, `${e.fen} ${e.uci}: make-book's n counts every occurrence`);
    if (e.occurrences > games) repeated++;
    checked++;
  }
  assert.ok(checked > 4_000, `${checked} moves checked`);
  assert.ok(repeated >= 50, `${repeated} moves some game repeated`);
  // A repeated position's moves add up to the games that reached it.
  let positions = 0;
  for (const r of reached.values()) {
    const sum = book.probe(unwrap(positionFromFen(r.fen))).reduce((n, x) => n + x.wins + x.draws + x.losses + x.unfinished, 0);
    assert.equal(sum, r.games, `${r.fen}: its moves' games are the games that reached it`);
    positions++;
  }
  assert.ok(positions >= 50, `${positions} repeated positions`);

  // The Polyglot export is still make-book's, byte for byte.
  const bin = join(tmp, 'sample.bin');
  const want = join(tmp, 'polyglot.bin');
  const pgn = join(tmp, 'sample.pgn');
  writeFileSync(pgn, games.join('\n'));
  assert.equal(cli('book', 'export', path, '-o', bin).status, 0);
  assert.equal(spawnSync(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', want]).status, 0);
  assert.ok(readFileSync(bin).equals(readFileSync(want)), 'the export is polyglot make-book');
});

test('a repetition counts once whether the build spilled between its occurrences, ran on threads, or was sharded and merged', async () => {
  // One game repeats 2.Nf3 three times (3.Ng1 Nb8 4.Nf3 Nc6 5.Ng1 Nb8 6.Nf3), then ordinary games.
  const rep = '[Event "rep"]\n[Result "1/2-1/2"]\n[WhiteElo "2500"]\n[BlackElo "2400"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3 Nc6 5. Ng1 Nb8 6. Nf3 1/2-1/2\n';
  const pgn = join(tmp, 'rep.pgn');
  // 509 games of two plies fill 1,018 of the smallest log's 1,024 records, so the first repeating
  // game's 2.Nf3 (its ply 2: record 1,020) is logged before the log spills and its 4.Nf3 (record
  // 1,024) after: the repeat lands in another run than the occurrence that counts.
  const filler = '[Event "f"]\n[Result "1-0"]\n\n1. d4 d5 1-0\n';
  writeFileSync(pgn, [...Array<string>(509).fill(filler), rep, ...games.slice(0, 300), rep].join('\n'));
  const paths = { whole: join(tmp, 'whole.tbk'), spilled: join(tmp, 'spilled.tbk'), threads: join(tmp, 'threads.tbk'), merged: join(tmp, 'merged.tbk') };
  const whole = await buildTbk(paths.whole, { inputs: [pgn], tmpDir: tmp });
  assert.equal(whole.runs, 0);
  const spilled = await buildTbk(paths.spilled, { inputs: [pgn], tmpDir: tmp, memory: 1024 * 24, rangeThreads: 0 });
  assert.ok(spilled.runs > 10, `${spilled.runs} runs`);
  assert.ok(readFileSync(paths.whole).equals(readFileSync(paths.spilled)), 'spilled: the same book, byte for byte');
  await buildTbk(paths.threads, { inputs: [pgn], tmpDir: tmp, threads: 2, memory: 1 << 30 });
  const parts = [0, 1, 2].map((i) => join(tmp, `part${i}.tbk`));
  for (let i = 0; i < 3; i++) assert.equal(cli('book', 'make', pgn, '--shard', `${i}/3`, '-o', parts[i]!).status, 0);
  await mergeTbk(parts, paths.merged, { tmpDir: tmp });
  const after = unwrap(positionFromFen('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'));
  const nf3 = (path: string): string => {
    const e = open(path).probe(after).find((x) => makeUci(x.move) === 'g1f3')!;
    return [e.wins + e.draws + e.losses + e.unfinished, e.draws, e.pgN, e.pgSum].join(',');
  };
  const once = nf3(paths.whole);
  const [n, draws, pgN, pgSum] = once.split(',').map(Number);
  // The two repeating games count once each, and twice more each in make-book's n.
  assert.equal(pgN, n! + 4);
  assert.equal(pgSum! - draws! >= 4, true);
  for (const [name, p] of Object.entries(paths)) assert.equal(nf3(p), once, name);
  const a = join(tmp, 'a.bin');
  assert.equal(cli('book', 'export', paths.whole, '-o', a).status, 0);
  for (const p of [paths.spilled, paths.threads, paths.merged]) {
    const b = join(tmp, 'b.bin');
    assert.equal(cli('book', 'export', p, '-o', b, '--force').status, 0);
    assert.ok(readFileSync(a).equals(readFileSync(b)), `${p}: the same .bin`);
  }
  assert.match(cli('book', 'info', paths.merged).stdout, /W\/D\/L +: each game once a position/);
});

test('a book whose superblock has a flag this version does not know is refused, naming why', async () => {
  const path = join(tmp, 'later.tbk');
  // What the book holds does not matter here, only its superblock: a few games are enough.
  const pgn = join(tmp, 'later.pgn');
  writeFileSync(pgn, games.slice(0, 20).join('\n'));
  await buildTbk(path, { inputs: [pgn], tmpDir: tmp, maxPly: 8 });
  const bytes = readFileSync(path);
  // Both slots: flags at byte 16 of each, then the slot's CRC-32 of bytes 4..1023 again.
  for (const at of [64, 1088]) {
    const flags = bytes.readUInt32LE(at + 16);
    if (bytes.readUInt32LE(at + 4) === 0) continue;
    bytes.writeUInt32LE(flags | 0x100, at + 16);
    bytes.writeUInt32LE(fastCrc32(bytes.subarray(at + 4, at + 1024), 0) >>> 0, at);
  }
  writeFileSync(path, bytes);
  const r = cli('book', 'info', path);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /unknown flags 0x100: the book was written by a later version of tabiya/);
});

test('book upgrade counts the games of a book made before repeats were kept apart again: the book a build makes now, notes and .bin kept', async () => {
  // test/fixtures/counted-each-time.tbk: `tabiya book make` of 1a044a4 (W/D/L counted a repeated
  // move each time) on this PGN, with SOURCE_DATE_EPOCH=1700000000.
  const rep = '[Event "rep"]\n[Result "1/2-1/2"]\n[WhiteElo "2500"]\n[BlackElo "2400"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3 Nc6 5. Ng1 Nb8 6. Nf3 1/2-1/2\n';
  const pgn = join(tmp, 'fixture.pgn');
  writeFileSync(pgn, [rep, ...games.slice(0, 150), rep].join('\n'));
  const old = join(tmp, 'old.tbk');
  writeFileSync(old, readFileSync(FIXTURE));
  assert.match(cli('book', 'info', old).stdout, /W\/D\/L +: a repeated move counts each time it was played/);
  const nf3 = (path: string): number[] => {
    const after = unwrap(positionFromFen('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'));
    const e = open(path).probe(after).find((x) => makeUci(x.move) === 'g1f3')!;
    return [e.wins, e.draws, e.losses, e.pgN, e.pgSum];
  };
  const before = nf3(old);
  const binBefore = join(tmp, 'before.bin');
  assert.equal(cli('book', 'export', old, '-o', binBefore).status, 0);
  assert.equal(cli('book', 'set', old, '--moves', 'e4 e5', '--move', 'Nf3', '--value', '100').status, 0);

  // Into another file first: the book itself is left as it was.
  const copy = join(tmp, 'recounted.tbk');
  const r = cli('book', 'upgrade', old, '-o', copy);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /counted the 152 games of .*old\.tbk again, each once a position: \d+ moves had counted a game that repeated a position/);
  assert.deepEqual(nf3(old), before);
  const up = cli('book', 'upgrade', old);
  assert.equal(up.status, 0, up.stderr);
  const after = nf3(old);
  assert.deepEqual(after, nf3(copy));
  // The repeating games counted once; make-book's counters as they were.
  assert.equal(after[1], before[1]! - 4, 'two games repeated 2.Nf3 twice each');
  assert.deepEqual(after.slice(3), before.slice(3));

  // Every stored position is what a build makes today from the same games.
  const fresh = join(tmp, 'fresh.tbk');
  await buildTbk(fresh, { inputs: [pgn], tmpDir: tmp });
  const positions = (path: string): string => {
    const b = open(path);
    const out: string[] = [];
    for (let i = 0; i < b.blockCount; i++) for (const p of b.blockPositions(i)) out.push(JSON.stringify(p));
    return out.join('\n');
  };
  assert.equal(positions(old), positions(fresh));
  const u = open(old);
  assert.notEqual(u.fields.flags & FLAG_GAMES_ONCE, 0);
  assert.equal(u.probe(unwrap(positionFromFen('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'))).find((x) => makeUci(x.move) === 'g1f3')!.userValue, 100, 'the user value is kept');
  const binAfter = join(tmp, 'after.bin');
  assert.equal(cli('book', 'export', old, '-o', binAfter).status, 0);
  assert.ok(readFileSync(binAfter).equals(readFileSync(binBefore)), 'the Polyglot export is unchanged');

  // Once is enough.
  const again = cli('book', 'upgrade', old);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /already a version 2 book that counts each game once a position: nothing to upgrade/);
});

test('book upgrade of a book made before repeats were kept apart and then added to counts only the moves whose stored counts changed', async () => {
  const old = join(tmp, 'mixed.tbk');
  writeFileSync(old, readFileSync(FIXTURE));
  // Added games count once a position already: this one's repeats (2.Nc3 Nc6 3.Nb1 Nb8 twice) are kept apart.
  const pgn = join(tmp, 'mixed-added.pgn');
  writeFileSync(pgn, '[Event "x"]\n[Result "1-0"]\n\n1. c4 c5 2. Nc3 Nc6 3. Nb1 Nb8 4. Nc3 Nc6 5. Nb1 Nb8 6. Nc3 Nc6 1-0\n');
  assert.equal(cli('book', 'add', old, pgn).status, 0);
  assert.match(cli('book', 'info', old).stdout, /W\/D\/L +: a repeated move counts each time it was played/, 'a book added to stays of the older kind');
  const stored = (path: string): Map<string, string> => {
    const b = open(path);
    const out = new Map<string, string>();
    for (let i = 0; i < b.blockCount; i++) for (const p of b.blockPositions(i)) for (const { move, ...counts } of p.moves) out.set(`${p.keyHi}:${p.keyLo}:${move}`, JSON.stringify(counts));
    return out;
  };
  const before = stored(old);
  const r = cli('book', 'upgrade', old, '--json');
  assert.equal(r.status, 0, r.stderr);
  const after = stored(old);
  assert.equal(after.size, before.size);
  const changed = [...after].filter(([k, v]) => before.get(k) !== v).length;
  assert.ok(changed > 0);
  assert.equal((JSON.parse(r.stdout) as { movesChanged: number }).movesChanged, changed, 'the summary counts the moves whose stored counts changed, not those the added game repeated');
});

test('a book imported from a .bin counts no game twice: games added to it or merged with it count once a position, as book info says', async () => {
  const pgn = join(tmp, 'imported.pgn');
  writeFileSync(pgn, games.slice(0, 200).join('\n'));
  const bin = join(tmp, 'imported.bin');
  assert.equal(cli('book', 'make', pgn, '-o', bin).status, 0);
  const imported = join(tmp, 'imported.tbk');
  assert.equal(cli('book', 'import', bin, '-o', imported).status, 0);
  const fresh = join(tmp, 'fresh200.tbk');
  await buildTbk(fresh, { inputs: [pgn], tmpDir: tmp });
  const merged = join(tmp, 'imported-merged.tbk');
  await mergeTbk([imported, fresh], merged, { tmpDir: tmp });
  assert.equal(cli('book', 'add', imported, pgn).status, 0);
  for (const path of [imported, merged]) {
    assert.notEqual(open(path).fields.flags & FLAG_GAMES_ONCE, 0, path);
    assert.match(cli('book', 'info', path).stdout, /W\/D\/L +: each game once a position/, path);
  }
});

test('a game that leaves a position by two moves counts under the last one only: the position\'s moves add up to its games', async () => {
  // After 1.e4 e5 the game plays 2.Nf3, comes back (2...Nc6 3.Ng1 Nb8) and plays 4.Nc3.
  const pgn = join(tmp, 'two-moves.pgn');
  writeFileSync(pgn, '[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nc3 1-0\n\n[Event "b"]\n[Result "0-1"]\n\n1. e4 e5 2. Nf3 0-1\n');
  const path = join(tmp, 'two-moves.tbk');
  await buildTbk(path, { inputs: [pgn], tmpDir: tmp });
  const after = unwrap(positionFromFen('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'));
  const got = Object.fromEntries(open(path).probe(after).map((e) => [makeUci(e.move), [e.wins, e.draws, e.losses, e.pgN]]));
  // Nf3: game b's loss, and game a's first visit as a repeat (make-book counts it); Nc3: game a's win.
  assert.deepEqual(got, { g1f3: [0, 0, 1, 2], b1c3: [1, 0, 0, 1] });
  const bin = join(tmp, 'two-moves.bin');
  const want = join(tmp, 'two-moves-polyglot.bin');
  assert.equal(cli('book', 'export', path, '-o', bin).status, 0);
  assert.equal(spawnSync(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', want]).status, 0);
  assert.ok(readFileSync(bin).equals(readFileSync(want)), 'the export is polyglot make-book');
});

test('the explorer shows a move a game played only before it came back as played (a repeat, with how often), not as added by hand', async () => {
  // 2.Nf3 at the first visit of the position after 1.e4 e5, 4.Nc3 at the last; White lost, so
  // Nf3 has no game and make-book's weight 0, but one occurrence.
  const pgn = join(tmp, 'lost-repeat.pgn');
  writeFileSync(pgn, '[Event "a"]\n[Result "0-1"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nc3 0-1\n');
  const path = join(tmp, 'lost-repeat.tbk');
  await buildTbk(path, { inputs: [pgn], tmpDir: tmp });
  const server = await startServer({ books: [path], port: 0, host: '127.0.0.1' });
  try {
    const r = await fetch(new URL('/api/explorer?book=lost-repeat.tbk&play=e2e4,e7e5', server.url));
    const moves = ((await r.json()) as { moves: { uci: string; byHand: boolean; repeats: number | null; white: number; draws: number; black: number }[] }).moves;
    assert.deepEqual(moves.map((m) => [m.uci, m.byHand, m.white + m.draws + m.black, m.repeats]).sort(), [['b1c3', false, 1, 0], ['g1f3', false, 0, 1]]);
  } finally {
    await server.close();
  }
});
