/**
 * tabiya's engine in real matches against the Debian engines CI installs, through `tabiya match`:
 * over UCI against Fairy-Max (xboard) and a strength-limited Stockfish, and over xboard against
 * Stockfish. Every game must end by the rules or by adjudication, never by a fault of ours
 * (illegal move, crash, stall, time loss, false claim), and the PGN must replay.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, DATA, readGames, runCli } from './matchHelpers/cli.js';

const STOCKFISH = '/usr/games/stockfish';
const FAIRYMAX = '/usr/games/fairymax';
const missing = [STOCKFISH, FAIRYMAX].filter((e) => !existsSync(e));
const OPENINGS = join(DATA, 'books/2moves_v1.epd.gz');
const STOCKFISH_1500 = ['name=Stockfish', `cmd=${STOCKFISH}`, 'option.UCI_LimitStrength=true', 'option.UCI_Elo=1500', 'option.Hash=16', 'option.Threads=1'];

interface Summary {
  games: number;
  stopped: string;
  players: { name: string; wins: number; draws: number; losses: number; faults: Record<string, number> }[];
}

async function play(dir: string, name: string, engines: string[][], extra: string[]): Promise<{ summary: Summary; pgn: string }> {
  const pgn = join(dir, `${name}.pgn`);
  const run = await runCli([
    'match',
    ...engines.flatMap((e) => ['--engine', ...e]),
    // A time loss of ours is a fault the test looks for; the margin forgives a stall of the
    // loaded test machine (two games at once beside other test files), not a clock mismanaged.
    '--each', 'tc=2+0.05', 'timemargin=300',
    '--openings', `file=${OPENINGS}`, 'format=epd', 'order=random', '--srand', '11',
    '--maxmoves', '70',
    ...extra,
    '--pgnout', pgn, '--json',
  ], { timeoutMs: 170_000 });
  assert.equal(run.code, 0, run.stderr);
  return { summary: JSON.parse(run.stdout) as Summary, pgn };
}

function assertClean(summary: Summary, pgn: string, games: number, ours: string): void {
  assert.equal(summary.stopped, 'completed');
  assert.equal(summary.games, games);
  // Ours must never be at fault; an opponent's fault (a time loss on a loaded machine) is
  // theirs, and then its game ends by that fault, which is all that is checked of it.
  const mine = summary.players.find((p) => p.name === ours)!;
  assert.deepEqual(Object.entries(mine.faults).filter(([, n]) => n > 0), [], `${ours} had faults`);
  const theirs = summary.players.filter((p) => p.name !== ours).reduce((n, p) => n + Object.values(p.faults).reduce((a, b) => a + b, 0), 0);
  const read = readGames(pgn);
  assert.equal(read.length, games);
  let byRules = 0;
  for (const g of read) {
    assert.ok(['1-0', '0-1', '1/2-1/2'].includes(g.result), `result ${g.result}`);
    assert.ok(g.uci.length > 8, 'the engines played beyond the two-move opening');
    assert.ok(g.tags.get('White') === ours || g.tags.get('Black') === ours);
    if (['normal', 'adjudication'].includes(g.tags.get('Termination')!)) byRules++;
  }
  assert.equal(byRules, games - theirs, 'every game not ended by an opponent fault ends by the rules or by adjudication');
}

test('tabiya over UCI plays Fairy-Max and Stockfish without a fault', { skip: missing.length > 0 ? `not installed: ${missing.join(', ')}` : false, timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-vs-'));
  try {
    const tabiya = ['name=tabiya', `cmd=${process.execPath}`, `arg=${CLI}`, 'arg=uci', 'option.Hash=16', 'option.OwnBook=false'];
    const { summary, pgn } = await play(dir, 'uci', [tabiya, ['name=Fairy-Max', `cmd=${FAIRYMAX}`, 'proto=xboard'], STOCKFISH_1500], [
      '--tournament', 'gauntlet', '--games', '2', '--repeat', '--concurrency', '2',
    ]);
    assertClean(summary, pgn, 4, 'tabiya');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tabiya over xboard plays Stockfish without a fault', { skip: missing.length > 0 ? `not installed: ${missing.join(', ')}` : false, timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-vs-'));
  try {
    const tabiya = ['name=tabiya-xb', `cmd=${process.execPath}`, `arg=${CLI}`, 'arg=xboard', 'proto=xboard', 'option.Hash=16'];
    const { summary, pgn } = await play(dir, 'xboard', [tabiya, STOCKFISH_1500], ['--games', '2', '--repeat', '--concurrency', '1']);
    assertClean(summary, pgn, 2, 'tabiya-xb');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
