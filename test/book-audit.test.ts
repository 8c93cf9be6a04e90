/**
 * `tabiya book audit` on a book built from games that fall into two classic traps, next to
 * sound games: the Blackburne Shilling trap (1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 4.Nxe5? Qg5) and
 * Légal's mate (1.e4 e5 2.Nf3 d6 3.Bc4 Bg4 4.Nc3 g6 5.Nxe5 Bxd1?? 6.Bxf7+ Ke7 7.Nd5#). The
 * audit must flag exactly the two planted blunders, with the refutations every chess book
 * gives; Stockfish (when installed) must find them losing too. Then: an audit killed with
 * SIGKILL resumes from its journal without searching the finished positions again and ends
 * with the same report; --mark writes the verdicts, `book probe` shows them and the engine
 * no longer plays the move from the book; bad input is refused with a clear error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tbkBytes } from './support/tbk.js';
import { positionFromFen } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { parseUci } from '../src/notation/uci.js';
import { ServedBook } from '../src/serve/library.js';
import { hostTag } from '../src/node/tempFiles.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const STOCKFISH = '/usr/games/stockfish';
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-audit-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function tabiya(args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8', input });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
function json(args: string[]): Record<string, unknown> {
  const r = tabiya([...args, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const LINES = {
  blackburne: '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5',
  legal: '1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5#',
  ruyLopez: '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6',
  giuocoPiano: '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6',
  qgd: '1. d4 d5 2. c4 e6 3. Nc3 Nf6',
};
// Four games of each line, with mixed results (the trap's victim does not always lose at once),
// so that every move passes the thresholds and the book policy would play it.
const RESULTS = ['1-0', '0-1', '1/2-1/2', '1-0'];
const pgn = Object.entries(LINES)
  .flatMap(([name, moves]) => RESULTS.map((r, i) => `[Event "${name} ${i + 1}"]\n[White "A"]\n[Black "B"]\n[Result "${moves.endsWith('#') ? '1-0' : r}"]\n\n${moves} ${moves.endsWith('#') ? '1-0' : r}\n`))
  .join('\n');
writeFileSync(join(tmp, 'traps.pgn'), pgn);

const BOOK = join(tmp, 'traps.tbk');
const PLAIN = join(tmp, 'plain.tbk');
const made = tabiya(['book', 'make', 'traps.pgn', '-o', 'traps.tbk', '--quiet']);
assert.equal(made.code, 0, made.stderr);
copyFileSync(BOOK, PLAIN);

// At depth 13, suspects confirmed at depth 15, and the default margin of 100 centipawns, tabiya
// flags the two blunders (4.Nxe5: 1.01 pawns at depth 15 with the weights of 2026-12-07, 1.30
// with earlier ones, Stockfish 1.89 at depth 18; 5...Bxd1: a mate) and nothing else: 3...Nd4
// itself lost 0.70 at depth 15, and 4...g6, the Légal line's first mistake (a pawn, Stockfish
// 1.31), 0.59. 4.Nxe5 is now only just over the margin: a change of the evaluation that moves it
// under fails this test, and the docs/books.md example with it. Qg5's double attack lies near the horizon of
// shallower searches: with the weights of 2026-12-05's first refit the depth-12 first pass saw
// 4.Nxe5 lose just under a pawn, so it was never confirmed; the audit searches deeper than the
// default. The margins are a few tenths of a pawn: a change of the search or the evaluation may move them.
const AUDIT = ['book', 'audit', 'traps.tbk', '--depth', '13'];

interface Flagged {
  fen: string;
  uci: string;
  san: string;
  games: number;
  loss: number;
  best: string;
  refutation: string[];
  line: string;
}
let reference: Record<string, unknown> | undefined;

test('the audit flags exactly the planted blunders, with the refutations the books give', () => {
  const r = json([...AUDIT, '--journal', 'full.audit', '--threads', '2', '--quiet']);
  reference = r;
  const flagged = r.flagged as Flagged[];
  assert.deepEqual(
    flagged.map((f) => f.line),
    ['1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 4.Nxe5', '1.e4 e5 2.Nf3 d6 3.Bc4 Bg4 4.Nc3 g6 5.Nxe5 Bxd1'],
  );
  const [nxe5, bxd1] = flagged as [Flagged, Flagged];
  assert.equal(nxe5.uci, 'f3e5');
  assert.equal(nxe5.san, 'Nxe5');
  assert.equal(nxe5.games, 4);
  assert.ok(nxe5.loss > 80 && nxe5.loss < 1000, `4.Nxe5 loses ${nxe5.loss}`);
  // The point of the trap: 4...Qg5, forking e5 and g2.
  assert.equal(nxe5.refutation[0], 'd8g5');
  assert.notEqual(nxe5.best, 'f3e5');
  assert.equal(bxd1.uci, 'g4d1');
  assert.equal(bxd1.san, 'Bxd1');
  // Légal's mate, as played: 6.Bxf7+ Ke7 7.Nd5#; the best is to take the knight.
  assert.deepEqual(bxd1.refutation, ['c4f7', 'e8e7', 'c3d5']);
  assert.equal(bxd1.best, 'd6e5');
  assert.ok(bxd1.loss > 5000, 'a mate counts as a large loss');
  assert.equal(r.searched, r.positions);
  assert.equal(r.fromJournal, 0);
  assert.equal(r.unreached, 0, 'every stored position with 3 games is reached from the start');
  assert.ok((r.movesChecked as number) > (r.positions as number));
});

test('Stockfish agrees the flagged moves lose more than a pawn', { skip: existsSync(STOCKFISH) ? false : `${STOCKFISH} not installed` }, async () => {
  assert.ok(reference, 'the audit ran');
  for (const f of reference.flagged as Flagged[]) {
    // Stockfish needs depth 18 to see that 4.Nxe5 loses (at 14 it takes it for sound); a mate it sees at once.
    const depth = f.loss >= 5000 ? 10 : 18;
    const moveScore = await stockfishScore(f.fen, f.uci, depth);
    const bestScore = await stockfishScore(f.fen, f.best, depth);
    assert.ok(bestScore - moveScore > 100, `${f.line}: Stockfish scores it ${moveScore}, the best ${f.best} ${bestScore}`);
  }
});

/** Stockfish's score (centipawns, mates as ±100000) of one move searched alone. */
function stockfishScore(fen: string, uci: string, depth: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const sf = spawn(STOCKFISH, [], { stdio: 'pipe' });
    let out = '';
    let last = NaN;
    const timer = setTimeout(() => (sf.kill(), reject(new Error(`stockfish timed out: ${out.slice(-300)}`))), 30000);
    sf.stdout.setEncoding('utf8');
    sf.stdout.on('data', (d: string) => {
      out += d;
      for (const line of out.split('\n')) {
        const m = / score (cp|mate) (-?\d+) (?!lowerbound|upperbound)/.exec(line);
        if (m) last = m[1] === 'cp' ? Number(m[2]) : Math.sign(Number(m[2])) * 100000;
      }
      if (/^bestmove /m.test(out)) {
        clearTimeout(timer);
        sf.stdin.end('quit\n');
        resolve(last);
      }
    });
    sf.stdin.write(`uci\nsetoption name Threads value 1\nposition fen ${fen}\ngo depth ${depth} searchmoves ${uci}\n`);
  });
}

