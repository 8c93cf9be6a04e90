/**
 * `tabiya book set` writes every note the explorer's edit controls write (user value, NAG,
 * comment, forbidden mark, removing a move added by hand), on a book of real master games:
 * probe shows them (table and --json), the policy never plays a forbidden move, the explorer's
 * PGN export carries them out and `book annotate --notes` reads them back, and every refusal
 * comes before the book is touched (its bytes unchanged).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { makeRichBook } from '../src/book/node/richMake.js';
import { buildApp } from '../src/serve/app.js';
import { ServedBook } from '../src/serve/library.js';
import { loadAssets, loadOpenings } from '../src/serve/server.js';
import { cliIn } from './support/cli.js';
import { openAnyRichBook } from '../src/book/node/openTbk.js';
import { positionOf } from '../src/cli/commands/bookProbe.js';
import { makeSan } from '../src/notation/san.js';
import type { BookEntry } from '../src/book/rich/tbkBook.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-set-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const { tabiya, json } = cliIn(tmp);
type Row = { san: string; uci: string; weight: number; games: number; nag: number | null; comment: string | null; forbidden: boolean; probability: number; userValue: number | null };
const probe = (book: string, moves?: string): Row[] => json(['book', 'probe', book, ...(moves === undefined ? [] : ['--moves', moves])]).moves as Row[];

// The first 300 games of the sample: enough for a real opening tree, quick to build.
const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('latin1').split(/\n(?=\[Event )/).slice(0, 300).join('\n');
writeFileSync(join(tmp, 'g.pgn'), games);
const made = tabiya(['book', 'make', 'g.pgn', '-o', 'g.tbk', '--quiet']);
// A copy as made, for tests that need a book without the others' notes (a copy, not a rebuild).
if (made.code === 0) copyFileSync(join(tmp, 'g.tbk'), join(tmp, 'pristine.tbk'));
const fresh = (name: string): void => copyFileSync(join(tmp, 'pristine.tbk'), join(tmp, name));

/** Each book move's notes, read in process (the CLI's probe is tested above; this compares books). */
function notesAt(book: string, moves?: string): unknown[] {
  const pos = positionOf(undefined, moves);
  const b = openAnyRichBook(join(tmp, book));
  try {
    return b
      .probe(pos)
      .map((m) => m as BookEntry)
      .map((m) => [makeSan(pos, m.move), m.nag || null, m.comment || null, m.forbidden ?? false, m.userValue < 0 ? null : m.userValue])
      .sort();
  } finally {
    b.close();
  }
}

