/**
 * The match runner's own cost. Two instant-moving UCI engines (this file, run as
 * `node match.bench.js engine`, answers every `go` at once with a deterministic legal move) play
 * N games at 1+0.01 through `runMatch`, with every game written to a PGN. The anchor is a bare
 * driver in the same run: the same engines, the same games move for move (the engines are
 * deterministic), but only `position`/`go` out and `bestmove` in, with no clocks, validation,
 * adjudication or PGN. The difference is the runner's overhead; also reported: the runner
 * process's CPU time per game, and time losses (with instant engines any is the runner's fault;
 * the target is zero). No other match runner is installed to compare with (cutechess-cli is
 * not packaged by Debian), so the anchor is this same-run baseline.
 *
 * The runner's match and the bare replay take turns, R times each (default 2), and the least
 * wall time and the least CPU time of each are kept; time losses and faults are counted over
 * every run.
 *
 *   npm run bench -- match [--games 200] [--concurrency 1] [--tc 1+0.01] [--runs R]
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateLegal } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { makeFen, positionFromFen, STARTING_FEN } from '../src/notation/fen.js';
import { makeUci, parseUci } from '../src/notation/uci.js';
import { makeEngineSpec, parseEngineKeys } from '../src/match/engineSpec.js';
import type { GameRecord } from '../src/match/game.js';
import { formatGamePgn } from '../src/match/pgnOut.js';
import { DEFAULT_TIMEOUTS } from '../src/match/player.js';
import { runMatch } from '../src/match/runner.js';
import { buildSchedule } from '../src/match/schedule.js';
import { AppendFile, readTextMaybeCompressed } from '../src/node/matchFiles.js';
import { OpeningList, parseEpdOpenings } from '../src/match/openings.js';
import { benchArgs } from './args.js';
import { ownChild, removeTempDir, tempDir } from './cleanup.js';
import { killAllEngines, spawnEngine } from '../src/node/engineProcess.js';

const SELF = fileURLToPath(import.meta.url);

// ----- the instant engine -------------------------------------------------------------------

const BUF = new Uint16Array(256);

/** Captures first, else a move chosen by the ply: deterministic, varied, games end by material. */
function instantMove(pos: Position): number {
  const n = generateLegal(pos, BUF, 0);
  let caps = 0;
  for (let i = 0; i < n; i++) {
    const m = BUF[i]!;
    if (pos.board[m & 63] !== 0 && (m & 0xc000) !== 0xc000) BUF[caps++] = m;
  }
  const k = caps > 0 ? caps : generateLegal(pos, BUF, 0);
  return BUF[(pos.ply * 7 + 3) % k]!;
}

function engineMain(): void {
  let pos = unwrap(positionFromFen(STARTING_FEN));
  let root = STARTING_FEN;
  let played: string[] = [];
  let buf = '';
  const out = (s: string): void => void process.stdout.write(s + '\n');
  const handle = (line: string): void => {
    const t = line.trim().split(/\s+/);
    switch (t[0]) {
      case 'uci':
        out('id name Instant');
        out('uciok');
        return;
      case 'isready':
        out('readyok');
        return;
      case 'position': {
        const at = t.indexOf('moves');
        const moves = at < 0 ? [] : t.slice(at + 1);
        // Only new moves are played when the game goes on: O(1) work per search.
        const fen = t[1] === 'startpos' ? STARTING_FEN : t.slice(2, at < 0 ? undefined : at).join(' ');
        if (fen !== root || moves.length < played.length || played.some((m, i) => moves[i] !== m)) {
          pos = unwrap(positionFromFen(fen));
          root = fen;
          played = [];
        }
        for (let i = played.length; i < moves.length; i++) pos.play(unwrap(parseUci(pos, moves[i]!)));
        played = moves;
        return;
      }
      case 'go':
        out(`info depth 1 score cp 0 nodes 1 time 0\nbestmove ${makeUci(instantMove(pos))}`);
        return;
      case 'quit':
        process.exit(0);
    }
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      handle(line);
    }
  });
}

