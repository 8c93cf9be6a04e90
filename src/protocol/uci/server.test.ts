import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legalMoves } from '../../core/movegen.js';
import { unwrap } from '../../core/result.js';
import type { LearnGame } from '../../engine/bookProbe.js';
import { LocalHost, type EngineConfig, type EngineHost, type GoRequest, type WireBest, type WireInfo } from '../../engine/host.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../../notation/fen.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import { ScriptedHost } from '../../../test/support/scriptedHost.js';
import { UciServer } from './server.js';
import { parseGo } from './go.js';
import { Engine } from '../../engine/engine.js';
import { wasmCoreModule } from '../../node/wasmCore.js';

/** A UCI server on a same-thread engine, with the lines it wrote. */
function session(host: EngineHost = new LocalHost(new Engine({ wasm: wasmCoreModule() }))): { out: string[]; send: (...lines: string[]) => string[] } {
  const out: string[] = [];
  const server = new UciServer((l) => out.push(l), host);
  return {
    out,
    send(...lines: string[]): string[] {
      const from = out.length;
      for (const l of lines) server.receive(l);
      return out.slice(from);
    },
  };
}

/** A host that records what it is asked and answers go with a fixed move. */
class RecordingHost implements EngineHost {
  readonly calls: string[] = [];
  readonly configs: Partial<EngineConfig>[] = [];
  readonly learned: LearnGame[] = [];
  lastGo: GoRequest | undefined;
  configure(c: Partial<EngineConfig>): void {
    this.configs.push(c);
  }
  clearHash(): void {
    this.calls.push('clearHash');
  }
  newGame(): void {
    this.calls.push('newGame');
  }
  go(req: GoRequest, _onInfo: (i: WireInfo) => void, onBest: (b: WireBest) => void): void {
    this.lastGo = req;
    const pos = unwrap(positionFromFen(req.fen));
    for (const m of req.moves) pos.play(unwrap(parseUci(pos, m)));
    const moves = legalMoves(pos);
    onBest({ best: moves.length ? makeUci(moves[0]!) : null, ponder: null, depth: 1, nodes: 1 });
  }
  stop(): void {
    this.calls.push('stop');
  }
  ponderhit(): void {
    this.calls.push('ponderhit');
  }
  learn(game: LearnGame): void {
    this.learned.push(game);
  }
  close(): void {
    this.calls.push('close');
  }
}

test('handshake: id, every option, then uciok; isready answers readyok', () => {
  const s = session();
  const lines = s.send('uci');
  assert.match(lines[0]!, /^id name tabiya/);
  assert.match(lines[1]!, /^id author /);
  assert.equal(lines.at(-1), 'uciok');
  const names = lines.filter((l) => l.startsWith('option name ')).map((l) => /^option name (.*?) type /.exec(l)![1]);
  for (const n of ['Hash', 'Clear Hash', 'Threads', 'MultiPV', 'Ponder', 'Move Overhead', 'OwnBook', 'BookFile', 'UCI_LimitStrength', 'UCI_Elo', 'Skill Level', 'UCI_Chess960']) {
    assert.ok(names.includes(n), `option ${n}`);
  }
  assert.deepEqual(s.send('isready'), ['readyok']);
});

test('setoption: names without regard to case and spacing; bad values are reported, not applied', () => {
  const host = new RecordingHost();
  const s = session(host);
  assert.deepEqual(s.send('setoption name  move overhead  value 120', 'setoption name HASH value 64', 'setoption name Clear Hash'), []);
  assert.deepEqual(host.configs, [{ moveOverhead: 120 }, { hashMB: 64 }]);
  assert.deepEqual(host.calls, ['clearHash']);
  assert.deepEqual(s.send('setoption name Hash value lots'), ['info string option Hash: "lots" is not a whole number from 1 to 8192; not changed']);
  assert.match(s.send('setoption name Nonsense value 1')[0]!, /unknown option/);
  s.send('setoption name BookFile value /tmp/book.bin', 'setoption name UCI_Chess960 value true');
  assert.deepEqual(host.configs.slice(2), [{ bookFile: '/tmp/book.bin' }, { chess960: true }]);
});

