/**
 * `tabiya book …` on .tbk books as a user runs them: make, info, probe (table, --json,
 * --explain, --choose), set, annotate, learn, merge, import/export, and bad input (errors name
 * the file and what is wrong; broken games are skipped, counted and listed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E_WINS, readHeader } from '../src/book/rich/format.js';
import { makeRichBook } from '../src/book/node/richMake.js';
import { SECTION } from '../src/book/rich/container.js';
import { TbkBook } from '../src/book/rich/tbkBook.js';
import { BlockIndex } from '../src/book/rich/positions.js';
import { cliIn } from './support/cli.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const V = fileURLToPath(new URL('../../../shared/docs/polyglot-vectors/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-tbk-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const { tabiya, json } = cliIn(tmp);
type Row = { uci: string; san: string; games: number; wins: number; draws: number; losses: number; userValue: number | null; dynWins: number; dynDraws: number; dynLosses: number; postBook: boolean; evalCp: number | null; probability: number; reason: string; weight: number };
const rows = (args: string[]): Row[] => json(['book', 'probe', ...args]).moves as Row[];

const GAMES = `[White "Alpha"] [Black "Beta"] [Result "1-0"] [WhiteElo "2500"] [BlackElo "2300"]
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[White "Gamma"] [Black "Alpha"] [Result "0-1"] [WhiteElo "2400"] [BlackElo "2500"]
1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 0-1

[White "Alpha"] [Black "Delta"] [Result "1/2-1/2"]
1. d4 d5 2. c4 e6 1/2-1/2

[White "Broken"] [Black "Game"] [Result "1-0"]
1. e4 e5 2. Ke3 1-0

[White "Alpha"] [Black "Beta"] [Result "1-0"]
1. e4 c5 2. Nf3 d6 1-0
`;

test('make, info and probe: statistics per move, JSON shape, broken games skipped and listed', () => {
  writeFileSync(join(tmp, 'g.pgn'), GAMES);
  const r = tabiya(['book', 'make', 'g.pgn', '-o', 'g.tbk']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /skipped: g\.pgn:11:13: game 4: illegal-move: illegal move 2\. Ke3/);
  assert.match(r.stdout, /games read +4, 1 broken and skipped/);
  const info = json(['book', 'info', 'g.tbk']);
  assert.equal(info.games, 4);
  assert.equal(info.checksumOk, true);
  assert.equal(info.polyglotExport, 'exact');
  const start = rows(['g.tbk']);
  assert.deepEqual(start.map((m) => [m.uci, m.san, m.games, m.wins, m.draws, m.losses]), [
    ['e2e4', 'e4', 3, 2, 0, 1],
    ['d2d4', 'd4', 1, 0, 1, 0],
  ]);
  const e5 = rows(['g.tbk', '--moves', 'e4', '--policy', 'gnu-best']);
  assert.deepEqual(e5.map((m) => [m.san, m.wins, m.losses]), [['e5', 1, 1], ['c5', 0, 1]]);
  const text = tabiya(['book', 'probe', 'g.tbk', '--fen', 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', '--explain']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /Nf3 +g1f3 +2 +50\.0 +0\.0 +50\.0 +2450/);
  assert.match(text.stdout, /MinBookGames/);
  // The rating filter: e5's movers averaged 2400 (2300 and 2500); c5's game has no ratings.
  const filtered = rows(['g.tbk', '--moves', 'e4', '--policy', 'uniform', '--min-avg-elo', '2400']);
  assert.deepEqual(filtered.map((m) => [m.san, m.probability]), [['e5', 1], ['c5', 0]]);
  assert.match(filtered[1]!.reason, /no rated games \(MinAvgElo 2400\)/);
  const higher = rows(['g.tbk', '--moves', 'e4', '--policy', 'uniform', '--min-avg-elo', '2401']);
  assert.match(higher[0]!.reason, /average Elo 2400 < MinAvgElo 2401/);
  const none = rows(['g.tbk', '--moves', 'h4']);
  assert.deepEqual(none, []);
  const chosen = json(['book', 'probe', 'g.tbk', '--choose', 'gnu-best', '--seed', '1']);
  assert.deepEqual(chosen.chosen, { uci: 'e2e4', san: 'e4' });
});

test("probe gives Terra's select best the book's order, as the engine does: a tie goes to the move seen first, not to the most played", () => {
  // After 1.e4, c5 (seen first, 4 games) and e5 (6 games) both score 50 %.
  const games: string[] = [];
  for (const r of ['1-0', '0-1', '1/2-1/2', '1/2-1/2']) games.push(`[Result "${r}"]\n\n1. e4 c5 2. Nf3 ${r}\n`);
  for (const r of ['1-0', '0-1', '1-0', '0-1', '1/2-1/2', '1/2-1/2']) games.push(`[Result "${r}"]\n\n1. e4 e5 2. Nf3 ${r}\n`);
  writeFileSync(join(tmp, 'tie.pgn'), games.join('\n'));
  assert.equal(tabiya(['book', 'make', 'tie.pgn', '-o', 'tie.tbk', '--quiet']).code, 0);
  const probe = json(['book', 'probe', 'tie.tbk', '--moves', 'e4', '--random-type', '0', '--choose', 'terra', '--seed', '1']);
  const moves = probe.moves as Row[];
  // The table still lists the most played first.
  assert.deepEqual(moves.map((m) => [m.san, m.games, m.probability]), [['e5', 6, 0], ['c5', 4, 1]]);
  assert.deepEqual(probe.chosen, { uci: 'c7c5', san: 'c5' });
  assert.match(moves[0]!.reason, /^ties with the best value 50, which goes to the first in book order/);
  // The engine's own report (xboard's bk) plays the same move.
  const xb = spawnSync(process.execPath, [MAIN, 'xboard'], { cwd: tmp, encoding: 'utf8', input: `xboard\nprotover 2\noption BookFile=${join(tmp, 'tie.tbk')}\noption RandomType=0\nusermove e2e4\nbk\nquit\n` });
  assert.match(xb.stdout, /^ c5 +play +100%/m);
});

test('probe of a book imported from a .bin lists the moves by weight and shows it: they have no games to sort or show', () => {
  // After 1.e4: e5 (two Black wins, weight 4) and c5 (one, weight 2); c5's move code is the lower.
  const games = ['1. e4 e5 2. Nf3 0-1', '1. e4 e5 2. Nc3 0-1', '1. e4 c5 2. Nf3 0-1'].map((g) => `[Result "0-1"]\n\n${g}\n`);
  writeFileSync(join(tmp, 'w.pgn'), games.join('\n'));
  assert.equal(tabiya(['book', 'make', 'w.pgn', '-o', 'w.bin', '--min-games', '1']).code, 0);
  assert.equal(tabiya(['book', 'import', 'w.bin', '-o', 'w.tbk']).code, 0);
  assert.deepEqual(rows(['w.tbk', '--moves', 'e4']).map((m) => [m.san, m.games, (m as Row & { weight: number }).weight]), [['e5', 0, 4], ['c5', 0, 2]]);
  const text = tabiya(['book', 'probe', 'w.tbk', '--moves', 'e4']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^move +uci +games weight +win%/m);
  assert.match(text.stdout, /^e5 +e7e5 +0 +4 +0\.0/m);
  // A book of games keeps its columns.
  assert.doesNotMatch(tabiya(['book', 'probe', 'tie.tbk', '--moves', 'e4']).stdout, /weight/);
});

test("make -o X.tbk takes the Polyglot builder's filters; make-book's finishing options are refused, they belong to export", () => {
  const won = json(['book', 'make', 'g.pgn', '-o', 'f.tbk', '--result', '1-0', '--quiet']);
  assert.equal(won.gamesUsed, 2);
  assert.deepEqual(rows(['f.tbk']).map((m) => [m.san, m.games]), [['e4', 2]]);
  const rated = json(['book', 'make', 'g.pgn', '-o', 'f.tbk', '--min-elo', '2400', '--player', 'gamma', '--quiet']);
  assert.equal(rated.gamesUsed, 1);
  assert.deepEqual(rows(['f.tbk']).map((m) => [m.san, m.games, m.losses]), [['e4', 1, 1]]);
  // One player's repertoire with one colour: Alpha's games as White, then as Black.
  const white = json(['book', 'make', 'g.pgn', '-o', 'f.tbk', '--white', 'alpha', '--quiet']);
  assert.equal(white.gamesUsed, 3);
  assert.deepEqual(rows(['f.tbk']).map((m) => [m.san, m.games]), [['e4', 2], ['d4', 1]]);
  const black = json(['book', 'make', 'g.pgn', '-o', 'f.tbk', '--black', 'ALPHA', '--quiet']);
  assert.equal(black.gamesUsed, 1);
  assert.deepEqual(rows(['f.tbk', '--moves', 'e4']).map((m) => [m.san, m.games, m.wins]), [['e5', 1, 1]]);
  const before = readFileSync(join(tmp, 'f.tbk'));
  for (const [option, named] of [[['--only-black'], '--only-white/--only-black'], [['--uniform'], '--uniform'], [['--min-score', '50'], '--min-score']] as const) {
    const r = tabiya(['book', 'make', 'g.pgn', '-o', 'f.tbk', ...option, '--quiet']);
    assert.equal(r.code, 2, option[0]);
    assert.ok(r.stderr.includes(`${named} shapes the Polyglot export of a .tbk: give it to book export`), r.stderr);
    assert.deepEqual(readFileSync(join(tmp, 'f.tbk')), before, 'nothing written');
  }
});

test('--max-ply 0 (a book of no moves) is refused before anything is written, for .bin and .tbk, make and export', () => {
  for (const args of [['make', 'g.pgn', '-o', 'zero.bin', '--quiet'], ['make', 'g.pgn', '-o', 'zero.tbk', '--quiet'], ['export', 'g.tbk', '-o', 'zero.bin']]) {
    const r = tabiya(['book', ...args, '--max-ply', '0']);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stderr, 'tabiya: option --max-ply: 0 is out of range (at least 1)\n');
    assert.ok(!existsSync(join(tmp, args[3]!)), `${args[3]} not written`);
  }
});

test("learning keeps a PostBook move's mean evaluation moving after many games (it froze when rounded at every game)", () => {
  copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'ev.tbk'));
  const games = (cp: string): string => `[White "engine"] [Black "x"] [Result "1-0"]\n1. e4 c5 2. Nf3 d6 3. a3 {${cp}/10} 1-0\n\n`.repeat(100);
  writeFileSync(join(tmp, 'ev0.pgn'), games('+0.00'));
  writeFileSync(join(tmp, 'ev40.pgn'), games('+0.40'));
  for (const f of ['ev0.pgn', 'ev40.pgn']) assert.equal(tabiya(['book', 'learn', 'ev.tbk', f, '--player', 'engine']).code, 0);
  const a3 = rows(['ev.tbk', '--moves', 'e4 c5 Nf3 d6']).find((m) => m.san === 'a3')!;
  assert.equal(a3.postBook, true);
  // 100 evaluations of 0 and 100 of +40: the mean is 20 (within the centipawn the layout keeps).
  assert.ok(Math.abs(a3.evalCp! - 20) <= 1, `mean ${a3.evalCp}`);
});

test('a learned mate counts as 10 pawns in the mean evaluation, not as 200', () => {
  copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'mate.tbk'));
  // The engine as Black: mated in one game's line (-M3 from its side), +0.30 in the other.
  writeFileSync(
    join(tmp, 'mate.pgn'),
    '[White "x"] [Black "engine"] [Result "1-0"]\n1. e4 c5 2. Nf3 d6 3. a3 Nf6 {-M3/20} 1-0\n\n[White "x"] [Black "engine"] [Result "1/2-1/2"]\n1. e4 c5 2. Nf3 d6 3. a3 Nf6 {+0.30/20} 1/2-1/2\n\n',
  );
  assert.equal(tabiya(['book', 'learn', 'mate.tbk', 'mate.pgn', '--player', 'engine']).code, 0);
  const nf6 = rows(['mate.tbk', '--moves', 'e4 c5 Nf3 d6 a3']).find((m) => m.san === 'Nf6')!;
  assert.deepEqual([nf6.postBook, nf6.dynWins, nf6.dynDraws, nf6.dynLosses, nf6.evalCp], [true, 0, 1, 1, (-1000 + 30) / 2]);
});

test('learn counts a game as one with evaluations only when an evaluation was learned from it', () => {
  copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'we.tbk'));
  // The first game's evaluations are on the opponent's moves and the engine's book moves: no
  // PostBook move takes one. The second game's PostBook move a3 has one.
  writeFileSync(
    join(tmp, 'we.pgn'),
    '[White "x"] [Black "engine"] [Result "0-1"]\n1. e4 {+0.30/10} e5 {-0.10/10} 2. Nf3 {[%eval 0.2]} Nc6 0-1\n\n' +
      '[White "engine"] [Black "x"] [Result "1-0"]\n1. e4 c5 2. Nf3 d6 3. a3 {+0.25/12} 1-0\n\n',
  );
  const learned = json(['book', 'learn', 'we.tbk', 'we.pgn', '--player', 'engine']);
  assert.deepEqual([learned.gamesLearned, learned.withEvals, learned.postBookMoves], [2, 1, 1]);
  assert.match(tabiya(['book', 'learn', 'we.tbk', 'we.pgn', '--player', 'engine']).stdout, /games learned +2 \(1 with evaluations\)/);
});

test('book set clear and a second annotate add nothing to the book, and say so', () => {
  copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'add.tbk'));
  // Clearing a move the book lacks: nothing to clear, nothing added.
  const cleared = json(['book', 'set', 'add.tbk', '--moves', 'e4', '--move', 'a6', '--value', 'clear']);
  assert.equal(cleared.added, false);
  assert.equal(rows(['add.tbk', '--moves', 'e4']).find((m) => m.san === 'a6'), undefined);
  writeFileSync(join(tmp, 'add.pgn'), '[Event "1"]\n1. e4 a6? *\n');
  assert.match(tabiya(['book', 'annotate', 'add.tbk', 'add.pgn']).stdout, /\(1 added to the book\)/);
  // The same lines again: a6 is in the book now.
  assert.match(tabiya(['book', 'annotate', 'add.tbk', 'add.pgn']).stdout, /\(0 added to the book\)/);
  assert.equal(json(['book', 'set', 'add.tbk', '--moves', 'e4', '--move', 'a6', '--value', '?']).added, false);
  const r = tabiya(['book', 'set', 'add.tbk', '--moves', 'e4', '--move', 'a6', '--value', 'clear']);
  assert.equal(r.stdout, 'a6 (a7a6): user value and learned statistics cleared (no game played it and no note is left: it is no longer in the book)\n');
});

test('set, annotate and learn change the book; probe shows them', () => {
  copyFileSync(join(tmp, 'g.tbk'), join(tmp, 's.tbk'));
  let r = tabiya(['book', 'set', 's.tbk', '--moves', 'e2e4', '--move', 'c7c5', '--value', '!']);
  assert.equal(r.code, 0, r.stderr);
  r = tabiya(['book', 'set', 's.tbk', '--moves', 'e4', '--move', 'Nf6', '--value', '?']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /added to the book/);
  let after = rows(['s.tbk', '--moves', 'e4']);
  assert.deepEqual(after.map((m) => [m.san, m.userValue]), [['e5', null], ['c5', 75], ['Nf6', 0]]);
  assert.equal(after.find((m) => m.san === 'Nf6')!.probability, 0);
  writeFileSync(join(tmp, 'lines.pgn'), '[Event "1"]\n1. e4 e5?! 2. Nf3!!\n[Event "2"]\n1. d4? *\n');
  r = tabiya(['book', 'annotate', 's.tbk', 'lines.pgn']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /2 lines, 3 NAGs/);
  after = rows(['s.tbk', '--moves', 'e4']);
  assert.equal(after.find((m) => m.san === 'e5')!.userValue, 15);
  assert.equal(rows(['s.tbk']).find((m) => m.san === 'd4')!.userValue, 0);
  writeFileSync(join(tmp, 'played.pgn'), '[White "Engine"] [Black "Alpha"] [Result "1-0"]\n1. e4 {book} e5 2. Nf3 {+0.30/10} Nc6 3. Bc4 {+0.45/12} Bc5 4. c3 {[%eval 0.5]} 1-0\n\n[White "Nobody"] [Black "Else"] [Result "0-1"]\n1. d4 0-1\n\n[White "Cut"] [Black "Off"] [Result "1-0"]\n1. c4 (1. d4');
  const learned = json(['book', 'learn', 's.tbk', 'played.pgn', '--player', 'engine', '--post-book', '2']);
  assert.deepEqual([learned.gamesLearned, learned.notPlayer, learned.bookMoves, learned.userValued, learned.postBookMoves, learned.postBookNew], [1, 1, 1, 1, 2, 2]);
  // The game cut off is counted as broken, not also as another player's.
  assert.deepEqual([learned.gamesRead, learned.gamesSkipped], [2, 1]);
  assert.equal(rows(['s.tbk']).find((m) => m.san === 'e4')!.dynWins, 1);
  assert.equal(rows(['s.tbk', '--moves', 'e4 e5']).find((m) => m.san === 'Nf3')!.dynWins, 0, 'Nf3 has a user value (!!): no learning');
  const bc4 = rows(['s.tbk', '--moves', 'e4 e5 Nf3 Nc6']).find((m) => m.san === 'Bc4')!;
  assert.deepEqual([bc4.postBook, bc4.dynWins, bc4.evalCp, bc4.games], [true, 1, 45, 0]);
  const c3 = rows(['s.tbk', '--moves', 'e4 e5 Nf3 Nc6 Bc4 Bc5']).find((m) => m.san === 'c3')!;
  assert.deepEqual([c3.postBook, c3.evalCp], [true, 50]);
  r = tabiya(['book', 'set', 's.tbk', '--moves', 'e4', '--move', 'Nf6', '--value', 'clear']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(rows(['s.tbk', '--moves', 'e4']).find((m) => m.san === 'Nf6'), undefined, 'a cleared move without games is gone');
  const info = json(['book', 'info', 's.tbk']);
  assert.deepEqual([info.learnedGames, info.changes, info.checksumOk], [1, 6, true]);
});

test('merge with --min-games, import and export through the CLI', () => {
  writeFileSync(join(tmp, 'h.pgn'), '[Result "1-0"]\n1. e4 e5 2. Nf3 1-0\n\n[Result "0-1"]\n1. c4 e5 0-1\n');
  assert.equal(tabiya(['book', 'make', 'h.pgn', '-o', 'h.tbk', '--quiet']).code, 0);
  const m = json(['book', 'merge', 'g.tbk', 'h.tbk', '-o', 'gh.tbk', '--min-games', '2']);
  assert.equal(m.games, 6);
  assert.deepEqual(rows(['gh.tbk']).map((x) => [x.san, x.games]), [['e4', 4]], 'd4 and c4 have 1 game each');
  assert.deepEqual(rows(['gh.tbk', '--moves', 'e4 e5']).map((x) => [x.san, x.wins, x.losses]), [['Nf3', 2, 1]]);
  // Books keep their games, so a merge is make-book over the first book's games then the
  // second's: exact (a merge cut by --min-games is not).
  const ex = json(['book', 'export', 'gh.tbk', '-o', 'gh.bin', '--min-games', '1']);
  assert.equal(ex.exact, false, 'the merge was cut by --min-games 2');
  assert.match(String(ex.notes), /merged/);
  const refused = tabiya(['book', 'export', 'gh.tbk', '-o', 'gh2.bin', '--exact']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /gh\.tbk: cannot export exactly/);
  assert.equal(json(['book', 'merge', 'g.tbk', 'h.tbk', '-o', 'gh-all.tbk']).games, 6);
  assert.equal(tabiya(['book', 'export', 'gh-all.tbk', '-o', 'gh-all.bin', '--min-games', '1', '--exact']).code, 0);
  assert.equal(tabiya(['book', 'make', 'g.pgn', 'h.pgn', '-o', 'gh-ref.bin', '--min-games', '1', '--quiet']).code, 0);
  assert.deepEqual(readFileSync(join(tmp, 'gh-all.bin')), readFileSync(join(tmp, 'gh-ref.bin')));
  // A .bin imported and exported is the same file.
  const imp = json(['book', 'import', join(V, 'out/main_min1.bin'), '-o', 'main.tbk']);
  // Moves that only lost were dropped by make-book, so some lines break: their later entries are
  // read without their position.
  assert.equal(imp.entries, 38);
  assert.ok((imp.resolved as number) >= 25 && (imp.resolved as number) + (imp.unresolved as number) === 38, JSON.stringify(imp));
  const back = json(['book', 'export', 'main.tbk', '-o', 'main.bin']);
  assert.equal(back.kind, 'imported');
  assert.deepEqual(readFileSync(join(tmp, 'main.bin')), readFileSync(join(V, 'out/main_min1.bin')));
  // Without games, the moves are listed by weight, as the .bin's own probe lists them (equal
  // weights by move code).
  const weights = (moves: { uci: string; weight: number }[]): [string, number][] => moves.map((x) => [x.uci, x.weight]);
  const binMoves = JSON.parse(tabiya(['book', 'probe', join(V, 'out/main_min1.bin'), '--json']).stdout).moves as { uci: string; weight: number }[];
  assert.deepEqual(weights(rows(['main.tbk'])), weights(binMoves).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  assert.deepEqual(rows(['main.tbk']).map((x) => x.uci), ['e2e4', 'h2h4', 'c2c4', 'd2d4']);
  // make -o X.tbk then export equals make -o X.bin.
  assert.equal(tabiya(['book', 'make', join(V, 'pgn/main.pgn'), '-o', 'v.tbk', '--quiet']).code, 0);
  assert.equal(tabiya(['book', 'export', 'v.tbk', '-o', 'v.bin', '--min-games', '1', '--exact']).code, 0);
  assert.deepEqual(readFileSync(join(tmp, 'v.bin')), readFileSync(join(V, 'out/main_min1.bin')));
});

test('bad input: errors name the file and say what is wrong; nothing half-written is left', () => {
  copyFileSync(join(V, 'out/main_min1.bin'), join(tmp, 'fake.tbk'));
  let r = tabiya(['book', 'probe', 'fake.tbk']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /fake\.tbk: (not a \.tbk book|too short)/);
  const good = readFileSync(join(tmp, 'g.tbk'));
  writeFileSync(join(tmp, 'cut.tbk'), good.subarray(0, good.length - 10));
  r = tabiya(['book', 'info', 'cut.tbk']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /cut\.tbk: the file has \d+ bytes but the book was written with \d+: it was truncated/);
  const flipped = Buffer.from(good);
  flipped[flipped.length - 40]! ^= 1;
  writeFileSync(join(tmp, 'flip.tbk'), flipped);
  r = tabiya(['book', 'info', 'flip.tbk']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /flip\.tbk: section \w+ (\(bytes \d+ to \d+\) fails its checksum: the file is damaged|is damaged)/);
  r = tabiya(['book', 'set', 'flip.tbk', '--move', 'e4', '--value', '50']);
  assert.equal(r.code, 1, 'a damaged book is not changed');
  assert.match(r.stderr, /fails its checksum|is damaged/);
  r = tabiya(['book', 'set', 'g.tbk', '--move', 'e5', '--value', '50']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--move: .*e5/);
  r = tabiya(['book', 'set', 'g.tbk', '--move', 'e4', '--value', 'great']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /"great" is not a user value/);
  r = tabiya(['book', 'make', 'g.pgn', '-o', 'scratch.tbk', '--tmp-dir', 'no-such-dir', '--memory', '64K']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'tabiya: cannot write the scratch files in no-such-dir: no such directory (--tmp-dir chooses where they go)\n');
  r = tabiya(['book', 'add', 'missing.tbk', 'g.pgn']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /missing\.tbk: no such book/);
  r = tabiya(['book', 'learn', 'g.tbk', 'nope.pgn', '--player', 'x']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /nope\.pgn: no such file/);
  // A Polyglot book given where a rich one is changed: refused before the games are read, with the way to make one.
  copyFileSync(join(V, 'out/main_min1.bin'), join(tmp, 'poly.bin'));
  for (const args of [['set', 'poly.bin', '--move', 'e4', '--value', '50'], ['learn', 'poly.bin', 'g.pgn', '--player', 'x'], ['annotate', 'poly.bin', 'g.pgn']]) {
    r = tabiya(['book', ...args]);
    assert.equal(r.code, 1, args.join(' '));
    assert.equal(r.stderr, 'tabiya: poly.bin: a Polyglot .bin book, not a .tbk: this needs a rich book (tabiya book import poly.bin -o poly.tbk makes one)\n', args.join(' '));
  }
  assert.ok(readFileSync(join(tmp, 'poly.bin')).equals(readFileSync(join(V, 'out/main_min1.bin'))));
  r = tabiya(['book', 'export', 'g.tbk', '-o', 'g2.tbk']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /g2\.tbk ends in \.tbk/);
  r = tabiya(['book', 'merge', 'g.tbk', join(V, 'out/main_min1.bin'), '-o', 'gh.bin']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /g\.tbk: book merge -o X\.bin reads Polyglot books/);
  writeFileSync(join(tmp, 'junk.pgn'), '1. e4 e5 2. Qxf7 *\n');
  r = tabiya(['book', 'make', 'junk.pgn', '-o', 'junk.tbk']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /junk\.pgn: no readable game \(first error at line 1/);
  r = tabiya(['book', 'annotate', 'g.tbk', 'junk.pgn']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /junk\.pgn: no readable line \(first error at line 1, column 13: illegal move 2\. Qxf7/);
  copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'binary.pgn'));
  r = tabiya(['book', 'learn', 'g.tbk', 'binary.pgn', '--player', 'x']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /binary\.pgn:\d+: binary data \(a NUL byte at byte \d+\), not PGN text/);
  assert.equal(json(['book', 'info', 'g.tbk']).changes, 1, 'the book is unchanged');
  assert.deepEqual(readdirSync(tmp).filter((f) => f.includes('.tmp') || f.endsWith('.lock') || f === 'junk.tbk'), []);
});

test('a damaged .tbk is refused by every command that reads it, naming the file (exit 1)', async () => {
  // Version 2: a flipped byte in the stored positions fails the block's checksum when a probe
  // reads it, and the section's checksum for every command that reads the book whole.
  const good = readFileSync(join(tmp, 'g.tbk'));
  const opened = TbkBook.open(good, 'g.tbk');
  assert.ok(opened.ok);
  const positions = opened.value.section(SECTION.POSITIONS)!;
  const lines = opened.value.section(SECTION.BLOCKS)!;
  const blocks = new BlockIndex(good.subarray(lines.offset, lines.offset + lines.length));
  // The block of the start position (Polyglot key 463b96181691fc9c), which `probe` reads first.
  const start = blocks.offset[blocks.find(0x463b9618, 0x1691fc9c)]!;
  const bad = Buffer.from(good);
  bad[positions.offset + start + 3]! ^= 0x40;
  writeFileSync(join(tmp, 'bad.tbk'), bad);
  for (const args of [
    ['probe', 'bad.tbk'],
    ['reach', 'bad.tbk'],
    ['info', 'bad.tbk'],
    ['export', 'bad.tbk', '-o', 'bad.bin'],
    ['merge', 'g.tbk', 'bad.tbk', '-o', 'bad2.tbk'],
    ['add', 'bad.tbk', 'g.pgn'],
    ['learn', 'bad.tbk', 'g.pgn', '--player', 'alpha'],
    ['set', 'bad.tbk', '--move', 'e4', '--value', '50'],
  ]) {
    const r = tabiya(['book', ...args]);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.stderr, /bad\.tbk: (section positions|position block \d+) \(bytes \d+ to \d+\) fails its checksum: the file is damaged/, args.join(' '));
    assert.doesNotMatch(r.stdout, /4294967/);
  }
  // Version 1 (still read): the damage that showed as 4294967296 games, the first entry's wins
  // turned to 2^32 - 1.
  await makeRichBook(join(tmp, 'g1.tbk'), { inputs: [join(tmp, 'g.pgn')] });
  const good1 = readFileSync(join(tmp, 'g1.tbk'));
  const h = readHeader(good1, good1.length);
  assert.ok(typeof h !== 'string');
  const bad1 = Buffer.from(good1);
  bad1.writeUInt32BE(0xffffffff, h.entriesOffset + E_WINS);
  writeFileSync(join(tmp, 'bad1.tbk'), bad1);
  for (const args of [
    ['probe', 'bad1.tbk'],
    ['probe', 'bad1.tbk', '--moves', 'e4', '--json'],
    ['reach', 'bad1.tbk', '--min-games', '1'],
    ['info', 'bad1.tbk'],
    ['export', 'bad1.tbk', '-o', 'bad.bin'],
    ['merge', 'g.tbk', 'bad1.tbk', '-o', 'bad2.tbk'],
    ['add', 'bad1.tbk', 'g.pgn'],
    ['learn', 'bad1.tbk', 'g.pgn', '--player', 'alpha'],
  ]) {
    const r = tabiya(['book', ...args]);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.stderr, /bad1\.tbk: checksum mismatch \(stored [0-9a-f]{8}, computed [0-9a-f]{8}\): the file is damaged/, args.join(' '));
    assert.doesNotMatch(r.stdout, /4294967/);
  }
  assert.ok(!readdirSync(tmp).some((f) => f === 'bad.bin' || f === 'bad2.tbk'), 'nothing written');
  // The other format under the wrong name says what it is.
  copyFileSync(join(V, 'out/main_min1.bin'), join(tmp, 'realbin.tbk'));
  let r = tabiya(['book', 'probe', 'realbin.tbk']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /realbin\.tbk: not a \.tbk book \(it looks like a Polyglot \.bin book: the book commands pick the format by the file name, so name it \.bin\)/);
  copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'realtbk.bin'));
  for (const args of [['probe', 'realtbk.bin'], ['info', 'realtbk.bin'], ['dump', 'realtbk.bin', '--color', 'white'], ['import', 'realtbk.bin', '-o', 'x.tbk']]) {
    r = tabiya(['book', ...args]);
    assert.equal(r.code, 1, args[0]);
    assert.match(r.stderr, /realtbk\.bin: not a Polyglot book \(it looks like a tabiya rich book \(\.tbk\); the book commands pick the format by the file name, so name it \.tbk\)/, args[0]);
  }
});

test('options of one format given for the other are refused (exit 2), not ignored', () => {
  for (const args of [
    ['info', 'g.tbk', '--exact'],
    ['info', 'g.tbk', '--no-lines'],
    ['probe', 'g.tbk', '--min-weight', '5'],
    ['merge', 'g.tbk', 'h.tbk', '-o', 'x.tbk', '--priority', 'first'],
    ['merge', 'g.tbk', 'h.tbk', '-o', 'x.tbk', '--polyglot-compat'],
    ['probe', join(V, 'out/main_min1.bin'), '--explain'],
    ['probe', join(V, 'out/main_min1.bin'), '--policy', 'gnu-best'],
    ['probe', join(V, 'out/main_min1.bin'), '--book-treshold', '20'],
    ['merge', join(V, 'out/L1.bin'), join(V, 'out/L2.bin'), '-o', 'x.bin', '--min-games', '2'],
  ]) {
    const r = tabiya(['book', ...args]);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /^tabiya: --[a-z-]+ applies to \.(bin|tbk) books only \(this (info|probe|merge) is on a \.(bin|tbk)\)\n$/, args.join(' '));
  }
  assert.ok(!readdirSync(tmp).some((f) => f === 'x.tbk' || f === 'x.bin'));
});

test('one spelling per option: --min-games, --post-book, --book-threshold; the old ones still work', () => {
  const same = (a: string[], b: string[]): void => assert.deepEqual(json(a), json(b));
  same(['book', 'probe', 'g.tbk', '--policy', 'polyglot-weighted', '--book-threshold', '400'], ['book', 'probe', 'g.tbk', '--policy', 'polyglot-weighted', '--book-treshold', '400']);
  // Shares of the start position: e4 80%, d4 20%; a threshold of 40% leaves d4 out.
  const inPlay = (extra: string[]): [string, boolean][] => rows(['g.tbk', '--policy', 'polyglot-weighted', ...extra]).map((m) => [m.san, m.probability > 0]);
  assert.deepEqual(inPlay([]), [['e4', true], ['d4', true]]);
  assert.deepEqual(inPlay(['--book-threshold', '400']), [['e4', true], ['d4', false]], 'the threshold applies');
  for (const spelling of ['--min-games', '--min-game']) {
    const ex = json(['book', 'export', 'g.tbk', '-o', 'mg.bin', spelling, '2']);
    assert.equal(ex.entries, 3, spelling);
  }
  writeFileSync(join(tmp, 'eng.pgn'), '[White "engine"]\n[Black "x"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d3 d6 1-0\n');
  for (const spelling of ['--post-book', '--postbook']) {
    copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'pb.tbk'));
    assert.equal(json(['book', 'learn', 'pb.tbk', 'eng.pgn', '--player', 'engine', spelling, '1']).postBookMoves, 1, spelling);
  }
  const help = tabiya(['help', 'book', 'learn']).stdout;
  assert.match(help, /--post-book <n>/);
  assert.doesNotMatch(help, /--postbook/);
});

test('export takes --max-ply: a smaller one is replayed from the book\'s games, as book make would count them; a larger one is refused', () => {
  const r = tabiya(['book', 'export', 'g.tbk', '-o', 'mp.bin', '--max-ply', '1024', '--min-games', '1']);
  assert.equal(r.code, 0, r.stderr);
  const eight = tabiya(['book', 'export', 'g.tbk', '-o', 'mp8.bin', '--max-ply', '8', '--min-games', '1']);
  assert.equal(eight.code, 0, eight.stderr);
  assert.equal(tabiya(['book', 'make', 'g.pgn', '-o', 'mp8-ref.bin', '--max-ply', '8', '--min-games', '1', '--quiet']).code, 0);
  assert.deepEqual(readFileSync(join(tmp, 'mp8.bin')), readFileSync(join(tmp, 'mp8-ref.bin')));
  assert.equal(tabiya(['book', 'make', 'g.pgn', '-o', 'g20.tbk', '--max-ply', '20', '--quiet']).code, 0);
  const more = tabiya(['book', 'export', 'g20.tbk', '-o', 'mp2.bin', '--max-ply', '30']);
  assert.equal(more.code, 1);
  assert.equal(more.stderr, 'tabiya: g20.tbk was counted with --max-ply 20: its games are kept to that ply, so an export can go up to it, not to 30\n');
  assert.ok(!readdirSync(tmp).includes('mp2.bin'));
});

test('make, annotate and learn on input without a game fail (exit 1) and leave the book as it was', () => {
  writeFileSync(join(tmp, 'empty.pgn'), '');
  writeFileSync(join(tmp, 'comments.pgn'), '{ a comment and nothing else }\n; a line comment\n');
  copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'keep.tbk'));
  const before = readFileSync(join(tmp, 'keep.tbk'));
  for (const input of ['empty.pgn', 'comments.pgn']) {
    for (const args of [['make', input, '-o', 'none.tbk'], ['make', input, '-o', 'keep.tbk'], ['add', 'keep.tbk', input], ['learn', 'keep.tbk', input, '--player', 'x']]) {
      const r = tabiya(['book', ...args]);
      assert.equal(r.code, 1, args.join(' '));
      assert.equal(r.stderr, `tabiya: ${input}: no game in it (the input is empty or holds only comments)\n`, args.join(' '));
    }
    const r = tabiya(['book', 'annotate', 'keep.tbk', input]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `tabiya: ${input}: no line in it (empty, or only comments)\n`);
  }
  assert.ok(!readdirSync(tmp).includes('none.tbk'));
  assert.deepEqual(readFileSync(join(tmp, 'keep.tbk')), before);
  // Games read, but no move kept by --min-games: a valid empty book, said on stderr.
  const r = tabiya(['book', 'make', 'g.pgn', '-o', 'none-kept.tbk', '--min-games', '50', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /note: none-kept\.tbk is empty: no move of the 4 games passed --min-games 50/);
  assert.equal(json(['book', 'info', 'none-kept.tbk']).entries, 0);
  // Games without a move (Lichess's abandoned games): the note says so, and names no threshold
  // that was not given (it printed "--min-games undefined").
  writeFileSync(join(tmp, 'abandoned.pgn'), '[Event "Rated Blitz game"]\n[Result "0-1"]\n[Termination "Abandoned"]\n\n0-1\n\n[Event "Rated Blitz game"]\n[Result "1-0"]\n\n1-0\n');
  for (const out of ['abandoned.tbk', 'abandoned.bin']) {
    const a = tabiya(['book', 'make', 'abandoned.pgn', '-o', out, '--quiet']);
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stderr, new RegExp(`note: ${out.replace('.', '\\.')} is empty: the 2 games used have no moves\n`));
    assert.doesNotMatch(a.stderr, /undefined|--min-games/);
  }
});

test('probe and dump: options that would be ignored are refused, bad policy values name the flag (exit 2)', () => {
  const cases: [string[], string][] = [
    [['probe', 'g.tbk', '--seed', '3'], '--seed is the seed of --choose: give --choose too'],
    [['probe', join(V, 'out/main_min1.bin'), '--seed', '3'], '--seed is the seed of --choose: give --choose too'],
    [['probe', 'g.tbk', '--choose', 'gnu-best', '--policy', 'terra'], '--choose gnu-best and --policy terra name different policies: give one'],
    [['probe', 'g.tbk', '--random-type', '9'], '--random-type: 9 is out of range (0..3)'],
    [['probe', 'g.tbk', '--post-book', 'maybe'], '--post-book: "maybe" is not a boolean (true/false, on/off)'],
    [['probe', 'g.tbk', '--book-threshold', 'lots'], '--book-threshold: "lots" is not a number (0..1000)'],
    [['dump', join(V, 'out/main_min1.bin'), '--color', 'white', '--colour', 'black'], '--color white and --colour black disagree: give one'],
  ];
  for (const [args, message] of cases) {
    const r = tabiya(['book', ...args]);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stderr, `tabiya: ${message}\n`);
  }
  assert.deepEqual(json(['book', 'probe', 'g.tbk', '--choose', 'best', '--policy', 'polyglot-best', '--seed', '1']).chosen, { uci: 'e2e4', san: 'e4' }, 'two names of one policy agree');
});

test('book make: a game the filters reject is not replayed, so its illegal move is neither reported nor counted twice', () => {
  // Game 1 fails --min-elo and has an illegal move; game 3 fails it and has a bad token (which the
  // reader sees without replaying). Each game is counted once: read = used + filtered.
  writeFileSync(
    join(tmp, 'filtered-broken.pgn'),
    '[WhiteElo "1000"] [BlackElo "1000"] [Result "1-0"]\n\n1. Ke2 e5 1-0\n\n' +
      '[WhiteElo "2500"] [BlackElo "2500"] [Result "1-0"]\n\n1. e4 e5 1-0\n\n' +
      '[WhiteElo "1000"] [BlackElo "1000"] [Result "1-0"]\n\n1. d4 @ d5 1-0\n',
  );
  for (const [out, threads] of [['fb.tbk', '1'], ['fb.tbk', '2'], ['fb.bin', '2']] as const) {
    const s = json(['book', 'make', 'filtered-broken.pgn', '-o', out, '--min-elo', '2000', '--threads', threads, '--force']);
    const f = s.gamesFiltered as Record<string, number>;
    assert.deepEqual([s.gamesRead, s.gamesSkipped, f.elo, s.gamesUsed], [2, 1, 1, 1], `${out} --threads ${threads}`);
    assert.deepEqual((s.skippedGames as { kind: string; game: number }[]).map((e) => [e.game, e.kind]), [[3, 'bad-token']], `${out} --threads ${threads}`);
  }
});

test('probe, set and choose write Chess960 castling king-takes-rook, as the .bin probe and the audit do (a king step and castling no longer share b1c1)', () => {
  const fen = 'rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1';
  const one = (moves: string, result: string): string => `[Variant "Chess960"] [FEN "${fen}"] [SetUp "1"] [Result "${result}"]\n1. ${moves} ${result}\n\n`;
  writeFileSync(join(tmp, 'c960.pgn'), one('O-O-O Kc8', '1-0') + one('Kc1 Kc8', '0-1'));
  assert.equal(tabiya(['book', 'make', 'c960.pgn', '-o', 'c960.tbk']).code, 0);
  const moves = rows(['c960.tbk', '--fen', fen]).map((r) => `${r.san} ${r.uci}`).sort();
  assert.deepEqual(moves, ['Kc1 b1c1', 'O-O-O b1a1']);
  const set = json(['book', 'set', 'c960.tbk', '--fen', fen, '--move', 'O-O-O', '--value', '100']);
  assert.equal(set.uci, 'b1a1');
  const chosen = json(['book', 'probe', 'c960.tbk', '--fen', fen, '--choose', 'best']).chosen as { uci: string; san: string };
  assert.deepEqual(chosen, { uci: 'b1a1', san: 'O-O-O' });
  // Castling where the king stays on its square: c1b1, not the non-move c1c1.
  const kc = 'nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w KQkq - 0 1';
  writeFileSync(join(tmp, 'c960b.pgn'), `[Variant "Chess960"] [FEN "${kc}"] [Result "1-0"]\n1. O-O-O O-O-O 1-0\n`);
  assert.equal(tabiya(['book', 'make', 'c960b.pgn', '-o', 'c960b.tbk']).code, 0);
  assert.deepEqual(rows(['c960b.tbk', '--fen', kc]).map((r) => r.uci), ['c1b1']);
});
