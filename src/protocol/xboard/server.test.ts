import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../../core/result.js';
import type { LearnGame } from '../../engine/bookProbe.js';
import { LocalHost } from '../../engine/host.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { parseUci } from '../../notation/uci.js';
import { ScriptedHost } from '../../../test/support/scriptedHost.js';
import { XboardServer, formatThinking } from './server.js';
import { Engine } from '../../engine/engine.js';
import { wasmCoreModule } from '../../node/wasmCore.js';

function session(host = new LocalHost(new Engine({ wasm: wasmCoreModule() }))): { server: XboardServer; send: (...lines: string[]) => string[] } {
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

test('protover 2: the features xboard needs; done=0 first and done=1 once a host with search threads can search', () => {
  // A host that searches on this thread can at once: one line, done=1 last.
  const lines = session().send('xboard', 'protover 2');
  assert.equal(lines.length, 1);
  for (const f of ['setboard=1', 'usermove=1', 'ping=1', 'sigint=0', 'analyze=1', 'variants="normal,fischerandom"', 'done=1']) {
    assert.ok(lines[0]!.includes(f), f);
  }
  assert.ok(lines[0]!.endsWith(' done=1'));
  // A host with whenReady (search threads that take a moment to start): the GUI is told to wait.
  const threaded = scripted();
  const first = threaded.send('xboard', 'protover 2');
  assert.equal(first.length, 2);
  assert.equal(first[0], 'feature done=0');
  assert.match(first[1]!, /^feature myname=.* setboard=1 /);
  assert.doesNotMatch(first[1]!, /done=/);
  threaded.host.answerReady();
  assert.deepEqual(threaded.out.slice(2), ['feature done=1']);
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
  const host = new LocalHost(new Engine({ wasm: wasmCoreModule() }));
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
  // Pondering: the expected reply first, in parentheses (the line then reads from the GUI's board).
  assert.equal(formatThinking({ depth: 7, seldepth: 9, multipv: 1, cp: 20, nodes: 500, nps: 1, time: 50, hashfull: 0, pv: ['b8c6', 'f1b5'] }, 'g1f3'), '7 20 5 500 (g1f3) b8c6 f1b5');
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

/** An xboard session on a scripted host (searches end when the test ticks). */
function scripted(): { host: ScriptedHost; server: XboardServer; out: string[]; quits: () => number; send: (...lines: string[]) => string[] } {
  const host = new ScriptedHost('replace');
  const out: string[] = [];
  const server = new XboardServer((l) => out.push(l), host);
  let quits = 0;
  server.onQuit = () => quits++;
  return {
    host,
    server,
    out,
    quits: () => quits,
    send(...lines) {
      const from = out.length;
      for (const l of lines) server.receive(l);
      return out.slice(from);
    },
  };
}

test('numeric arguments: a bad one is answered "Error (bad argument: …): COMMAND" and changes nothing', () => {
  const table: [string, string][] = [
    ['sd abc', '"abc" is not a whole number of plies, at least 0'],
    ['sd -2', '"-2" is not a whole number of plies, at least 0'],
    ['sd 4.5', '"4.5" is not a whole number of plies, at least 0'],
    ['sd', 'a value is missing: expected a whole number of plies, at least 0'],
    ['st x', '"x" is not a number of seconds, at least 0'],
    ['st -1', '"-1" is not a number of seconds, at least 0'],
    ['time 12ab', '"12ab" is not a whole number of centiseconds'],
    ['otim', 'a value is missing: expected a whole number of centiseconds'],
    ['level 40 5', 'expected MPS BASE INC (3 values), got 2'],
    ['level x 5 0', 'moves per control "x" is not a whole number of moves, at least 0'],
    ['level 40 5:x 0', 'base time "5:x" is not minutes or minutes:seconds'],
    ['level 40 5 -1', 'increment "-1" is not a number of seconds, at least 0'],
    ['memory 0', '"0" is not a whole number of megabytes, at least 1'],
    ['memory lots', '"lots" is not a whole number of megabytes, at least 1'],
    ['cores -1', '"-1" is not a whole number of cores, at least 1'],
    ['option Skill Level=abc', 'option Skill Level: "abc" is not a whole number from 0 to 20'],
    ['option Move Overhead=-5', 'option Move Overhead: "-5" is not a whole number from 0 to 5000'],
    ['option BookDepth=', 'option BookDepth: a value is missing: expected a whole number from 0 to 1000'],
    ['option OwnBook=yes', 'option OwnBook: "yes" is not 0 or 1'],
    ['option BookLearning=2', 'option BookLearning: "2" is not 0 or 1'],
    ['option BookThreshold=2000', 'option BookThreshold: 2000 is out of range (0..1000)'],
    ['result 2-0', '"2-0" is not a result (1-0, 0-1, 1/2-1/2 or *)'],
  ];
  const { host, send } = scripted();
  send('new', 'level 40 5 0', 'sd 3', 'st 0', 'time 30000', 'otim 30000');
  const configs = host.configs.length;
  for (const [command, problem] of table) assert.deepEqual(send(command), [`Error (bad argument: ${problem}): ${command}`], command);
  assert.equal(host.configs.length, configs, 'no option was changed');
  // The good settings stand: depth 3 and the 5-minute clock of 40 moves.
  send('force', 'go');
  assert.deepEqual(host.gos[0]!.limits, { depth: 3, wtime: 300000, btime: 300000, winc: 0, binc: 0, movestogo: 40, startTime: host.gos[0]!.limits.startTime });
  // Good values of every kind are taken without a word; memory beyond the largest table (the
  // core's 1024 MB) asks for that table.
  assert.deepEqual(send('force', 'sd 0', 'st 0.5', 'level 0 0:30 0.1', 'time -20', 'otim 500', 'memory 100000', 'cores 2', 'option Skill Level=5', 'option OwnBook=1', 'result *'), []);
  assert.deepEqual(host.configs.slice(configs), [{ hashMB: 1024 }, { threads: 2 }, { skillLevel: 5 }, { ownBook: true }]);
});

test('level MPS: moves to go count from the start position of the game, not from the FEN move number', () => {
  const { host, send } = scripted();
  // A position set up at move 39: the 40-move period starts here, as XBoard and cutechess count
  // it (until 2026-12-06 the engine took the FEN's number and planned for 2 moves to go).
  send('new', 'force', 'level 40 5 0', 'setboard r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 39', 'time 30000', 'otim 30000', 'go');
  assert.equal(host.gos[0]!.limits.movestogo, 40);
  // Black to move first: after its move and White's, Black has 39 to go.
  send('new', 'force', 'setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 25', 'usermove e7e5', 'usermove g1f3', 'go');
  assert.equal(host.gos[1]!.limits.movestogo, 39);
  // From the start position the count is the game's move number, book moves included.
  send('new', 'force', 'usermove e2e4', 'usermove e7e5', 'go');
  assert.equal(host.gos[2]!.limits.movestogo, 39);
});

test('BookThreshold: offered under the new name; option BookTreshold (the old spelling) still sets it', () => {
  const { host, send } = scripted();
  const features = send('protover 2').find((l) => l.includes('myname='))!;
  assert.ok(features.includes('option="BookThreshold -spin 5 0 1000"') && !/treshold/i.test(features));
  assert.deepEqual(send('option BookTreshold=9', 'option BookThreshold=11'), []);
  assert.deepEqual(
    host.configs.map((c) => c.bookPolicy?.bookThreshold),
    [9, 11],
  );
});

test('an illegal move gets "Illegal move: X" and leaves the position as it was', () => {
  const { server, send } = scripted();
  send('new', 'force', 'usermove e2e4');
  const before = server.fen;
  for (const bad of ['e7e4', 'e2e4', 'zz', 'e7e8q', 'O-O']) {
    assert.deepEqual(send(`usermove ${bad}`), [`Illegal move: ${bad}`]);
    assert.equal(server.fen, before, bad);
  }
});

test('end of input: a search for a move finishes and is played, analysis and pondering end, pings are answered; then quit', () => {
  const think = scripted();
  think.send('xboard', 'protover 2', 'new', 'sd 6', 'go', 'ping 1');
  think.server.endOfInput();
  assert.equal(think.quits(), 0, 'not before the move');
  think.host.tick();
  assert.deepEqual(
    think.out.filter((l) => !l.startsWith('feature ')),
    ['move b1a3', 'pong 1'],
  );
  assert.deepEqual([think.quits(), think.host.closed, think.host.calls.includes('stop')], [1, true, false]);

  const analyze = scripted();
  analyze.send('new', 'force', 'analyze');
  analyze.server.endOfInput();
  assert.ok(analyze.host.calls.includes('stop'), 'analysis is ended');
  assert.deepEqual([analyze.quits(), analyze.out], [1, []]);

  // Pondering after the move is not started once the input has ended.
  const ponder = scripted();
  ponder.send('new', 'hard', 'sd 2', 'usermove e2e4');
  ponder.server.endOfInput();
  ponder.host.tick();
  assert.deepEqual([ponder.out, ponder.host.gos.length, ponder.quits()], [['move b8a6'], 1, 1]);

  // A ping outside a search waits for the search thread, and quit waits for the pong.
  const ping = scripted();
  ping.send('new', 'ping 7');
  ping.server.endOfInput();
  assert.equal(ping.quits(), 0);
  ping.host.tick();
  assert.deepEqual([ping.out, ping.quits()], [['pong 7'], 1]);
});

test('quit in the middle of the input ends at once; nothing after it is read', () => {
  const { host, out, quits, send, server } = scripted();
  send('new', 'sd 30', 'go', 'quit', 'ping 2', 'go');
  assert.deepEqual([quits(), host.gos.length, host.closed, server.ended], [1, 1, true, true]);
  host.tick();
  assert.deepEqual(out, []);
});

test('new: the clocks go back to the start of the time control, which stays (level or st); only sd goes', () => {
  const { host, send } = scripted();
  // A game of 40 moves in 5 minutes that ended with the engine at 10 s and the opponent at 20 s.
  send('new', 'level 40 5 0', 'sd 7', 'time 1000', 'otim 2000', 'usermove e2e4');
  host.tick();
  // The next game begins with the user's move: XBoard sends time/otim only before the engine's
  // moves, and the first move of a game is planned on the control's full 5 minutes (CECP: new
  // "resets clocks and time controls to the start of a new game").
  send('new', 'usermove d2d4');
  assert.deepEqual(host.gos[1]!.limits, { wtime: 300000, btime: 300000, winc: 0, binc: 0, movestogo: 40, startTime: host.gos[1]!.limits.startTime });
  host.tick();
  // st is a time control too: it stays for the next game, until a level replaces it.
  send('st 2', 'new', 'usermove c2c4');
  assert.equal(host.gos[2]!.limits.movetime, 2000);
  host.tick();
  send('new', 'level 0 1 1', 'usermove g1f3');
  assert.deepEqual(host.gos[3]!.limits, { wtime: 60000, btime: 60000, winc: 1000, binc: 1000, startTime: host.gos[3]!.limits.startTime });
});

test('analyze mode: new sets up the start position and the analysis goes on (CECP, "Analyze Mode")', () => {
  const { host, send, server } = scripted();
  send('new', 'force', 'usermove e2e4', 'post', 'analyze');
  assert.equal(host.gos.length, 1);
  send('new');
  assert.equal(server.fen, STARTING_FEN);
  assert.equal(host.gos.length, 2, 'the start position is analysed');
  assert.deepEqual([host.gos[1]!.moves, host.gos[1]!.limits.infinite], [[], true]);
  // Still analysing, not playing: a move is analysed, never answered.
  send('usermove d2d4');
  assert.equal(host.gos.length, 3);
  assert.equal(host.gos[2]!.limits.infinite, true);
  send('exit');
  host.tick();
  assert.deepEqual(send('usermove d7d5'), []);
  assert.equal(host.gos.length, 3, 'after exit a move is only played (force mode)');
});

test('cores N (feature smp=1) sets the number of search threads, at most the engine\'s largest', () => {
  const { host, send } = scripted();
  // CECP: smp=1 asks the GUI for "cores"; without it XBoard never sends the command.
  assert.match(send('protover 2').find((l) => l.includes('myname='))!, / smp=1 /);
  assert.deepEqual(send('cores 2', 'cores 1', 'cores 500'), []);
  assert.deepEqual(host.configs, [{ threads: 2 }, { threads: 1 }, { threads: 56 }]);
});

test('nps is refused as an unknown command (feature nps=0); feature debug=1 keeps the # lines out of the game', () => {
  const { host, send } = scripted();
  const features = send('protover 2').find((l) => l.includes('myname='))!;
  host.answerReady();
  assert.match(features, / nps=0 /);
  assert.match(features, / debug=1 /);
  // WinBoard sends nps unless told not to, and reads silence as "understood": the engine
  // would be taken to count its time in nodes (CECP, feature nps).
  assert.deepEqual(send('nps 10000'), ['Error (unknown command): nps']);
});

test('after a refused setboard no move is played or searched on the position before it, until new or setboard', () => {
  const { host, send, server } = scripted();
  send('new', 'force', 'usermove e2e4');
  const before = server.fen;
  const refused = send('setboard 8/8/8/8/8/8/8/8 w - - 0 1');
  assert.deepEqual(refused, ['tellusererror Illegal position: FEN "8/8/8/8/8/8/8/8 w - - 0 1": White has 0 kings; exactly one is required']);
  // CECP, setboard: answer any move with "Illegal move" until the next new or setboard; e7e5
  // is legal in the game before, which must not be played on in its place.
  assert.deepEqual(send('usermove e7e5'), ['Illegal move (no position: the last setboard was refused): e7e5']);
  assert.deepEqual(send('undo', 'go'), ['Error (no position: FEN "8/8/8/8/8/8/8/8 w - - 0 1": White has 0 kings; exactly one is required): go']);
  assert.deepEqual(send('analyze', 'hint'), []);
  assert.equal(host.gos.length, 0, 'nothing searched');
  assert.equal(server.fen, before);
  send('exit', 'setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1');
  assert.deepEqual(send('usermove e1g1'), []);
  send('setboard 8/8/8/8/8/8/8/8 w - - 0 1', 'new');
  assert.deepEqual(send('usermove e2e4'), []);
  assert.equal(host.gos.length, 1, 'after new the engine answers moves again');
});

test('level: what follows MIN or MIN:SEC in BASE is ignored, as CECP asks ("level 40 25+5 0")', () => {
  const { host, send } = scripted();
  assert.deepEqual(send('new', 'level 40 25+5 0', 'usermove e2e4'), []);
  assert.deepEqual([host.gos[0]!.limits.btime, host.gos[0]!.limits.movestogo], [1500000, 40]);
  host.tick();
  assert.deepEqual(send('new', 'level 40 0:30/5 0', 'usermove e2e4'), []);
  assert.equal(host.gos[1]!.limits.btime, 30000);
  host.tick();
  // Without minutes in front it is still no time.
  assert.deepEqual(send('level 40 +5 0'), ['Error (bad argument: base time "+5" is not minutes or minutes:seconds): level 40 +5 0']);
});