test('setoption: a name with a run of spaces (or a tab) between its words is the option, as Stockfish reads it', () => {
  const host = new RecordingHost();
  const s = session(host);
  assert.deepEqual(s.send('setoption name Move   Overhead value 120', 'setoption name Skill\tLevel value 5', 'setoption name  clear   hash '), []);
  assert.deepEqual(host.configs, [{ moveOverhead: 120 }, { skillLevel: 5 }]);
  assert.deepEqual(host.calls, ['clearHash']);
});

test('setoption: out-of-range, fractional and empty values are refused with the range, and the option keeps its value', () => {
  const host = new RecordingHost();
  const s = session(host);
  const table: [string, string][] = [
    ['Hash value 999999', 'option Hash: "999999" is not a whole number from 1 to 8192'],
    ['Hash value 0', 'option Hash: "0" is not a whole number from 1 to 8192'],
    ['Threads value 2.5', 'option Threads: "2.5" is not a whole number from 1 to 56'],
    ['MultiPV value', 'option MultiPV: "" is not a whole number from 1 to 256'],
    ['Skill Level value -1', 'option Skill Level: "-1" is not a whole number from 0 to 20'],
    ['Move Overhead value 5x', 'option Move Overhead: "5x" is not a whole number from 0 to 5000'],
    ['OwnBook value yes', 'option OwnBook: "yes" is not true or false'],
    ['BookThreshold value 1001', 'option BookThreshold: "1001" is not a whole number from 0 to 1000'],
    ['BookPolicy value best-ever', 'option BookPolicy: "best-ever" is not a policy'],
  ];
  for (const [set, message] of table) {
    const out = s.send(`setoption name ${set}`);
    assert.equal(out.length, 1, set);
    assert.ok(out[0]!.startsWith(`info string ${message}`) && out[0]!.endsWith('; not changed'), `${set}: ${out[0]}`);
  }
  assert.deepEqual(host.configs, [], 'nothing was applied');
  assert.deepEqual(s.send('setoption name Hash value 8192', 'setoption name Skill Level value 0'), []);
  assert.deepEqual(host.configs, [{ hashMB: 8192 }, { skillLevel: 0 }]);
});

test('BookThreshold is advertised under its new name only; setoption still reads the old BookTreshold', () => {
  const host = new RecordingHost();
  const s = session(host);
  const options = s.send('uci').filter((l) => l.startsWith('option name '));
  assert.ok(options.includes('option name BookThreshold type spin default 5 min 0 max 1000'));
  assert.ok(!options.some((l) => /treshold/i.test(l)));
  assert.deepEqual(s.send('setoption name BookTreshold value 12', 'setoption name bookthreshold value 13'), []);
  assert.deepEqual(
    host.configs.map((c) => c.bookPolicy?.bookThreshold),
    [12, 13],
  );
});

test('go parameters are parsed, searchmoves up to the next keyword', () => {
  assert.deepEqual(parseGo('wtime 1000 btime 2000 winc 10 binc 20 movestogo 5'.split(' ')).limits, { wtime: 1000, btime: 2000, winc: 10, binc: 20, movestogo: 5 });
  assert.deepEqual(parseGo('searchmoves e2e4 d2d4 depth 3 ponder'.split(' ')).limits, { searchmoves: ['e2e4', 'd2d4'], depth: 3, ponder: true });
  assert.deepEqual(parseGo(['infinite']).limits, { infinite: true });
  assert.deepEqual(parseGo(['mate', '3', 'nodes', '100', 'movetime', '50']).limits, { mate: 3, nodes: 100, movetime: 50 });
  assert.deepEqual(parseGo(['depth', 'x', 'bogus']).errors.length, 1);
  assert.deepEqual(parseGo(['depth', 'x', 'bogus']).ignored, ['bogus']);
  // Clocks may be below zero: cutechess-cli sends what is left after a move within its margin.
  assert.deepEqual(parseGo('wtime -150 btime 3000'.split(' ')), { limits: { wtime: -150, btime: 3000 }, errors: [], ignored: [] });
});

