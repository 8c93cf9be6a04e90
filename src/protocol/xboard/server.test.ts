import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../../core/result.js';
import type { LearnGame } from '../../engine/bookProbe.js';
import { LocalHost } from '../../engine/host.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { parseUci } from '../../notation/uci.js';
import { XboardServer, formatThinking } from './server.js';

function session(host = new LocalHost()): { server: XboardServer; send: (...lines: string[]) => string[] } {
  const out: string[] = [];
  const server = new XboardServer((l) => out.push(l), host);
  return {
    server,
    send(...lines: string[]): string[] {
      const from = out.length;
      for (const l of lines) server.receive(l);
      return out.slice(from);
    },
  };
}

const moveLine = (lines: string[]): string | undefined => lines.find((l) => l.startsWith('move '))?.slice(5);

test('protover 2: one feature line with the features xboard needs, done=1 last', () => {
  const { send } = session();
  const lines = send('xboard', 'protover 2');
  assert.equal(lines.length, 1);
  for (const f of ['setboard=1', 'usermove=1', 'ping=1', 'sigint=0', 'analyze=1', 'variants="normal,fischerandom"', 'done=1']) {
    assert.ok(lines[0]!.includes(f), f);
  }
  assert.ok(lines[0]!.endsWith('done=1'));
});

test('new game: the engine plays Black; force mode makes it silent; go makes it play the side to move', () => {
  const { send, server } = session();
  send('new', 'sd 3', 'post');
  const reply = moveLine(send('usermove e2e4'));
  assert.ok(reply && parseUci(unwrap(positionFromFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')), reply).ok, `reply ${reply}`);
  assert.deepEqual(send('force', 'usermove d2d4'), []);
  const white = send('go');
  assert.ok(moveLine(white), 'engine moves for the side to move (Black)');
  assert.ok(white.some((l) => /^\d+ -?\d+ \d+ \d+ /.test(l)), 'thinking output with post');
  assert.match(server.fen, / w /);
  send('nopost', 'force', 'usermove a2a3');
  assert.ok(send('go').every((l) => !/^\d+ /.test(l)), 'no thinking output with nopost');
});

test('ping is answered with pong; illegal and unknown input get the standard errors', () => {
  const { send } = session();
  assert.deepEqual(send('ping 7'), ['pong 7']);
  assert.deepEqual(send('new', 'force', 'usermove e2e5'), ['Illegal move: e2e5']);
  assert.deepEqual(send('frobnicate'), ['Error (unknown command): frobnicate']);
});

test('setboard, undo and remove; castling as O-O; level/st/time are accepted', () => {
  const { send, server } = session();
  send('new', 'force', 'setboard r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  send('usermove O-O');
  assert.equal(server.fen, 'r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
  send('usermove e8c8');
  assert.equal(server.fen, '2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2');
  send('undo');
  assert.equal(server.fen, 'r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
  send('usermove a8a1', 'usermove f1a1', 'remove');
  assert.equal(server.fen, 'r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
  send('new', 'level 40 0:30 0', 'time 3000', 'otim 3000', 'st 0', 'sd 2');
  assert.ok(moveLine(send('usermove d2d4')));
});

test('the engine claims the result when its move ends the game, and result hands the game to learning', () => {
  const host = new LocalHost();
  const learned: LearnGame[] = [];
  host.learn = (g) => learned.push(g);
  const { send } = session(host);
  send('new', 'force', 'setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', 'sd 4');
  const lines = send('go');
  assert.deepEqual(lines.filter((l) => !/^\d+ /.test(l)), ['move d1d8', '1-0 {White mates}']);
  send('new', 'sd 2', 'usermove e2e4', 'result 1-0 {White resigns}');
  assert.equal(learned.length, 1);
  assert.deepEqual([learned[0]!.startFen, learned[0]!.moves.length, learned[0]!.result, learned[0]!.engineColor], [STARTING_FEN, 2, '1-0', 1]);
});

test('thinking lines: centipawns, mates as 100000 + moves, time in centiseconds', () => {
  assert.equal(formatThinking({ depth: 9, seldepth: 12, multipv: 1, cp: -35, nodes: 1000, nps: 1, time: 1234, hashfull: 0, pv: ['e2e4', 'e7e5'] }), '9 -35 123 1000 e2e4 e7e5');
  assert.equal(formatThinking({ depth: 5, seldepth: 5, multipv: 1, mate: 3, nodes: 10, nps: 1, time: 0, hashfull: 0, pv: ['d1d8'] }), '5 100003 0 10 d1d8');
  assert.equal(formatThinking({ depth: 5, seldepth: 5, multipv: 1, mate: -2, nodes: 10, nps: 1, time: 0, hashfull: 0, pv: [] }), '5 -100002 0 10 ');
});

test('bk without a book says so in the protocol form; hint gives the reply the last search expected', () => {
  const { send } = session();
  assert.deepEqual(send('bk'), [' no book file (option BookFile)', '']);
  send('new', 'sd 4');
  const out = send('usermove e2e4');
  const ours = moveLine(out)!;
  assert.ok(ours, 'the engine replied');
  const hint = send('hint');
  assert.equal(hint.length, 1, 'a depth-4 search has an expected reply');
  assert.match(hint[0]!, /^Hint: [a-h][1-8][a-h][1-8][qrbn]?$/);
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const u of ['e2e4', ours]) pos.play(unwrap(parseUci(pos, u)));
  assert.ok(parseUci(pos, hint[0]!.slice(6)).ok, 'the hint is legal for the user');
  send('force', 'usermove a2a3');
  assert.deepEqual(send('hint'), [], 'no hint for a position the search did not expect');
});