test('NAG, comment and forbidden mark are set, shown by probe and kept apart from the user value', () => {
  assert.equal(made.code, 0, made.stderr);
  const before = probe('g.tbk');
  const [first, second] = before;
  assert.ok(first !== undefined && second !== undefined && second.probability > 0, 'the start position has two moves that are played');
  const r = tabiya(['book', 'set', 'g.tbk', '--move', first.san, '--nag', '!?', '--comment', 'Best by test\nsays Fischer']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `${first.san} (${first.uci}): NAG !? ($5), comment "Best by test says Fischer"\n`);
  const out = json(['book', 'set', 'g.tbk', '--move', second.san, '--forbid', '--nag', '$18']);
  assert.deepEqual([out.forbidden, out.nag, out.added, out.removed, out.games], [true, 18, false, false, second.games]);
  // book info counts them.
  assert.match(tabiya(['book', 'info', 'g.tbk']).stdout, /^user values +: 0 moves, 2 NAGs, 1 comment, 1 forbidden$/m);
  assert.deepEqual((({ nags, comments, forbidden }) => [nags, comments, forbidden])(json(['book', 'info', 'g.tbk'])), [2, 1, 1]);
  const after = probe('g.tbk');
  const a = after.find((m) => m.san === first.san)!;
  const b = after.find((m) => m.san === second.san)!;
  assert.deepEqual([a.nag, a.comment, a.forbidden, a.userValue], [5, 'Best by test says Fischer', false, null], 'a NAG sets no user value');
  assert.deepEqual([b.nag, b.forbidden, b.probability], [18, true, 0]);
  // The other played moves share what the forbidden move had.
  assert.ok(Math.abs(after.reduce((s, m) => s + m.probability, 0) - 1) < 1e-9);
  // The policy never draws it, whatever the seed.
  for (let seed = 1; seed <= 6; seed++) {
    const chosen = json(['book', 'probe', 'g.tbk', '--choose', 'terra', '--seed', String(seed)]).chosen as { san: string } | null;
    assert.notEqual(chosen?.san, second.san, `seed ${seed}`);
  }
  // The table joins a move assessment to its move and spaces any other; comments follow in braces.
  const text = tabiya(['book', 'probe', 'g.tbk']).stdout;
  assert.match(text, new RegExp(`^${first.san.replace('+', '\\+')}!\\? `, 'm'));
  assert.match(text, new RegExp(`^${second.san} \\+- `, 'm'));
  assert.match(text, new RegExp(`^${first.san}: \\{Best by test says Fischer\\}$`, 'm'));
  assert.match(text, / x$/m, 'the forbidden move is marked');
  // --allow and clears.
  json(['book', 'set', 'g.tbk', '--move', second.san, '--allow', '--nag', 'clear']);
  json(['book', 'set', 'g.tbk', '--move', first.san, '--comment', '']);
  const cleared = probe('g.tbk');
  assert.deepEqual(cleared.map((m) => [m.nag, m.comment, m.forbidden]).slice(0, 2).sort(), [[5, null, false], [null, null, false]].sort());
  assert.ok(cleared.find((m) => m.san === second.san)!.probability > 0);
});

test('a move added by hand with a comment is removed again; a move games played is refused, the book untouched', () => {
  assert.equal(made.code, 0, made.stderr);
  const r = json(['book', 'set', 'g.tbk', '--moves', 'e4', '--move', 'a6', '--comment', 'St. George']);
  assert.deepEqual([r.added, r.games], [true, 0]);
  assert.equal(probe('g.tbk', 'e4').find((m) => m.san === 'a6')!.comment, 'St. George');
  const bytes = readFileSync(join(tmp, 'g.tbk'));
  const played = probe('g.tbk', 'e4')[0]!;
  const refused = tabiya(['book', 'set', 'g.tbk', '--moves', 'e4', '--move', played.san, '--remove']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, new RegExp(`g\\.tbk: ${played.san} \\(\\w+\\) was played in ${played.games} games of the book, so it cannot be removed: --forbid`));
  assert.ok(readFileSync(join(tmp, 'g.tbk')).equals(bytes));
  assert.equal(tabiya(['book', 'set', 'g.tbk', '--moves', 'e4', '--move', 'h6', '--remove']).code, 1, 'not in the book');
  const removed = json(['book', 'set', 'g.tbk', '--moves', 'e4', '--move', 'a6', '--remove']);
  assert.equal(removed.removed, true);
  assert.equal(probe('g.tbk', 'e4').find((m) => m.san === 'a6'), undefined);
  // Clearing the only note of a move added by hand takes it away too, and says so.
  json(['book', 'set', 'g.tbk', '--moves', 'e4', '--move', 'a6', '--value', '?']);
  const gone = tabiya(['book', 'set', 'g.tbk', '--moves', 'e4', '--move', 'a6', '--value', 'clear']);
  assert.equal(gone.stdout, 'a6 (a7a6): user value and learned statistics cleared (no game played it and no note is left: it is no longer in the book)\n');
  assert.equal(probe('g.tbk', 'e4').find((m) => m.san === 'a6'), undefined);
});

