import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legalMoves } from '../../core/movegen.js';
import { unwrap } from '../../core/result.js';
import type { LearnGame } from '../../engine/bookProbe.js';
import { LocalHost, type EngineConfig, type EngineHost, type GoRequest, type WireBest, type WireInfo } from '../../engine/host.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../../notation/fen.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import { UciServer, parseGo } from './server.js';

/** A UCI server on a same-thread engine, with the lines it wrote. */
function session(host: EngineHost = new LocalHost()): { out: string[]; send: (...lines: string[]) => string[] } {
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
  assert.match(s.send('setoption name Hash value lots')[0]!, /not an integer/);
  assert.match(s.send('setoption name Nonsense value 1')[0]!, /unknown option/);
  s.send('setoption name BookFile value /tmp/book.bin', 'setoption name UCI_Chess960 value true', 'setoption name Hash value 999999');
  assert.deepEqual(host.configs.slice(2), [{ bookFile: '/tmp/book.bin' }, { chess960: true }, { hashMB: 8192 }]);
});

test('go parameters are parsed, searchmoves up to the next keyword', () => {
  assert.deepEqual(parseGo('wtime 1000 btime 2000 winc 10 binc 20 movestogo 5'.split(' ')).limits, { wtime: 1000, btime: 2000, winc: 10, binc: 20, movestogo: 5 });
  assert.deepEqual(parseGo('searchmoves e2e4 d2d4 depth 3 ponder'.split(' ')).limits, { searchmoves: ['e2e4', 'd2d4'], depth: 3, ponder: true });
  assert.deepEqual(parseGo(['infinite']).limits, { infinite: true });
  assert.deepEqual(parseGo(['mate', '3', 'nodes', '100', 'movetime', '50']).limits, { mate: 3, nodes: 100, movetime: 50 });
  assert.deepEqual(parseGo(['depth', 'x', 'bogus']).errors.length, 2);
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

test('mate and stalemate on the board: bestmove (none); bad positions are reported and ignored', () => {
  const s = session();
  assert.deepEqual(s.send('position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', 'go depth 3'), ['bestmove (none)']);
  assert.deepEqual(s.send('position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', 'go movetime 10'), ['bestmove (none)']);
  assert.match(s.send('position fen 8/8/8 w - - 0 1')[0]!, /^info string position: /);
  assert.match(s.send('position startpos moves e2e5')[0]!, /^info string position: .*illegal move "e2e5"/);
  // The last good position (stalemate) is still the current one.
  assert.deepEqual(s.send('go depth 1'), ['bestmove (none)']);
  assert.match(s.send('frobnicate')[0]!, /unknown command/);
});

test('a legal bestmove in 3000 random positions (checks, promotions, en passant, castling, one legal move)', () => {
  const host = new LocalHost();
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
  const host = new LocalHost();
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