test('go with a bad number: info string naming the token and what was expected, no search; the engine stays usable', () => {
  const table: [string, string][] = [
    ['go depth abc', 'go depth: "abc" is not a whole number of plies, at least 1'],
    ['go depth -3', 'go depth: "-3" is not a whole number of plies, at least 1'],
    ['go depth 0', 'go depth: "0" is not a whole number of plies, at least 1'],
    ['go depth 2.5', 'go depth: "2.5" is not a whole number of plies, at least 1'],
    ['go nodes -1', 'go nodes: "-1" is not a whole number of nodes, at least 1'],
    ['go nodes 1e6', 'go nodes: "1e6" is not a whole number of nodes, at least 1'],
    ['go movetime x', 'go movetime: "x" is not a whole number of milliseconds, at least 1'],
    ['go wtime 5s btime 100', 'go wtime: "5s" is not a whole number of milliseconds'],
    ['go wtime 100 btime 100 winc -5', 'go winc: "-5" is not a whole number of milliseconds, at least 0'],
    ['go movestogo -1 wtime 10', 'go movestogo: "-1" is not a whole number of moves, at least 0'],
    ['go mate zero', 'go mate: "zero" is not a whole number of moves, at least 1'],
    ['go depth', 'go depth: a value is missing: expected a whole number of plies, at least 1'],
    ['go depth infinite', 'go depth: a value is missing: expected a whole number of plies, at least 1'],
    ['go searchmoves e2e5 depth 2', 'go searchmoves: move 1, illegal move "e2e5"'],
    ['go searchmoves depth 2', 'go searchmoves: expected at least one move'],
  ];
  const host = new ScriptedHost();
  const s = session(host);
  for (const [go, message] of table) {
    const out = s.send('position startpos', go);
    assert.ok(out[0]?.startsWith(`info string ${message}`), `${go}: ${out[0]}`);
    assert.equal(out.at(-1), 'info string go: no search started', go);
    assert.equal(host.gos.length, 0, `${go} started no search`);
    // Still responsive: isready is answered and a good go searches.
    s.send('isready');
    host.tick();
    assert.equal(s.out.at(-1), 'readyok');
  }
  assert.deepEqual(s.send('go depth 2'), []);
  host.tick();
  assert.deepEqual([host.gos.length, s.out.at(-1)], [1, 'bestmove b1a3'], 'the scripted host plays the first legal move');
  // An unknown word is skipped (the UCI specification says so), the rest is searched.
  assert.deepEqual(s.send('go depht 2 depth 3'), ['info string go: ignored words that are not go parameters: "depht" "2"']);
  host.tick();
  assert.deepEqual(host.gos[1]!.limits.depth, 3);
});

test('every go mode ends with a legal bestmove', () => {
  const s = session();
  s.send('position startpos moves e2e4 e7e5 g1f3');
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const m of ['e2e4', 'e7e5', 'g1f3']) pos.play(unwrap(parseUci(pos, m)));
  for (const go of ['go depth 4', 'go nodes 3000', 'go movetime 60', 'go wtime 2000 btime 2000 winc 20 binc 20', 'go btime 500 wtime 9000 movestogo 3', 'go mate 2 depth 5', 'go searchmoves a7a6 depth 3']) {
    const lines = s.send(go);
    const best = lines.at(-1)!;
    assert.match(best, /^bestmove \S+/, go);
    const mv = best.split(' ')[1]!;
    assert.ok(parseUci(pos, mv).ok, `${go}: ${mv} is legal`);
    if (go.includes('searchmoves')) assert.equal(mv, 'a7a6');
    assert.ok(lines.slice(0, -1).every((l) => /^info depth \d+ seldepth \d+ multipv 1 score (cp|mate) -?\d+( lowerbound| upperbound)? nodes \d+ nps \d+ hashfull \d+ time \d+ pv( \S+)+$/.test(l)), go);
  }
});

test('mate and stalemate on the board: which one, then bestmove (none), as Stockfish; bad positions are reported and ignored', () => {
  const s = session();
  assert.deepEqual(s.send('position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', 'go depth 3'), ['info depth 0 score mate 0', 'bestmove (none)']);
  assert.deepEqual(s.send('position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', 'go movetime 10'), ['info depth 0 score cp 0', 'bestmove (none)']);
  // Mated by the moves of the position command (the fool's mate).
  assert.deepEqual(s.send('position startpos moves f2f3 e7e5 g2g4 d8h4', 'go depth 2'), ['info depth 0 score mate 0', 'bestmove (none)']);
  s.send('position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1');
  assert.match(s.send('position fen 8/8/8 w - - 0 1')[0]!, /^info string position: /);
  // A bad FEN keeps the position (stalemate) as it was.
  assert.deepEqual(s.send('go depth 1'), ['info depth 0 score cp 0', 'bestmove (none)']);
  assert.match(s.send('frobnicate')[0]!, /unknown command/);
});