test('notes set from the command line go out in the explorer PGN export and read back with annotate --notes', async () => {
  assert.equal(made.code, 0, made.stderr);
  json(['book', 'set', 'g.tbk', '--moves', 'd4', '--move', 'Nf6', '--nag', '!', '--comment', 'Indian', '--value', '75']);
  json(['book', 'set', 'g.tbk', '--moves', 'd4 Nf6', '--move', 'c4', '--nag', '+=']);
  json(['book', 'set', 'g.tbk', '--moves', 'd4', '--move', 'f5', '--forbid', '--comment', 'too loose']);
  // The explorer's export of the tree below 1.d4, in process (not listening).
  const book = await ServedBook.open('g.tbk', join(tmp, 'g.tbk'));
  const app = buildApp({ books: [book], openings: loadOpenings(), assets: loadAssets() });
  let pgn: string;
  try {
    const res = await app.inject({ url: '/api/export?book=g.tbk&format=pgn&play=d2d4&depth=3' });
    assert.equal(res.statusCode, 200, res.body);
    pgn = res.body;
  } finally {
    await app.close();
    book.close();
  }
  // The export wraps lines at 80 columns and writes each opening name as a comment of its own.
  const flat = pgn.replace(/\s+/g, ' ');
  assert.match(flat, /1\.\.\. Nf6 \$1 \{A45 Indian Defense\} \{\[%tabiya value=75\] Indian\}/);
  assert.match(flat, /2\. c4 \$14 /);
  assert.match(flat, /1\.\.\. f5 \{A80 Dutch Defense\} \{\[%tabiya forbidden\] too loose\}/);
  // The command line writes the same PGN (book export -o X.pgn), and pgn-extract reads it.
  const cli = tabiya(['book', 'export', 'g.tbk', '-o', 'cli.pgn', '--moves', 'd4', '--depth', '3']);
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(readFileSync(join(tmp, 'cli.pgn'), 'utf8'), pgn);
  const extract = spawnSync('/usr/games/pgn-extract', ['-s', join(tmp, 'cli.pgn')], { encoding: 'utf8' });
  assert.equal(extract.status, 0, extract.stderr);
  assert.equal(extract.stderr, '');
  const read = extract.stdout.replace(/\s+/g, ' ');
  assert.match(read, /\[FEN "rnbqkbnr\/pppppppp\/8\/8\/3P4\/8\/PPP1PPPP\/RNBQKBNR b KQkq - 0 1"\]/);
  assert.match(read, /1\.\.\. Nf6 \$1 \{ ?A45 Indian Defense ?\} \{ ?\[%tabiya value=75\] Indian ?\}/);
  assert.match(read, /1\.\.\. f5 \{ ?A80 Dutch Defense ?\} \{ ?\[%tabiya forbidden\] too loose ?\}/);
  // A fresh book of the same games gets the notes only through that PGN.
  fresh('h.tbk');
  writeFileSync(join(tmp, 'tree.pgn'), pgn);
  const annotated = tabiya(['book', 'annotate', 'h.tbk', 'tree.pgn', '--notes']);
  assert.equal(annotated.code, 0, annotated.stderr);
  for (const moves of ['d4', 'd4 Nf6']) assert.deepEqual(notesAt('h.tbk', moves), notesAt('g.tbk', moves), moves);
  assert.deepEqual(notesAt('h.tbk', 'd4').find((m) => (m as unknown[])[0] === 'Nf6'), ['Nf6', 1, 'Indian', false, 75]);
});

