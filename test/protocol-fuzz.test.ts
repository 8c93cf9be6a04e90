/**
 * Property-based tests of the UCI and xboard servers (sans-I/O) over sessions of real command
 * lines, mutated command lines and random text, on a scripted host whose searches end when the
 * test lets time pass. Whatever comes in:
 *
 * - nothing throws, and every line the engine writes is one its protocol has;
 * - nothing is refused in silence: a `go`, `position`, `setoption`, numeric xboard command or
 *   move that is not carried out is answered with an `info string` / `Error` / `Illegal move`,
 *   and one that is carried out had only well-formed numbers;
 * - nothing hangs: after the end of the input the engine quits within a few steps of time
 *   (a search that runs until stopped is stopped), and a UCI server never starts a second search
 *   while one runs (the scripted host throws if it does).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { positionFromFen, makeFen, STARTING_FEN } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';
import { UciServer } from '../src/protocol/uci/server.js';
import { XboardServer } from '../src/protocol/xboard/server.js';
import { budget, seed } from './support/budget.js';
import { ScriptedHost } from './support/scriptedHost.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

const UCI_LINES = [
  'uci',
  'isready',
  'ucinewgame',
  'debug on',
  'd',
  'stop',
  'ponderhit',
  'position startpos',
  'position startpos moves e2e4 e7e5 g1f3 b8c6',
  `position fen ${KIWIPETE} moves e1g1 e8c8`,
  'position fen 8/P1k5/8/1pP5/8/8/5Kp1/8 w - b6 0 1 moves c5b6 g2g1q a7a8n',
  'go depth 5',
  'go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20',
  'go movetime 100',
  'go nodes 5000',
  'go mate 3',
  'go infinite',
  'go ponder wtime 100 btime 100',
  'go searchmoves e2e4 d2d4 depth 3',
  'go',
  'setoption name Hash value 32',
  'setoption name Threads value 2',
  'setoption name MultiPV value 3',
  'setoption name OwnBook value true',
  'setoption name BookPolicy value gnu-best',
  'setoption name BookThreshold value 10',
  'setoption name Clear Hash',
  'setoption name UCI_ShowWDL value true',
  'setoption name Skill Level value 7',
];

const XBOARD_LINES = [
  'xboard',
  'protover 2',
  'new',
  'force',
  'go',
  'playother',
  'level 40 5 0',
  'level 0 0:30 0.5',
  'st 2',
  'sd 4',
  'time 3000',
  'otim 2500',
  'usermove e2e4',
  'usermove e7e5',
  'usermove g1f3',
  'e2e4',
  'O-O',
  '?',
  'ping 3',
  'draw',
  'result 1-0 {White mates}',
  `setboard ${KIWIPETE}`,
  'undo',
  'remove',
  'hard',
  'easy',
  'post',
  'nopost',
  'analyze',
  'exit',
  '.',
  'hint',
  'memory 64',
  'cores 2',
  'nps 1000',
  'variant fischerandom',
  'option Skill Level=5',
  'option OwnBook=1',
  'option BookThreshold=20',
  'option BookPolicy=gnu-best',
];

/** Tokens that break numbers, keywords and moves. */
const NASTY = ['-1', '+5', '0', '-0', '1.5', '1e9', '99999999999999999999', 'NaN', 'Infinity', 'abc', '', 'moves', 'value', 'name', 'depth', 'fen', 'e2e4', 'e7e8q', 'O-O-O', '5:x', '\u0000', '\t', 'é', 'constructor', '__proto__', 'toString'];

/** A command line with one to three token edits: replaced, deleted, duplicated or inserted. */
function mutated(lines: readonly string[]): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.nat(), fc.nat(3), fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 6 })));
  return fc.tuple(fc.constantFrom(...lines), fc.array(edit, { minLength: 1, maxLength: 3 })).map(([line, edits]) => {
    const words = line.split(' ');
    for (const [at, op, token] of edits) {
      const i = at % (words.length + 1);
      if (op === 0) words[Math.min(i, words.length - 1)] = token;
      else if (op === 1 && words.length > 1) words.splice(Math.min(i, words.length - 1), 1);
      else if (op === 2) words.splice(i, 0, words[Math.min(i, words.length - 1)]!);
      else words.splice(i, 0, token);
    }
    return words.join(' ');
  });
}

/** Sessions: lines (real, mutated, random, now and then quit) each followed by 0–2 steps of time. */
function sessions(lines: readonly string[]): fc.Arbitrary<{ line: string; ticks: number }[]> {
  const line = fc.oneof(
    { arbitrary: fc.constantFrom(...lines), weight: 5 },
    { arbitrary: mutated(lines), weight: 5 },
    { arbitrary: fc.string({ maxLength: 30, unit: 'binary' }), weight: 1 },
    { arbitrary: fc.constant('quit'), weight: 1 },
  );
  return fc.array(fc.record({ line, ticks: fc.nat(2) }), { maxLength: 30 });
}

const RUNS = budget(150, 5000);

/** Ends the input and lets time pass: the engine must have quit within 40 steps. */
function endInput(server: { endOfInput(): void; readonly ended: boolean }, host: ScriptedHost): void {
  server.endOfInput();
  for (let t = 0; t < 40 && !server.ended; t++) host.tick();
  assert.ok(server.ended && host.closed, 'the engine quits after the end of the input');
}