test('an audit killed with SIGKILL resumes: finished positions are not searched again, same report', async () => {
  assert.ok(reference, 'the audit ran');
  const journal = join(tmp, 'killed.audit');
  const child = spawn(process.execPath, [MAIN, ...AUDIT, '--journal', journal, '--threads', '1', '--quiet'], { cwd: tmp, stdio: 'ignore' });
  const records = (): number => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter((l) => l.startsWith('{"key"')).length : 0);
  const deadline = Date.now() + 60000;
  while (records() < 5 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  const done = records();
  assert.ok(done >= 5 && done < (reference.positions as number), `killed after ${done} of ${reference.positions as number} positions`);
  // A kill in the middle of a write leaves a line cut short: the next run drops it.
  appendFileSync(journal, '{"key":"0123456789abcdef","fen":"rnbq');
  const r = json([...AUDIT, '--journal', journal, '--threads', '2', '--quiet']);
  assert.equal(r.fromJournal, done);
  assert.equal(r.searched, (reference.positions as number) - done);
  assert.deepEqual(r.flagged, reference.flagged);
  assert.equal(r.movesChecked, reference.movesChecked);
  assert.ok(!readFileSync(journal, 'utf8').includes('"fen":"rnbq\n'), 'the torn line is cut off');
  // A rerun of a finished audit searches nothing and says so.
  const again = tabiya([...AUDIT, '--journal', journal]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /searched 0 positions .*; \d+ were already in the journal/);
  assert.match(again.stdout, /^1\.e4 e5 2\.Nf3 Nc6 3\.Bc4 Nd4 4\.Nxe5 +4 +\d\.\d\d +Nxd4 +Qg5 Bxf7\+/m);
  // --json changes stdout only: the notes still go to stderr (docs/cli.md), as without it.
  const quietJson = tabiya([...AUDIT, '--journal', journal, '--json']);
  assert.equal(quietJson.code, 0, quietJson.stderr);
  assert.equal((JSON.parse(quietJson.stdout) as { searched: number }).searched, 0);
  assert.match(quietJson.stderr, /positions already audited, not searched again/);
});