test('position with an illegal move: said with its index, and the position is the one after the moves before it (as Stockfish)', () => {
  const s = session(new ScriptedHost());
  // What /usr/games/stockfish shows with `d` after the same command (test/engine-uci.test.ts compares them live).
  const afterTwo = 'rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
  assert.deepEqual(s.send('position startpos moves e2e4 e7e6 e1e8 d2d4'), [
    `info string position: move 3 of 4, illegal move "e1e8" in position ${afterTwo}; the position is the one after the 2 moves before it`,
  ]);
  assert.deepEqual(s.send('d'), [`info string fen ${afterTwo}`]);
  assert.match(s.send('position startpos moves e2e4 zz e7e5')[0]!, /^info string position: move 2 of 3, unreadable UCI move "zz" .*the one after the 1 move before it$/);
  assert.deepEqual(s.send('d'), ['info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1']);
  assert.match(s.send('position startpos moves e2e5')[0]!, /move 1 of 1, illegal move "e2e5" .*; the position is the one the command starts from$/);
  assert.deepEqual(s.send('d'), [`info string fen ${STARTING_FEN}`]);
  // Words where "moves" belongs are said to be ignored.
  assert.deepEqual(s.send('position startpos e2e4', 'd'), [
    'info string position: expected "moves" after startpos, got "e2e4"; the words after startpos are ignored',
    `info string fen ${STARTING_FEN}`,
  ]);
});

test('a legal bestmove in 3000 random positions (checks, promotions, en passant, castling, one legal move)', () => {
  const host = new LocalHost(new Engine({ wasm: wasmCoreModule() }));
  const s = session(host);
  let seed = 2024;
  const rnd = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
  const seen = { positions: 0, check: 0, promotion: 0, ep: 0, castling: 0, single: 0, none: 0 };
  const starts = [
    STARTING_FEN,
    '8/P1k5/8/1pP5/8/8/5Kp1/8 w - b6 0 1',
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    'rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6',
  ];
  for (let game = 0; game < 60; game++) {
    const pos = unwrap(positionFromFen(starts[game % starts.length]!));
    for (let ply = 0; ply < 50; ply++) {
      const fen = makeFen(pos);
      const moves = legalMoves(pos);
      const lines = s.send(`position fen ${fen}`, `go ${ply % 3 === 0 ? 'nodes 100' : 'depth 1'}`);
      const best = lines.at(-1)!;
      if (moves.length === 0) {
        assert.equal(best, 'bestmove (none)');
        seen.none++;
        break;
      }
      const m = parseUci(pos, best.split(' ')[1]!);
      assert.ok(m.ok, `${best} in ${fen}`);
      seen.positions++;
      if (pos.inCheck()) seen.check++;
      if (moves.some((x) => x >>> 14 === 3)) seen.castling++;
      if (moves.length === 1) seen.single++;
      if (moves.some((x) => x >>> 14 === 1)) seen.promotion++;
      if (moves.some((x) => x >>> 14 === 2)) seen.ep++;
      pos.play(moves[rnd(moves.length)]!);
    }
  }
  assert.ok(seen.positions >= 2900 && seen.check > 100 && seen.promotion > 50 && seen.ep > 5 && seen.castling > 50 && seen.single >= 5, JSON.stringify(seen));
  // Hand-picked cases: the only legal move, a king and pawn ending, en passant, a promotion.
  const table: [string, string][] = [
    ['7k/8/8/8/8/8/1r6/K7 w - - 0 1', 'a1b2'],
    ['8/8/8/8/3k4/8/4P3/4K3 b - - 0 1', ''],
    ['8/8/8/8/k2Pp3/8/8/3K4 b - d3 0 1', ''],
    ['3r2k1/2P5/8/8/8/8/8/6K1 w - - 0 1', 'c7d8q'],
  ];
  for (const [fen, expected] of table) {
    const best = s.send(`position fen ${fen}`, 'go depth 4').at(-1)!;
    const pos = unwrap(positionFromFen(fen));
    assert.ok(parseUci(pos, best.split(' ')[1]!).ok, `${best} in ${fen}`);
    if (expected) assert.equal(best.split(' ')[1], expected, fen);
  }
});