// ----- the bare driver (anchor) -------------------------------------------------------------

class Bare {
  private readonly child: ChildProcessWithoutNullStreams;
  private buf = '';
  private waiting: ((line: string) => void) | undefined;

  constructor() {
    this.child = ownChild(spawn(process.execPath, [SELF, 'engine'], { stdio: ['pipe', 'pipe', 'pipe'] }));
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d: string) => {
      this.buf += d;
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        if (this.waiting && (line.startsWith('bestmove') || line === 'uciok' || line === 'readyok')) {
          const w = this.waiting;
          this.waiting = undefined;
          w(line);
        }
      }
    });
  }

  ask(lines: string): Promise<string> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.child.stdin.write(lines);
    });
  }

  quit(): void {
    this.child.stdin.write('quit\n');
  }
}

/** Replays the games (root FEN, length) with the bare driver; returns wall ms and CPU ms of this process. */
async function bareRun(games: { fen: string; plies: number }[]): Promise<{ ms: number; cpuMs: number }> {
  const a = new Bare();
  const b = new Bare();
  await a.ask('uci\n');
  await b.ask('uci\n');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let g = 0; g < games.length; g++) {
    const engines = g % 2 === 0 ? [a, b] : [b, a];
    await engines[0]!.ask('ucinewgame\nisready\n');
    await engines[1]!.ask('ucinewgame\nisready\n');
    const root = games[g]!.fen === STARTING_FEN ? 'position startpos' : `position fen ${games[g]!.fen}`;
    const moves: string[] = [];
    for (let i = 0; i < games[g]!.plies; i++) {
      const line = await engines[i % 2]!.ask(`${root}${moves.length ? ' moves ' + moves.join(' ') : ''}\ngo wtime 1000 btime 1000 winc 10 binc 10\n`);
      moves.push(line.split(' ')[1]!);
    }
  }
  const ms = performance.now() - t0;
  const c = process.cpuUsage(cpu0);
  a.quit();
  b.quit();
  return { ms, cpuMs: (c.user + c.system) / 1000 };
}

// ----- the runner ---------------------------------------------------------------------------

function afterOpening(r: GameRecord): string {
  const pos = unwrap(positionFromFen(r.fen));
  for (const m of r.moves) if (m.book) pos.play(unwrap(parseUci(pos, m.uci)));
  return makeFen(pos);
}

