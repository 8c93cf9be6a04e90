/**
 * `--resume`: a match interrupted with Ctrl-C continues where it stopped. The PGN and the journal
 * agree; every scheduled game is in the PGN exactly once, and the final counts match the PGN.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA, FIXTURES, readGames, runCli } from './matchHelpers/cli.js';

test('interrupt, then --resume, gives every game once', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-resume-'));
  const pgn = join(dir, 'r.pgn');
  const args = [
    'match',
    '--engine', 'name=A', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--engine', 'name=B', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--each', 'tc=5+0.1', '--games', '10', '--repeat', '--concurrency', '2', '--maxmoves', '20',
    '--openings', `file=${join(DATA, 'books/2moves_v1.epd.gz')}`, 'format=epd', 'order=random', '--srand', '5',
    '--pgnout', pgn,
  ];
  try {
    const first = await runCli(args, { onStdout: (out) => (out.match(/^Finished game/gm) ?? []).length >= 3 });
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stdout, /To resume it, run the same command with --resume/);
    const before = readGames(pgn).length;
    assert.ok(before >= 3 && before < 10, `${before} games before the resume`);
    // The same command without --resume must not overwrite the journal of the unfinished match.
    const size = statSync(pgn).size;
    const again = await runCli(args);
    assert.equal(again.code, 2, again.stderr);
    assert.match(again.stderr, /r\.pgn\.journal holds an unfinished match \(\d+ games played\): run the same command with --resume/);
    assert.equal(statSync(pgn).size, size, 'the PGN is untouched');
    // A torn write after the last journaled game must be cut off on resume.
    appendFileSync(pgn, '[Event "torn');

    const mismatch = await runCli([...args.map((a) => (a === 'tc=5+0.1' ? 'tc=6+0.1' : a)), '--resume']);
    assert.equal(mismatch.code, 2);
    assert.match(mismatch.stderr, /different match \(engines differs\)/);
    // A flipped byte in a field's name is a damaged header, not another match: exit 1, line named.
    const journalText = readFileSync(`${pgn}.journal`, 'utf8');
    writeFileSync(`${pgn}.journal`, journalText.replace('"engines"', '"enginfs"'));
    const damaged = await runCli([...args, '--resume']);
    assert.equal(damaged.code, 1, damaged.stderr);
    assert.match(damaged.stderr, /r\.pgn\.journal:1: the match header is damaged or from another version of tabiya: it has a field "enginfs" that a match never writes/);
    writeFileSync(`${pgn}.journal`, journalText);

    // The same options in another order are the same match (key=value groups are sets).
    const at = args.indexOf('--openings');
    const reordered = [...args.slice(0, at + 1), ...args.slice(at + 1, at + 4).reverse(), ...args.slice(at + 4)];
    assert.notDeepEqual(reordered, args);
    const second = await runCli([...reordered, '--resume', '--json']);
    assert.equal(second.code, 0, second.stderr);
    const summary = JSON.parse(second.stdout) as { games: number; wins: number; draws: number; losses: number };
    assert.equal(summary.games, 10);
    const games = readGames(pgn);
    assert.equal(games.length, 10);
    // Game numbers are not tagged, but each pair (Round) holds two games with colours swapped.
    const rounds = new Map<string, string[]>();
    for (const g of games) rounds.set(g.tags.get('Round')!, [...(rounds.get(g.tags.get('Round')!) ?? []), g.tags.get('White')!]);
    assert.deepEqual([...rounds.keys()].sort((x, y) => Number(x) - Number(y)), ['1', '2', '3', '4', '5']);
    for (const whites of rounds.values()) assert.deepEqual(whites.sort(), ['A', 'B']);
    let w = 0;
    let d = 0;
    let l = 0;
    for (const g of games) {
      if (g.result === '1/2-1/2') d++;
      else if ((g.result === '1-0') === (g.tags.get('White') === 'A')) w++;
      else l++;
    }
    assert.deepEqual([summary.wins, summary.draws, summary.losses], [w, d, l]);
    const journal = readFileSync(`${pgn}.journal`, 'utf8').trim().split('\n');
    assert.equal(journal.length, 12);
    assert.deepEqual(JSON.parse(journal[11]!), { type: 'end', stopped: 'completed', games: 10 }, 'a finished match closes its journal');
    const entries = journal.slice(1, 11).map((line) => JSON.parse(line) as { number: number; time: { moves: number }[] });
    assert.deepEqual(entries.map((e) => e.number).sort((x, y) => x - y), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Time use covers the games played before the interruption too (kept in the journal).
    const timed = (summary as unknown as { players: { time: { moves: number; lowestClockMs: number | null } }[] }).players;
    const journalMoves = entries.reduce((n, e) => n + e.time[0]!.moves + e.time[1]!.moves, 0);
    assert.ok(journalMoves > 0);
    assert.equal(timed[0]!.time.moves + timed[1]!.time.moves, journalMoves);
    assert.ok(timed.every((p) => p.time.lowestClockMs !== null && p.time.lowestClockMs > 0 && p.time.lowestClockMs <= 5100));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--resume refuses a damaged journal and a PGN cut since, exit 1', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-resume-'));
  const pgn = join(dir, 'r.pgn');
  const args = [
    'match',
    '--engine', 'name=A', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--engine', 'name=B', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--each', 'tc=5+0.1', '--games', '2', '--maxmoves', '10', '--pgnout', pgn, '--quiet',
  ];
  try {
    const first = await runCli(args);
    assert.equal(first.code, 0, first.stderr);
    const size = statSync(pgn).size;
    truncateSync(pgn, size >> 1);
    const cut = await runCli([...args, '--resume']);
    assert.equal(cut.code, 1, cut.stdout + cut.stderr);
    assert.match(cut.stderr, new RegExp(`--resume: \\S*r\\.pgn holds ${size >> 1} bytes, but \\S*r\\.pgn\\.journal vouches for ${size}`));
    writeFileSync(`${pgn}.journal`, 'garbage\n{"type":"game"}\n');
    const damaged = await runCli([...args, '--resume']);
    assert.equal(damaged.code, 1, damaged.stderr);
    assert.match(damaged.stderr, /^tabiya: match: --resume: \S*r\.pgn\.journal:1: /);
    assert.doesNotMatch(damaged.stderr, /internal error/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--resume after a journal line torn by a crash: the next record starts its own line', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-resume-'));
  const pgn = join(dir, 'r.pgn');
  const journal = `${pgn}.journal`;
  const args = [
    'match',
    '--engine', 'name=A', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--engine', 'name=B', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--each', 'tc=5+0.1', '--games', '3', '--maxmoves', '10', '--srand', '3', '--pgnout', pgn, '--quiet',
  ];
  try {
    const first = await runCli(args);
    assert.equal(first.code, 0, first.stderr);
    // A crash while game 3's record was written: no end line, half of game 3's line.
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    assert.equal(lines.length, 5);
    writeFileSync(journal, `${lines.slice(0, 3).join('\n')}\n${lines[3]!.slice(0, 40)}`);
    const resumed = await runCli([...args, '--resume']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const after = readFileSync(journal, 'utf8').trim().split('\n');
    assert.equal(after.length, 5, after.join('\n'));
    for (const line of after) JSON.parse(line);
    assert.equal(readGames(pgn).length, 3);
    // The journal stays readable: a new match into the same PGN starts.
    const next = await runCli(args);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(readGames(pgn).length, 6);
    // A last record that lost only its newline is kept, and the next one goes on a new line.
    const done = readFileSync(journal, 'utf8').trim().split('\n');
    writeFileSync(journal, `${done.slice(0, 3).join('\n')}\n${done[3]!}`);
    const again = await runCli([...args, '--resume']);
    assert.equal(again.code, 0, again.stderr);
    const last = readFileSync(journal, 'utf8').trim().split('\n');
    assert.deepEqual(last.map((l) => (JSON.parse(l) as { type: string }).type), ['match', 'game', 'game', 'game', 'end']);
    assert.equal(readGames(pgn).length, 6);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--resume refuses another initstr= as it refuses another option (exit 2); the same one resumes', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-resume-'));
  const pgn = join(dir, 'i.pgn');
  const args = (initstr: string): string[] => [
    'match',
    '--engine', 'name=A', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`, `initstr=${initstr}`,
    '--engine', 'name=B', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--each', 'depth=1', '--games', '2', '--maxmoves', '2', '--pgnout', pgn,
  ];
  try {
    const first = await runCli(args('setoption name Hash value 1'));
    assert.equal(first.code, 0, first.stderr);
    const other = await runCli([...args('setoption name Hash value 64'), '--resume']);
    assert.equal(other.code, 2, other.stderr);
    assert.match(other.stderr, /--resume: .*i\.pgn\.journal was written by a different match \(engines differs\)/);
    const same = await runCli([...args('setoption name Hash value 1'), '--resume']);
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /Resuming: 2 of 2 games already played/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--resume refuses an openings file edited since (the pairs still to play would take other openings), exit 2', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-resume-'));
  const pgn = join(dir, 'o.pgn');
  const epd = join(dir, 'o.epd');
  const lines = ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -', 'rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -'];
  const args = [
    'match',
    '--engine', 'name=A', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--engine', 'name=B', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--each', 'depth=1', '--games', '2', '--repeat', '--maxmoves', '2', '--openings', `file=${epd}`, 'format=epd', '--pgnout', pgn,
  ];
  try {
    writeFileSync(epd, `${lines.join('\n')}\n`);
    const first = await runCli(args);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(readFileSync(`${pgn}.journal`, 'utf8').includes('"openingsContent":"sha256:'), true);
    writeFileSync(epd, `${[...lines].reverse().join('\n')}\n`);
    const edited = await runCli([...args, '--resume']);
    assert.equal(edited.code, 2, edited.stderr);
    assert.match(edited.stderr, /was written by a different match \(openingsContent differs\)/);
    // A journal written before the content was kept still resumes.
    const [header, ...rest] = readFileSync(`${pgn}.journal`, 'utf8').split('\n');
    const h = JSON.parse(header!) as { identity: Record<string, unknown> };
    delete h.identity.openingsContent;
    writeFileSync(`${pgn}.journal`, [JSON.stringify(h), ...rest].join('\n'));
    const old = await runCli([...args, '--resume']);
    assert.equal(old.code, 0, old.stderr);
    assert.match(old.stdout, /Resuming: 2 of 2 games already played/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