test('stop and ponderhit reach the host only during a search', () => {
  const host = new RecordingHost();
  const s = session(host);
  s.send('stop', 'ponderhit');
  assert.deepEqual(host.calls, [], 'no search running');
  s.send('position startpos', 'go depth 1', 'stop');
  assert.deepEqual(host.calls, [], 'the search had already answered');
  assert.deepEqual(host.lastGo!.moves, []);
});

test('ucinewgame after our mating move: learning receives the game with its result', () => {
  const host = new LocalHost(new Engine({ wasm: wasmCoreModule() }));
  const learned: LearnGame[] = [];
  host.learn = (g) => learned.push(g);
  const s = session(host);
  s.send('position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', 'go depth 3');
  s.send('ucinewgame');
  assert.equal(learned.length, 1);
  assert.deepEqual([learned[0]!.moves, learned[0]!.result, learned[0]!.engineColor], [['d1d8'], '1-0', 0]);
});

test('UCI_ShowWDL: every info line carries wdl permille summing to 1000; a queen up is a near-certain win', () => {
  const { send } = session();
  const plain = send('position startpos', 'go depth 3').filter((l) => l.startsWith('info depth'));
  assert.ok(plain.length > 0 && plain.every((l) => !l.includes(' wdl ')), 'off by default');
  assert.deepEqual(send('setoption name UCI_ShowWDL value true'), []);
  const lines = send('position fen 4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1', 'go depth 4').filter((l) => l.startsWith('info depth'));
  assert.ok(lines.length > 0);
  for (const l of lines) {
    const m = / score (?:cp -?\d+|mate -?\d+)(?: lowerbound| upperbound)? wdl (\d+) (\d+) (\d+) nodes /.exec(l);
    assert.ok(m, l);
    const [w, d, loss] = [Number(m[1]), Number(m[2]), Number(m[3])];
    assert.equal(w + d + loss, 1000, l);
    assert.ok(w >= 990, l);
  }
});

/** A UCI session on a scripted host, and whether it has quit. */
function scripted(): { host: ScriptedHost; server: UciServer; out: string[]; quits: number[]; send: (...lines: string[]) => string[] } {
  const host = new ScriptedHost();
  const out: string[] = [];
  const server = new UciServer((l) => out.push(l), host);
  const quits: number[] = [];
  server.onQuit = () => quits.push(out.length);
  return {
    host,
    server,
    out,
    quits,
    send(...lines) {
      const from = out.length;
      for (const l of lines) server.receive(l);
      return out.slice(from);
    },
  };
}

test('a go during a search waits for its bestmove, and so does everything after it: commands run in the order they came', () => {
  const { host, out, send } = scripted();
  send('position startpos', 'go depth 5', 'go depth 6', 'position startpos moves e2e4', 'go depth 7', 'isready');
  assert.equal(host.gos.length, 1, 'the second go waits');
  assert.deepEqual(out, []);
  host.tick();
  assert.equal(host.gos.length, 2);
  assert.deepEqual(host.gos[1]!.moves, [], 'the position command after it has not run yet');
  host.tick();
  assert.equal(host.gos.length, 3);
  assert.deepEqual([host.gos[2]!.moves, host.gos[2]!.limits.depth], [['e2e4'], 7]);
  host.tick();
  assert.deepEqual(out, ['bestmove b1a3', 'bestmove b1a3', 'readyok', 'bestmove b8a6']);
});

test('stop during go infinite reaches it even when a go waits behind it; ucinewgame waits for the search too', () => {
  const { host, out, send } = scripted();
  send('go infinite', 'ucinewgame', 'go depth 3', 'stop');
  assert.deepEqual(host.calls, ['go', 'stop'], 'stop jumped the queue: nothing else could end go infinite');
  host.tick();
  assert.deepEqual(host.calls, ['go', 'stop', 'newGame', 'go']);
  host.tick();
  assert.deepEqual(out, ['bestmove b1a3', 'bestmove b1a3']);
  // After a bounded search, stop keeps its place in the queue.
  send('go depth 9', 'go depth 2', 'stop');
  assert.deepEqual(host.calls.slice(4), ['go']);
  host.tick();
  assert.deepEqual(host.calls.slice(4), ['go', 'go', 'stop']);
});