export async function main(args: string[]): Promise<void> {
  const { games, concurrency, tc, runs } = benchArgs('match', args, {
    usage: '[--games 200] [--concurrency 1] [--tc 1+0.01] [--runs R]',
    options: {
      games: { kind: 'int', default: 200, min: 1, help: 'games to play' },
      concurrency: { kind: 'int', default: 1, min: 1, help: 'games at once' },
      tc: { kind: 'string', default: '1+0.01', arg: 'TC', help: 'time control of both engines (seconds+increment)' },
      runs: { kind: 'int', default: 2, min: 1, arg: 'R', help: 'runs of the runner and of the bare driver, in turns; the least time of each is kept' },
    },
  }).values;
  const engines = ['A', 'B'].map((name, i) => {
    const k = parseEngineKeys([`name=${name}`, `cmd=${process.execPath}`, `arg=${SELF}`, 'arg=engine', `tc=${tc}`], name);
    if (typeof k === 'string') throw new Error(k);
    const s = makeEngineSpec(k, { keys: new Map(), args: [], options: [] }, i);
    if (typeof s === 'string') throw new Error(s);
    return s;
  });
  const schedule = buildSchedule({ players: 2, tournament: 'round-robin', games, rounds: 1, repeat: 2, noswap: false, seeds: 1 });
  // Varied games: the 2-moves book when the shared data is there, else the start position.
  const bookFile = join(dirname(SELF), '../../../shared/data/books/2moves_v1.epd.gz');
  const openings = existsSync(bookFile)
    ? new OpeningList(parseEpdOpenings(readTextMaybeCompressed(bookFile), bookFile).openings, { order: 'random', start: 1, seed: 1 })
    : undefined;
  let timeLosses = 0;
  let faults = 0;
  let gamesCounted = 0;
  /** One match through the runner, every game written to a PGN; the records, wall and CPU ms. */
  const runnerRun = async (): Promise<{ records: GameRecord[]; ms: number; cpuMs: number }> => {
    const dir = tempDir('tabiya-bench-');
    const pgn = new AppendFile(join(dir, 'bench.pgn'), { fresh: true });
    const records: GameRecord[] = [];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await runMatch(
      { engines, schedule, rules: {}, concurrency, waitMs: 0, recover: true, timeouts: DEFAULT_TIMEOUTS, repeat: 2, ...(openings ? { openings } : {}) },
      spawnEngine,
      {
        onGameEnd(rec, g) {
          records[g.number - 1] = rec;
          if (rec.fault?.kind === 'time') timeLosses++;
          else if (rec.fault) faults++;
          pgn.append(formatGamePgn(rec, { event: 'bench', site: '?', round: String(g.group + 1), minimal: false }));
        },
      },
    );
    const ms = performance.now() - t0;
    const c = process.cpuUsage(cpu0);
    pgn.close();
    removeTempDir(dir);
    killAllEngines();
    gamesCounted += out.board.games;
    return { records, ms, cpuMs: (c.user + c.system) / 1000 };
  };

  let ms = Infinity;
  let cpuMs = Infinity;
  const bare = { ms: Infinity, cpuMs: Infinity };
  let replay: { fen: string; plies: number }[] = [];
  for (let r = 0; r < runs; r++) {
    const run = await runnerRun();
    ms = Math.min(ms, run.ms);
    cpuMs = Math.min(cpuMs, run.cpuMs);
    // The runner plays the opening moves itself; the bare driver starts from the position after them.
    if (r === 0) replay = run.records.map((rec) => ({ fen: afterOpening(rec), plies: rec.moves.filter((m) => !m.book).length }));
    const b = await bareRun(replay);
    bare.ms = Math.min(bare.ms, b.ms);
    bare.cpuMs = Math.min(bare.cpuMs, b.cpuMs);
  }
  const totalPlies = replay.reduce((x, y) => x + y.plies, 0);
  const perGame = ms / games;
  const barePerGame = bare.ms / games;
  const lines = [
    `match runner: ${games} games at ${tc}, concurrency ${concurrency}, two instant engines, ${openings ? '2moves_v1 openings' : 'start position'}, ${totalPlies} engine plies (${(totalPlies / games).toFixed(0)} a game); best of ${runs} runs each, in turns`,
    `  tabiya runMatch:  ${(ms / 1000).toFixed(2)} s wall, ${perGame.toFixed(1)} ms/game, ${((ms * 1000) / totalPlies).toFixed(0)} us/ply; runner CPU ${(cpuMs / games).toFixed(1)} ms/game (${((cpuMs * 1000) / totalPlies).toFixed(0)} us/ply, ${((100 * cpuMs) / ms).toFixed(0)}% of one core)`,
    `  bare UCI driver:  ${(bare.ms / 1000).toFixed(2)} s wall, ${barePerGame.toFixed(1)} ms/game, ${((bare.ms * 1000) / totalPlies).toFixed(0)} us/ply; driver CPU ${(bare.cpuMs / games).toFixed(1)} ms/game`,
    `  overhead: ${(perGame - barePerGame).toFixed(1)} ms/game (${(((ms - bare.ms) * 1000) / totalPlies).toFixed(0)} us/ply), ratio runner/bare ${(ms / bare.ms).toFixed(2)}x wall, ${(cpuMs / bare.cpuMs).toFixed(2)}x CPU`,
    `  time losses: ${timeLosses} (target 0); other faults: ${faults}; games counted: ${gamesCounted} (every run)`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  if (timeLosses > 0 || faults > 0) process.exitCode = 1;
}

if (process.argv[1] === SELF && process.argv[2] === 'engine') engineMain();