test('a transposition is exported once, the other move order referring to it, so an edit made there reads back', () => {
  fresh('t.tbk');
  // Black meets 1.d4 and 1.c4 with ...Nf6 and ...e6: 1.d4 Nf6 2.c4 and 1.c4 Nf6 2.d4 are one position.
  for (const [moves, move, ...extra] of [
    ['d4', 'Nf6'],
    ['c4', 'Nf6'],
    ['c4 Nf6', 'd4'],
    ['d4 Nf6 c4', 'e6', '--comment', 'solid'],
  ]) {
    const r = tabiya(['book', 'set', 't.tbk', '--moves', moves!, '--move', move!, '--value', '100', ...extra]);
    assert.equal(r.code, 0, r.stderr);
  }
  const r = tabiya(['book', 'export', 't.tbk', '-o', 't.pgn', '--side', 'black', '--depth', '6']);
  assert.equal(r.code, 0, r.stderr);
  const pgn = readFileSync(join(tmp, 't.pgn'), 'utf8');
  const flat = pgn.replace(/\s+/g, ' ');
  // The moves after the position are written once; the other way there says where they are.
  assert.equal(flat.split('{[%tabiya value=100] solid}').length - 1, 1, flat);
  assert.match(flat, /\{transposes to 1\.(d4 Nf6 2\.c4|c4 Nf6 2\.d4)\}/);
  // The reference is no note: the export read back with --replace changes nothing, also as pgn-extract rewrites it.
  const extract = spawnSync('/usr/games/pgn-extract', ['-s', join(tmp, 't.pgn')], { encoding: 'utf8' });
  assert.equal(extract.status, 0, extract.stderr);
  writeFileSync(join(tmp, 't-x.pgn'), extract.stdout);
  const notes = (book: string): unknown[] => ['', 'd4', 'c4', 'c4 Nf6', 'd4 Nf6', 'd4 Nf6 c4'].map((m) => notesAt(book, m || undefined));
  for (const file of ['t.pgn', 't-x.pgn']) {
    fresh('u.tbk');
    const a = tabiya(['book', 'annotate', 'u.tbk', file, '--notes', '--replace']);
    assert.equal(a.code, 0, a.stderr);
    assert.deepEqual(notes('u.tbk'), notes('t.tbk'), file);
  }
  // A comment edited where the PGN has it is the comment read back (two copies: only the last counted).
  writeFileSync(join(tmp, 't-edit.pgn'), pgn.replace('] solid}', '] rock solid}'));
  assert.equal(tabiya(['book', 'annotate', 't.tbk', 't-edit.pgn', '--notes']).code, 0);
  assert.equal(probe('t.tbk', 'c4 Nf6 d4').find((m) => m.san === 'e6')!.comment, 'rock solid');
  // A comment of the user's that only looks like a reference stays a note.
  json(['book', 'set', 't.tbk', '--moves', 'c4', '--move', 'Nf6', '--comment', 'transposes to 1.d4 Nf6 often']);
  assert.equal(tabiya(['book', 'export', 't.tbk', '-o', 't2.pgn', '--side', 'black', '--depth', '6']).code, 0);
  assert.equal(tabiya(['book', 'annotate', 'u.tbk', 't2.pgn', '--notes', '--replace']).code, 0);
  assert.equal(probe('u.tbk', 'c4').find((m) => m.san === 'Nf6')!.comment, 'transposes to 1.d4 Nf6 often');
});