/** The position a `position` command denotes when all of it is good, else undefined. */
function positionOf(words: string[]): string | undefined {
  let fen: string;
  let rest: string[];
  if (words[1] === 'startpos') {
    fen = STARTING_FEN;
    rest = words.slice(2);
  } else if (words[1] === 'fen') {
    const m = words.indexOf('moves');
    fen = words.slice(2, m < 0 ? undefined : m).join(' ');
    rest = m < 0 ? [] : words.slice(m);
  } else return undefined;
  const pos = positionFromFen(fen);
  if (!pos.ok || (rest.length > 0 && rest[0] !== 'moves')) return undefined;
  for (const mv of rest.slice(1)) {
    const m = parseUci(pos.value, mv);
    if (!m.ok) return undefined;
    pos.value.play(m.value);
  }
  return makeFen(pos.value);
}

const UCI_OUTPUT = /^(id (name|author) .+|option name .+|uciok|readyok|bestmove \S+( ponder \S+)?|info string .+|info depth .+)$/;
const GO_NUMBERS = new Set(['wtime', 'btime', 'winc', 'binc', 'movestogo', 'movetime', 'depth', 'nodes', 'mate']);
const QUIET_OPTIONS = /^setoption name (ponder|uci_analysemode|uci_showwdl) value (true|false)$/i;

test('UCI server: random and mutated sessions never throw, never refuse in silence, and always end', { timeout: 120000 }, () => {
  fc.assert(
    fc.property(sessions(UCI_LINES), (session) => {
      const host = new ScriptedHost('throw');
      const out: string[] = [];
      const server = new UciServer((l) => out.push(l), host);
      for (const { line, ticks } of session) {
        // After quit nothing is read (not a refusal), though a readyok may still be owed.
        const idle = !server.busy && !server.ended && !server.quitRead && !/[\r\n]/.test(line);
        const [outBefore, gosBefore, callsBefore] = [out.length, host.gos.length, host.calls.length];
        server.receive(line);
        const words = line.trim().split(/\s+/);
        // A reply waits behind a readyok still to come (the output keeps the order of the
        // input): let the readyok out before looking for the reply.
        if (idle && ['go', 'setoption', 'position'].includes(words[0]!)) host.answerReady();
        const said = out.slice(outBefore).filter((l) => l.startsWith('info string '));
        if (idle && words[0] === 'go') {
          if (host.gos.length === gosBefore) assert.ok(said.length > 0, `go refused in silence: ${line}`);
          else for (const [i, w] of words.entries()) if (GO_NUMBERS.has(w)) assert.match(words[i + 1] ?? '', /^-?\d+$/, `searched with a bad number: ${line}`);
        }
        if (idle && words[0] === 'setoption' && host.calls.length === callsBefore && said.length === 0) assert.match(words.join(' '), QUIET_OPTIONS, `setoption ignored in silence: ${line}`);
        if (idle && words[0] === 'position' && said.length === 0) {
          const expected = positionOf(words);
          assert.ok(expected !== undefined, `position refused in silence: ${line}`);
          server.receive('d');
          host.answerReady();
          assert.equal(out.at(-1), `info string fen ${expected}`, line);
        }
        for (let t = 0; t < ticks; t++) host.tick();
      }
      endInput(server, host);
      for (const l of out) assert.match(l, UCI_OUTPUT);
    }),
    { numRuns: RUNS, seed: seed(16) },
  );
});

const XBOARD_OUTPUT = /^(feature .+|move \S+|pong .*|Error \(.+\): .*|Illegal move( \(.+\))?: .*|tellusererror .+|telluser .+|\d+ -?\d+ \d+ \d+ .*|(1-0|0-1|1\/2-1\/2) \{.+\}|Hint: \S+| .*|)$/;
/** The numeric xboard commands and what a well-formed argument looks like. */
const XBOARD_NUMBERS: ReadonlyMap<string, RegExp> = new Map(Object.entries({
  sd: /^\d+$/,
  st: /^(\d+\.?\d*|\.\d+)$/,
  time: /^-?\d+$/,
  otim: /^-?\d+$/,
  memory: /^0*[1-9]\d*$/,
  cores: /^0*[1-9]\d*$/,
  // BASE: minutes or minutes:seconds, then anything that does not go on with the number (ignored).
  level: /^\d+ (\d+\.?\d*|\.\d+)(:(\d+\.?\d*|\.\d+))?([^\d.:\s]\S*)? (\d+\.?\d*|\.\d+)$/,
}));

test('xboard server: random and mutated sessions never throw, answer every bad number and move, and always end', { timeout: 120000 }, () => {
  fc.assert(
    fc.property(sessions(XBOARD_LINES), (session) => {
      const host = new ScriptedHost('replace');
      const out: string[] = [];
      const server = new XboardServer((l) => out.push(l), host);
      for (const { line, ticks } of session) {
        const before = out.length;
        const fen = server.fen;
        // One line as the server reads it (a line with a line break in it is several).
        const open = !server.ended && !/[\r\n]/.test(line);
        server.receive(line);
        // A reply waits behind a pong still to come (the output keeps the order of the input).
        if (open) host.answerReady();
        const said = out.slice(before);
        const trimmed = line.trim();
        const sp = trimmed.indexOf(' ');
        const [cmd, arg] = sp < 0 ? [trimmed, ''] : [trimmed.slice(0, sp), trimmed.slice(sp + 1).trim()];
        const form = XBOARD_NUMBERS.get(cmd);
        if (open && form) {
          const refused = said.some((l) => l.startsWith('Error (bad argument: '));
          assert.equal(refused, !form.test(arg.replace(/\s+/g, ' ')), `${line} → ${said.join(' | ')}`);
        }
        if (open && cmd === 'usermove' && !said.some((l) => /^Illegal move( \(.+\))?: /.test(l))) assert.notEqual(server.fen, fen, `a move neither played nor refused: ${line}`);
        for (let t = 0; t < ticks; t++) host.tick();
      }
      endInput(server, host);
      for (const l of out) assert.match(l, XBOARD_OUTPUT);
    }),
    { numRuns: RUNS, seed: seed(16) },
  );
});