test('a stop (or ponderhit) sent after the next go belongs to that go, not to the search already stopped', () => {
  // A GUI stepping through moves in analysis mode: stop, position, go infinite, stop, ... each
  // before the previous bestmove came. The second stop must end the second search.
  const { host, out, send } = scripted();
  send('position startpos', 'go infinite', 'stop', 'position startpos moves e2e4', 'go infinite', 'stop');
  assert.deepEqual(host.calls, ['go', 'stop'], 'the second stop waits behind the second go');
  host.tick();
  assert.deepEqual(host.calls, ['go', 'stop', 'go', 'stop']);
  host.tick();
  assert.deepEqual(out, ['bestmove b1a3', 'bestmove b8a6']);
  send('go ponder wtime 1000 btime 1000', 'stop', 'go ponder wtime 1000 btime 1000', 'ponderhit');
  assert.deepEqual(host.calls.slice(4), ['go', 'stop']);
  host.tick();
  assert.deepEqual(host.calls.slice(4), ['go', 'stop', 'go', 'ponderhit']);
  host.tick();
  assert.deepEqual(out.slice(2), ['bestmove b8a6', 'bestmove b8a6']);
});

test('end of input: commands before it are all answered, a limited search finishes, an unlimited one is stopped; then quit', () => {
  const { host, out, quits, send, server } = scripted();
  send('uci', 'isready', 'position startpos', 'go depth 10');
  server.endOfInput();
  assert.deepEqual(quits, [], 'not before readyok and bestmove');
  host.tick();
  assert.deepEqual(out.slice(-2), ['readyok', 'bestmove b1a3']);
  assert.deepEqual([quits.length, host.closed], [1, true]);
  assert.ok(!host.calls.includes('stop'), 'the limited search was not cut short');

  for (const go of ['go infinite', 'go ponder wtime 100 btime 100', 'go', 'go mate 3', 'go btime 100']) {
    const t = scripted();
    t.send(go);
    t.server.endOfInput();
    assert.ok(t.host.calls.includes('stop'), `${go} is stopped`);
    t.host.tick();
    assert.deepEqual([t.out, t.quits.length], [['bestmove b1a3'], 1], go);
  }
  // Queued commands after the end of the input: each unlimited search they start is stopped too.
  const q = scripted();
  q.send('go depth 4', 'go infinite', 'isready', 'go movetime 50');
  q.server.endOfInput();
  for (let i = 0; i < 3; i++) q.host.tick();
  assert.deepEqual(q.out, ['bestmove b1a3', 'readyok', 'bestmove b1a3', 'bestmove b1a3']);
  assert.equal(q.quits.length, 1);
});

test('quit in the middle of the input: the search is stopped and answers, nothing after quit is read', () => {
  const { host, out, quits, send, server } = scripted();
  send('position startpos', 'go depth 30', 'go depth 2', 'quit', 'isready', 'go depth 1');
  assert.deepEqual(host.calls, ['go', 'stop']);
  host.tick();
  assert.deepEqual(out, ['bestmove b1a3']);
  assert.deepEqual([quits.length, host.closed, server.ended], [1, true, true]);
  server.endOfInput();
  send('isready');
  host.tick();
  assert.deepEqual([out.length, quits.length], [1, 1]);
});

test('ucinewgame, setoption and position during go infinite: the search answers, the engine stays usable', () => {
  const { host, out, send } = scripted();
  send('position startpos', 'go infinite', 'setoption name Hash value 32', 'position startpos moves d2d4', 'ucinewgame', 'isready', 'stop');
  host.tick();
  host.tick();
  assert.deepEqual(out, ['bestmove b1a3', 'readyok']);
  assert.deepEqual(host.calls, ['go', 'configure', 'stop', 'newGame']);
  send('go depth 1');
  host.tick();
  assert.deepEqual(host.gos[1]!.moves, ['d2d4']);
  assert.equal(out.at(-1), 'bestmove b8a6');
});