test('--mark forbids the flagged moves: probe shows the verdicts and the engine no longer plays them', async () => {
  assert.ok(reference, 'the audit ran');
  const r = json([...AUDIT, '--journal', 'full.audit', '--mark', '--quiet']);
  assert.equal(r.searched, 0, 'the journal answers for every position');
  assert.deepEqual(r.marked, { marked: r.movesChecked, forbidden: 2, chosen: [] });
  const nxe5 = (reference.flagged as Flagged[])[0]!;
  const probe = json(['book', 'probe', 'traps.tbk', '--moves', 'e4 e5 Nf3 Nc6 Bc4 Nd4']);
  const [row] = probe.moves as { uci: string; forbidden: boolean; probability: number; audit: { loss: number; best: string; refutation: string[] } }[];
  assert.equal(row!.uci, 'f3e5');
  assert.equal(row!.forbidden, true);
  assert.equal(row!.probability, 0);
  assert.deepEqual(row!.audit, { loss: nxe5.loss, best: nxe5.best, bestSan: 'Nxd4', depth: 15, refutation: nxe5.refutation });
  // Sound moves carry a verdict too, and stay in play.
  const sound = json(['book', 'probe', 'traps.tbk', '--moves', 'e4 e5 Nf3 Nc6']).moves as { san: string; forbidden: boolean; audit: { loss: number } | null }[];
  assert.ok(sound.every((m) => !m.forbidden && m.audit !== null && m.audit.loss <= 100));
  const text = tabiya(['book', 'probe', 'traps.tbk', '--moves', 'e4 e5 Nf3 Nc6 Bc4 Nd4']);
  assert.match(text.stdout, /^Nxe5 +f3e5 .* -\d\.\d\d x$/m);
  assert.match(text.stdout, /Nxe5: loses \d\.\d\d pawns at depth 15; best Nxd4; refutation Qg5 /);
  // The Polyglot export with the book's own values leaves the forbidden move out; make-book's keeps it.
  const exported = (flags: string[]): string[] => {
    const out = tabiya(['book', 'export', 'traps.tbk', '-o', 'traps-export.bin', '--min-games', '1', '--force', ...flags]);
    assert.equal(out.code, 0, out.stderr);
    return (json(['book', 'probe', 'traps-export.bin', '--moves', 'e4 e5 Nf3 Nc6 Bc4 Nd4']).moves as { uci: string }[]).map((m) => m.uci);
  };
  assert.ok(exported([]).includes('f3e5'));
  assert.ok(!exported(['--user-values']).includes('f3e5'));
  // The engine: from the book as built it plays 4.Nxe5; from the marked book it does not.
  assert.equal(await engineMove(PLAIN), 'f3e5');
  assert.notEqual(await engineMove(BOOK), 'f3e5');
  // A sound move forbidden by hand (as tabiya serve does) stays forbidden through the next
  // --mark, and the one after: only the audit's own marks are lifted by an audit.
  const served = await ServedBook.open('traps', BOOK);
  const pos = unwrap(positionFromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
  for (const u of ['e2e4', 'e7e5', 'g1f3', 'b8c6']) pos.play(unwrap(parseUci(pos, u)));
  const soundMove = sound[0]!;
  served.editMove(pos, unwrap(parseSan(pos, soundMove.san)), { forbidden: true });
  await served.close();
  for (let i = 0; i < 2; i++) {
    const again = json([...AUDIT, '--journal', 'full.audit', '--mark', '--quiet']);
    assert.deepEqual(again.marked, { marked: r.movesChecked, forbidden: 3, chosen: [] });
    const rows = json(['book', 'probe', 'traps.tbk', '--moves', 'e4 e5 Nf3 Nc6']).moves as { san: string; forbidden: boolean; audit: { loss: number } | null }[];
    const row = rows.find((m) => m.san === soundMove.san)!;
    assert.equal(row.forbidden, true, `${soundMove.san} stays forbidden (mark ${i + 1})`);
    assert.ok(row.audit !== null && row.audit.loss <= 100);
  }
});

test('--mark leaves a flagged move the user chose (a user value above 0) playable, and names it', () => {
  assert.ok(reference, 'the audit ran');
  // A repertoire that plays the trap on purpose: 4.Nxe5 set to 100, as book set or the explorer does.
  copyFileSync(PLAIN, join(tmp, 'chosen.tbk'));
  const set = tabiya(['book', 'set', 'chosen.tbk', '--moves', 'e4 e5 Nf3 Nc6 Bc4 Nd4', '--move', 'Nxe5', '--value', '100']);
  assert.equal(set.code, 0, set.stderr);
  const r = tabiya(['book', 'audit', 'chosen.tbk', '--depth', '13', '--journal', 'chosen.audit', '--mark', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^note: 1 flagged move with a user value above 0 \(chosen\) left playable: 1\.e4 e5 2\.Nf3 Nc6 3\.Bc4 Nd4 4\.Nxe5; tabiya book set chosen\.tbk .* --forbid forbids one$/m);
  assert.match(r.stdout, /^marked: \d+ verdicts written into the book, 1 moves forbidden/m);
  const [row] = json(['book', 'probe', 'chosen.tbk', '--moves', 'e4 e5 Nf3 Nc6 Bc4 Nd4']).moves as { uci: string; forbidden: boolean; userValue: number; audit: { loss: number } | null }[];
  // The verdict is kept and shown; the choice stands.
  assert.deepEqual([row!.uci, row!.forbidden, row!.userValue], ['f3e5', false, 100]);
  assert.ok(row!.audit !== null && row!.audit.loss > 100);
  const again = json(['book', 'audit', 'chosen.tbk', '--depth', '13', '--journal', 'chosen.audit', '--mark', '--quiet']);
  assert.deepEqual(again.marked, { marked: again.movesChecked, forbidden: 1, chosen: ['1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 4.Nxe5'] });
});

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: Error }): T {
  if (!r.ok) throw r.error;
  return r.value;
}