test('book export of a tree: a repertoire as PGN and as a .bin an engine plays, from a .tbk or a .bin; whole-book options refused', () => {
  assert.equal(made.code, 0, made.stderr);
  json(['book', 'set', 'g.tbk', '--moves', 'e4 c5', '--move', 'c3', '--value', '100']);
  const rep = json(['book', 'export', 'g.tbk', '-o', 'rep.bin', '--side', 'white', '--depth', '6']);
  assert.deepEqual([rep.format, rep.side, rep.truncated], ['bin', 'white', false]);
  // At White's moves only the chosen move; at Black's every book reply (a move of weight above 0:
  // make-book's, which leaves out moves of fewer than 3 games).
  const afterC5 = json(['book', 'probe', 'rep.bin', '--moves', 'e4 c5']).moves as { san: string }[];
  assert.deepEqual(afterC5.map((m) => m.san), ['c3']);
  const replies = json(['book', 'probe', 'rep.bin', '--moves', 'e4']).moves as { san: string }[];
  assert.deepEqual(replies.map((m) => m.san).sort(), probe('g.tbk', 'e4').filter((m) => m.weight > 0).map((m) => m.san).sort());
  const text = tabiya(['book', 'export', 'g.tbk', '-o', 'rep.pgn', '--side', 'white', '--depth', '6']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^wrote rep\.pgn: \d+ moves below rnbqkbnr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/RNBQKBNR w KQkq - 0 1 \(White's repertoire\), 6 plies deep/);
  assert.match(readFileSync(join(tmp, 'rep.pgn'), 'utf8'), /\[Event "tabiya book g\.tbk: White repertoire"\]/);
  // A Polyglot book's tree, to standard output as PGN.
  assert.equal(tabiya(['book', 'make', 'g.pgn', '-o', 'g.bin', '--quiet']).code, 0);
  const fromBin = tabiya(['book', 'export', 'g.bin', '-o', '-', '--moves', 'd4 Nf6', '--depth', '2']);
  assert.equal(fromBin.code, 0, fromBin.stderr);
  assert.match(fromBin.stdout, /^\[Event "tabiya book g\.bin"\]/);
  assert.match(fromBin.stdout, /\n2\. c4 /);
  // A cut tree says so.
  const cut = json(['book', 'export', 'g.tbk', '-o', 'cut.pgn', '--max-moves', '5']);
  assert.deepEqual([cut.moves, cut.truncated], [5, true]);
  assert.match(readFileSync(join(tmp, 'cut.pgn'), 'utf8'), /cut at 5 moves/);
  const bytes = readFileSync(join(tmp, 'rep.pgn'));
  for (const [args, message] of [
    [['--min-games', '2'], /--min-games: shapes make-book's \.bin of the whole book, not a tree export/],
    [['--side', 'both'], /--side: "both" is not a side: white or black/],
    [['--depth', '0'], /--depth/],
    [['--moves', 'e4 e4'], /--moves: /],
  ] as [string[], RegExp][]) {
    const r = tabiya(['book', 'export', 'g.tbk', '-o', 'rep.pgn', '--force', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.ok(readFileSync(join(tmp, 'rep.pgn')).equals(bytes), 'a refused export leaves the file as it was');
  assert.equal(tabiya(['book', 'export', 'g.tbk', '-o', 'rep.txt', '--depth', '2']).code, 2);
});

test('refusals name what is wrong, exit 2 (usage) or 1 (the book), and leave the book as it was', async () => {
  assert.equal(made.code, 0, made.stderr);
  const bytes = readFileSync(join(tmp, 'g.tbk'));
  const cases: [string[], number, RegExp][] = [
    [['--nag', '$256'], 2, /--nag: "\$256" is not a NAG/],
    [['--nag', 'great'], 2, /--nag: "great" is not a NAG/],
    [['--comment', 'see {this}'], 2, /--comment: a \} cannot be kept/],
    [['--comment', 'x [%tabiya value=5]'], 2, /--comment: \[%tabiya …\] cannot be kept/],
    [['--comment', 'bell\u0007'], 2, /--comment: a control character \(U\+0007\)/],
    [['--comment', 'x'.repeat(2001)], 2, /--comment: a comment holds at most 2000 characters, this one 2001/],
    [['--forbid', '--allow'], 2, /--forbid and --allow contradict each other/],
    [['--remove', '--value', '50'], 2, /--remove takes the move away, so it cannot go with --value/],
    [[], 2, /nothing to set: give --value, --nag, --comment, --forbid, --allow or --remove/],
  ];
  for (const [extra, code, message] of cases) {
    const r = tabiya(['book', 'set', 'g.tbk', '--move', 'e4', ...extra]);
    assert.equal(r.code, code, `${extra.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.ok(readFileSync(join(tmp, 'g.tbk')).equals(bytes));
  // A version 1 book keeps user values only.
  await makeRichBook(join(tmp, 'v1.tbk'), { inputs: [join(tmp, 'g.pgn')] });
  const v1 = readFileSync(join(tmp, 'v1.tbk'));
  const r = tabiya(['book', 'set', 'v1.tbk', '--move', 'e4', '--nag', '!']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /v1\.tbk: a version 1 book keeps user values only .*tabiya book upgrade v1\.tbk converts it/);
  assert.ok(readFileSync(join(tmp, 'v1.tbk')).equals(v1));
  assert.equal(json(['book', 'set', 'v1.tbk', '--move', 'e4', '--value', '!']).value, 75);
});
