/**
 * Real matches with the Debian engines CI installs: Stockfish (UCI, strength-limited), Fairy-Max
 * and HoiChess (xboard), a fast time control, two games at a time, openings from the Stockfish
 * testing book. The PGN must read back with our reader and with pgn-extract, the summary's
 * W/D/L must equal the PGN's results, and each pair must be one opening with colours swapped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA, pgnExtractUci, readGames, runCli } from './matchHelpers/cli.js';

const ENGINES = ['/usr/games/stockfish', '/usr/games/fairymax', '/usr/games/hoichess'];
const missing = ENGINES.filter((e) => !existsSync(e));
const BOOK = join(DATA, 'books/8moves_v3.pgn.gz');

test('a round-robin of Stockfish, Fairy-Max and HoiChess', { skip: missing.length > 0 ? `not installed: ${missing.join(', ')}` : false, timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-match-'));
  const pgn = join(dir, 'games.pgn');
  try {
    const run = await runCli([
      'match',
      '--engine', 'name=Stockfish', 'cmd=/usr/games/stockfish', 'option.UCI_LimitStrength=true', 'option.UCI_Elo=1500', 'option.Hash=16', 'option.Threads=1',
      '--engine', 'name=Fairy-Max', 'cmd=/usr/games/fairymax', 'proto=xboard',
      '--engine', 'name=HoiChess', 'cmd=/usr/games/hoichess', 'arg=--xboard=on', 'arg=--norc', 'proto=xboard',
      '--each', 'tc=1+0.05', 'timemargin=100',
      '--games', '2', '--repeat', '--concurrency', '2',
      '--openings', `file=${BOOK}`, 'format=pgn', 'order=random', '--srand', '2024',
      '--maxmoves', '80',
      '--pgnout', pgn, '--json',
    ], { timeoutMs: 110_000 });
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as {
      games: number;
      stopped: string;
      players: { name: string; wins: number; draws: number; losses: number; faults: Record<string, number> }[];
    };
    assert.equal(summary.stopped, 'completed');
    assert.equal(summary.games, 6);

    // Our reader: every game reads back, with the tags the runner writes.
    const games = readGames(pgn);
    assert.equal(games.length, 6);
    for (const g of games) {
      assert.ok(['1-0', '0-1', '1/2-1/2'].includes(g.result));
      assert.equal(g.tags.get('Result'), g.result);
      assert.equal(g.tags.get('TimeControl'), '1+0.05');
      assert.equal(Number(g.tags.get('PlyCount')), g.uci.length);
      assert.ok(g.uci.length >= 16, 'the 16 book plies are in the game');
      assert.deepEqual(g.comments.slice(0, 16), Array(16).fill('book'));
    }

    // pgn-extract: the same moves.
    const px = pgnExtractUci(pgn);
    if (px) {
      assert.equal(px.games.length, 6, px.log);
      px.games.forEach((moves, i) => assert.deepEqual(moves.map((m) => m.toLowerCase()), games[i]!.uci, `game ${i + 1}`));
    }

    // The summary's W/D/L are the PGN's results.
    for (const p of summary.players) {
      let wins = 0;
      let draws = 0;
      let losses = 0;
      for (const g of games) {
        const side = g.tags.get('White') === p.name ? 0 : g.tags.get('Black') === p.name ? 1 : -1;
        if (side < 0) continue;
        if (g.result === '1/2-1/2') draws++;
        else if ((g.result === '1-0') === (side === 0)) wins++;
        else losses++;
      }
      assert.deepEqual([p.wins, p.draws, p.losses], [wins, draws, losses], p.name);
      assert.equal(p.faults.disconnect + p.faults.stall + p.faults.illegal, 0, `${p.name} had no engine faults`);
    }

    // Pairs: one Round tag per pair, same opening, colours swapped.
    const rounds = new Map<string, typeof games>();
    for (const g of games) rounds.set(g.tags.get('Round')!, [...(rounds.get(g.tags.get('Round')!) ?? []), g]);
    assert.equal(rounds.size, 3);
    for (const [round, pair] of rounds) {
      assert.equal(pair.length, 2, `round ${round}`);
      const [a, b] = pair as [(typeof games)[0], (typeof games)[0]];
      assert.equal(a.tags.get('White'), b.tags.get('Black'));
      assert.equal(a.tags.get('Black'), b.tags.get('White'));
      assert.deepEqual(a.uci.slice(0, 16), b.uci.slice(0, 16));
    }
    const openings = new Set([...rounds.values()].map((p) => p[0]!.uci.slice(0, 16).join(' ')));
    assert.equal(openings.size, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Chess960 opening with an xboard engine that does not list fischerandom in its variants stops the match (exit 1), no game is lost for it', { skip: missing.length > 0 ? `not installed: ${missing.join(', ')}` : false, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-match-'));
  try {
    const epd = join(dir, 'c960.epd');
    writeFileSync(epd, 'nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w KQkq - c0 "960";\n');
    const run = await runCli([
      'match',
      '--engine', 'name=Stockfish', 'cmd=/usr/games/stockfish', 'option.Hash=16', 'option.Threads=1',
      '--engine', 'name=Fairy-Max', 'cmd=/usr/games/fairymax', 'proto=xboard',
      '--each', 'tc=1+0.05', '--games', '2',
      '--openings', `file=${epd}`, 'format=epd',
      '--pgnout', join(dir, 'games.pgn'),
    ], { timeoutMs: 50_000 });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr + run.stdout, /Fairy-Max does not play Chess960 \(fischerandom is not in its feature variants\), and the opening at .*c960\.epd:1 is a Chess960 position/);
    assert.match(run.stdout + run.stderr, /stopped after 0 games/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