/** The move `tabiya uci` plays after 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4 with `book` as its book. */
async function engineMove(book: string): Promise<string> {
  const script = ['uci', 'setoption name OwnBook value true', `setoption name BookFile value ${book}`, 'isready', 'position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 c6d4', 'go depth 3'];
  const child = spawn(process.execPath, [MAIN, 'uci'], { stdio: 'pipe' });
  let out = '';
  child.stdout.setEncoding('utf8');
  const best = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no bestmove: ${out.slice(-300)}`)), 30000);
    child.stdout.on('data', (d: string) => {
      out += d;
      const m = /^bestmove (\S+)/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  child.stdin.write(script.join('\n') + '\n');
  try {
    return await best;
  } finally {
    child.stdin.end('quit\n');
  }
}

test('a Polyglot .bin of the same games: the same verdicts, weights instead of games', () => {
  assert.ok(reference, 'the audit ran');
  const made = tabiya(['book', 'make', 'traps.pgn', '-o', 'traps.bin', '--quiet']);
  assert.equal(made.code, 0, made.stderr);
  // The positions are the .tbk's, so the .tbk's journal answers for them.
  const r = json(['book', 'audit', 'traps.bin', '--depth', '13', '--journal', 'full.audit', '--quiet']);
  assert.equal(r.format, '.bin');
  assert.equal(r.searched, 0);
  const flagged = r.flagged as (Flagged & { weight: number })[];
  // Légal's 5...Bxd1 lost every game: weight 0, "never play" in a .bin, so not checked.
  assert.deepEqual(flagged.map((f) => [f.uci, f.games]), [['f3e5', null]]);
  assert.ok(flagged[0]!.weight > 0);
  assert.equal(flagged[0]!.loss, (reference.flagged as Flagged[])[0]!.loss);
  // A .bin keeps no notes: probe shows the verdicts of the journal beside the book.
  copyFileSync(join(tmp, 'full.audit'), join(tmp, 'traps.bin.audit'));
  const probe = json(['book', 'probe', 'traps.bin', '--moves', 'e4 e5 Nf3 Nc6 Bc4 Nd4']);
  const [row] = probe.moves as { uci: string; audit: { loss: number; best: string } | null }[];
  assert.deepEqual([row!.uci, row!.audit?.loss, row!.audit?.best], ['f3e5', flagged[0]!.loss, flagged[0]!.best]);
  assert.match(tabiya(['book', 'probe', 'traps.bin', '--moves', 'e4 e5 Nf3 Nc6 Bc4 Nd4']).stdout, /^Nxe5 +f3e5 +\d+ +100\.0% +[01]\.\d\d$/m);
});

test('positions reached only through transpositions of rarer lines, or from a game set up from a FEN, are audited from the book\'s games', () => {
  // Légal's line by three move orders, the third a game set up from a FEN (after 1.e4 d6): each
  // order is one game, so no move before 2...e5 is played in three games and the walk from the
  // start (or from the FEN) goes nowhere; from there on every move is played in all three.
  const rest = '3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0';
  const afterE4D6 = 'rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
  const games = [
    `[Event "t1"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 d6 ${rest}\n`,
    `[Event "t2"]\n[Result "1-0"]\n\n1. Nf3 d6 2. e4 e5 ${rest}\n`,
    `[Event "t3"]\n[SetUp "1"]\n[FEN "${afterE4D6}"]\n[Result "1-0"]\n\n2. Nf3 e5 ${rest}\n`,
  ];
  writeFileSync(join(tmp, 'transposed.pgn'), games.join('\n'));
  const made = tabiya(['book', 'make', 'transposed.pgn', '-o', 'transposed.tbk', '--quiet']);
  assert.equal(made.code, 0, made.stderr);
  const args = ['book', 'audit', 'transposed.tbk', '--depth', '6', '--journal', 'transposed.audit'];
  const r = json([...args, '--quiet']);
  // The nine positions from 3.Bc4 to 7.Nd5#, all set up from the games; none left out.
  assert.deepEqual([r.positions, r.recovered, r.unreached], [9, 9, 0]);
  const bxd1 = (r.flagged as Flagged[]).find((f) => f.uci === 'g4d1');
  assert.ok(bxd1, 'the mate-allowing 5...Bxd1 is audited and flagged');
  // The line is the first game's, from the start position.
  assert.equal(bxd1.line, '1.e4 e5 2.Nf3 d6 3.Bc4 Bg4 4.Nc3 g6 5.Nxe5 Bxd1');
  assert.deepEqual(bxd1.refutation, ['c4f7', 'e8e7', 'c3d5']);
  const text = tabiya(args);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /9 of the positions are reached by no book line from the start .*: set up from the book's games/);
  // A .bin of the same games keeps keys only: it says what it cannot audit, and why.
  assert.equal(tabiya(['book', 'make', 'transposed.pgn', '-o', 'transposed.bin', '--min-games', '1', '--quiet']).code, 0);
  const bin = tabiya(['book', 'audit', 'transposed.bin', '--depth', '6', '--journal', 'transposed.audit']);
  assert.equal(bin.code, 0, bin.stderr);
  assert.match(bin.stdout, /\d+ stored positions above the thresholds cannot be reached from the start through book moves: not audited \(a \.bin keeps keys, not boards or games/);
});

test('bad input is refused before anything is searched or written', () => {
  const missing = tabiya(['book', 'audit', 'missing.tbk']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /missing\.tbk: cannot open: no such file/);
  const depth = tabiya(['book', 'audit', 'traps.tbk', '--depth', 'abc']);
  assert.equal(depth.code, 2);
  assert.match(depth.stderr, /--depth: "abc" is not an integer/);
  const both = tabiya(['book', 'audit', 'traps.tbk', '--depth', '5', '--nodes', '1000']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--depth or --nodes, not both/);
  const mark = tabiya(['book', 'audit', 'traps.bin', '--mark', '--journal', 'bin.audit']);
  assert.equal(mark.code, 2);
  assert.match(mark.stderr, /traps\.bin: --mark writes into a \.tbk/);
  assert.ok(!existsSync(join(tmp, 'bin.audit')), 'no journal written');
  // A version 1 .tbk is audited, but not marked: its format has no notes.
  writeFileSync(join(tmp, 'v1.tbk'), tbkBytes([{ line: '', move: 'e2e4', wdl: [4, 3, 3] }]));
  const v1 = tabiya(['book', 'audit', 'v1.tbk', '--mark', '--journal', 'v1.audit']);
  assert.equal(v1.code, 2);
  assert.match(v1.stderr, /v1\.tbk: --mark writes into a version 2 \.tbk; upgrade it first with: tabiya book upgrade v1\.tbk/);
  assert.ok(!existsSync(join(tmp, 'v1.audit')), 'no journal written');
  const games = tabiya(['book', 'audit', 'traps.bin', '--min-games', '2']);
  assert.equal(games.code, 2);
  assert.match(games.stderr, /--min-games applies to \.tbk books only/);
  // A .tbk named .bin is refused, as book info and probe refuse it (the name picks the format),
  // by audit (which used to mark into it) and by reach; the file is left as it was.
  copyFileSync(BOOK, join(tmp, 'rich.bin'));
  const before = readFileSync(join(tmp, 'rich.bin'));
  for (const args of [['book', 'audit', 'rich.bin', '--mark', '--journal', 'rich.audit'], ['book', 'reach', 'rich.bin'], ['book', 'info', 'rich.bin']]) {
    const r = tabiya(args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /rich\.bin: not a Polyglot book \(it looks like a tabiya rich book \(\.tbk\); .* so name it \.tbk\)/, args.join(' '));
  }
  assert.ok(readFileSync(join(tmp, 'rich.bin')).equals(before), 'rich.bin is unchanged');
  assert.ok(!existsSync(join(tmp, 'rich.audit')), 'no journal written');
  // A journal of another search limit is not mixed with this one.
  const other = tabiya([...AUDIT.slice(0, 3), '--depth', '4', '--journal', 'full.audit']);
  assert.equal(other.code, 1);
  assert.match(other.stderr, /full\.audit: the journal holds verdicts searched with --depth 13, not --depth 4/);
});

test('an empty book, or thresholds no move passes, is refused with nothing to audit, and no journal is written', () => {
  writeFileSync(join(tmp, 'empty.bin'), new Uint8Array(0));
  for (const [args, want] of [
    [['book', 'audit', 'empty.bin'], /empty\.bin: no book move passes --min-weight 1 from the start position: nothing to audit/],
    [['book', 'audit', 'traps.tbk', '--min-games', '100', '--journal', 'high.audit'], /traps\.tbk: no book move passes --min-games 100 from the start position or a game's set-up position: nothing to audit/],
  ] as const) {
    const r = tabiya([...args, '--depth', '2']);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr, want);
  }
  assert.ok(!existsSync(join(tmp, 'empty.bin.audit')) && !existsSync(join(tmp, 'high.audit')), 'no journal written');
});

test('--journal never replaces the book or another file, even with --fresh', () => {
  // The book given as its own journal: refused, the book untouched (it used to be overwritten by the journal).
  copyFileSync(BOOK, join(tmp, 'own.tbk'));
  const before = readFileSync(join(tmp, 'own.tbk'));
  for (const extra of [[], ['--fresh']]) {
    const r = tabiya(['book', 'audit', 'own.tbk', '--depth', '1', '--max-ply', '1', '--journal', 'own.tbk', ...extra]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /own\.tbk is also an input/);
    assert.deepEqual(readFileSync(join(tmp, 'own.tbk')), before, 'the book is untouched');
  }
  // A file that is not a journal (here the games) is not started over by --fresh either.
  const games = readFileSync(join(tmp, 'traps.pgn'));
  const r = tabiya(['book', 'audit', 'own.tbk', '--depth', '1', '--max-ply', '1', '--journal', 'traps.pgn', '--fresh']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /traps\.pgn: not a tabiya audit journal, so --fresh does not replace it/);
  assert.deepEqual(readFileSync(join(tmp, 'traps.pgn')), games, 'the PGN is untouched');
  // Without --fresh it is not read as a damaged journal whose advice would be --fresh.
  const plain = tabiya(['book', 'audit', 'own.tbk', '--depth', '1', '--max-ply', '1', '--journal', 'traps.pgn']);
  assert.equal(plain.code, 1);
  assert.match(plain.stderr, /traps\.pgn:1: not a tabiya audit journal/);
  // A journal is still started over by --fresh.
  const first = tabiya(['book', 'audit', 'own.tbk', '--depth', '1', '--max-ply', '1', '--journal', 'own.audit']);
  assert.equal(first.code, 0, first.stderr);
  const again = tabiya(['book', 'audit', 'own.tbk', '--depth', '2', '--max-ply', '1', '--journal', 'own.audit', '--fresh']);
  assert.equal(again.code, 0, again.stderr);
  // --json keeps the documented shape: maxPly is the limit given, null for the whole book.
  assert.equal(json(['book', 'audit', 'own.tbk', '--depth', '2', '--max-ply', '1', '--journal', 'own.audit', '--quiet']).maxPly, 1);
  const whole = json(['book', 'audit', 'own.tbk', '--depth', '2', '--journal', 'own.audit', '--quiet']);
  assert.ok('maxPly' in whole && whole.maxPly === null, JSON.stringify(whole));
});

// Root writes a read-only file: the test then runs the CLI as the unprivileged user nobody, when
// nobody can run this Node and this CLI (not a Node unpacked in a private directory, as CI's pass
// on the oldest Node is).
const asUser = process.getuid?.() === 0 ? (spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, MAIN, '--version']).status === 0 ? 'runuser' : undefined) : 'self';
test('--mark on a book that cannot be written is refused before the search, naming the book', { skip: asUser === undefined ? 'root, and the user nobody cannot run this Node and CLI with runuser(1)' : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-audit-ro-'));
  try {
    chmodSync(dir, 0o777);
    const book = join(dir, 'ro.tbk');
    copyFileSync(PLAIN, book);
    chmodSync(book, 0o444);
    const before = readFileSync(book);
    const run = (args: string[]): { code: number; stderr: string } => {
      const argv = [process.execPath, MAIN, ...args];
      const r = asUser === 'runuser' ? spawnSync('runuser', ['-u', 'nobody', '--', ...argv], { cwd: dir, encoding: 'utf8' }) : spawnSync(argv[0]!, argv.slice(1), { cwd: dir, encoding: 'utf8' });
      return { code: r.status ?? -1, stderr: r.stderr };
    };
    // It used to search the whole book, then fail with "EACCES: permission denied, open 'ro.tbk'".
    const audit = run(['book', 'audit', 'ro.tbk', '--depth', '2', '--mark', '--quiet']);
    assert.equal(audit.code, 1, audit.stderr);
    assert.match(audit.stderr, /^tabiya: ro\.tbk: cannot write: permission denied .*nothing was searched\n$/);
    assert.ok(!existsSync(join(dir, 'ro.tbk.audit')), 'no journal written');
    // book set changes the notes the same way: the reason, not the system call.
    const set = run(['book', 'set', 'ro.tbk', '--moves', 'e4 e5', '--move', 'Nf3', '--value', '50']);
    assert.equal(set.code, 1, set.stderr);
    assert.match(set.stderr, /^tabiya: ro\.tbk: cannot write: permission denied\n$/);
    assert.deepEqual(readFileSync(book), before, 'the book is untouched');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two audits never share a journal: the second is refused at once while the first runs', () => {
  // Two runs appending to one journal (the same command in two terminals) wrote over each other's
  // lines, and the next run refused the journal as damaged. A live audit holds JOURNAL.lock; here
  // this test process holds it, as a running audit would.
  const journal = join(tmp, 'shared.audit');
  writeFileSync(`${journal}.lock`, `${process.pid}@${hostTag()}\n`);
  const busy = tabiya(['book', 'audit', 'traps.tbk', '--depth', '1', '--max-ply', '2', '--journal', 'shared.audit', '--quiet']);
  assert.equal(busy.code, 1, busy.stderr);
  assert.match(busy.stderr, new RegExp(`^tabiya: shared\\.audit: locked by process ${process.pid} \\(.*shared\\.audit\\.lock\\); try again when it has finished\\n$`));
  assert.ok(!existsSync(journal), 'nothing written to the journal');
  // Once the other run has finished (its lock gone), the audit runs and leaves no lock behind.
  rmSync(`${journal}.lock`);
  const ok = tabiya(['book', 'audit', 'traps.tbk', '--depth', '1', '--max-ply', '2', '--journal', 'shared.audit', '--quiet']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.ok(existsSync(journal) && !existsSync(`${journal}.lock`));
});
