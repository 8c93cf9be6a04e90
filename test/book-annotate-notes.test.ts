/**
 * A repertoire round trip: notes set in the explorer (user values, "never", a forbidden mark,
 * NAGs, comments, a move added by hand, in the main line and in variations), exported as PGN by
 * `GET /api/export?format=pgn`, and read into a book of the same games by `book annotate
 * --notes` give that book the same notes, field for field; the opening names the export writes
 * where a line's opening changes are known as names, not read back as comments.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { FileReader } from '../src/book/node/tbkFile.js';
import { TbkBook } from '../src/book/rich/tbkBook.js';
import { PgnNotesVisitor, readNoteCommand, noteCommand } from '../src/book/rich/pgnNotes.js';
import { loadOpenings } from '../src/node/openingNames.js';
import type { OpeningIndex } from '../src/serve/openings.js';
import { positionFromFen, STARTING_FEN } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { parsePgn } from '../src/pgn/parser.js';
import { unwrap } from '../src/core/result.js';
import { startServer } from '../src/serve/server.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-annotate-notes-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const TOKEN = 'test-token';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
}

/** Every note of a book that a PGN carries, as sortable text. */
function notesOf(path: string): string[] {
  const r = TbkBook.open(new FileReader(path), path, fastCrc32);
  if (!r.ok) throw r.error;
  return r.value.notes
    .all()
    .filter((n) => n.userValue >= 0 || n.nag !== 0 || n.comment !== '' || n.forbidden)
    .map((n) => JSON.stringify([n.keyHi, n.keyLo, n.move, n.userValue, n.nag, n.comment, n.forbidden]))
    .sort();
}

test('the tabiya command: written and read back, unknown words reported', () => {
  assert.equal(noteCommand(null, false), '');
  assert.equal(noteCommand(75, true), '[%tabiya value=75 forbidden]');
  assert.deepEqual(readNoteCommand('[%tabiya value=75 forbidden]  a\n long   comment [%clk 0:01:00]'), { value: 75, forbidden: true, text: 'a long comment [%clk 0:01:00]', unknown: [] });
  assert.deepEqual(readNoteCommand('[%tabiya value=101 colour=red]'), { text: '', unknown: ['value=101', 'colour=red'] });
});

test('a repertoire exported as PGN from the explorer reads back into a book with every note it had', async () => {
  const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n(?=\[Event )/).slice(0, 400).join('\n');
  const pgn = join(tmp, 'games.pgn');
  writeFileSync(pgn, games);
  const edited = join(tmp, 'edited.tbk');
  const fresh = join(tmp, 'fresh.tbk');
  for (const out of [edited, fresh]) assert.equal(cli('book', 'make', pgn, '-o', out, '--quiet').status, 0);

  const server = await startServer({ books: [edited], port: 0, host: '127.0.0.1', token: TOKEN });
  let exported = '';
  try {
    const note = async (play: string, move: string, patch: object): Promise<void> => {
      const r = await fetch(new URL('/api/move', server.url), { method: 'POST', headers: { 'content-type': 'application/json', 'x-tabiya-token': TOKEN }, body: JSON.stringify({ book: 'edited.tbk', play, move, ...patch }) });
      assert.equal(r.status, 200, `${play} ${move}: ${await r.text()}`);
    };
    const long = 'the main line: open games, and a comment long enough that the PGN writer has to wrap it over more than one line of seventy-nine columns';
    await note('', 'e2e4', { userValue: 100, nag: 1, comment: long });
    await note('e2e4', 'c7c5', { nag: 5, comment: 'Sicilian [%csl Gc5]' });
    await note('e2e4,c7c5', 'g1f3', { userValue: 75 });
    await note('e2e4,c7c5', 'd2d4', { userValue: 0, comment: 'not the Smith-Morra' });
    await note('e2e4,c7c5', 'b1c3', { forbidden: true });
    await note('e2e4,c7c5', 'a2a3', { userValue: 40, comment: 'a surprise, added by hand' });
    await note('e2e4,e7e5', 'g1f3', { nag: 3, comment: 'in a variation' });
    await note('d2d4', 'g8f6', { userValue: 60 });
    const r = await fetch(new URL('/api/export?book=edited.tbk&format=pgn&depth=4', server.url));
    assert.equal(r.status, 200);
    exported = await r.text();
  } finally {
    await server.close();
  }
  assert.match(exported, /\{\[%tabiya value=100\] the main line/);
  // The export names each line's opening where it changes, a comment of its own before the move's note.
  assert.match(exported, /^1\. e4 \$1 \{B00 King's Pawn Game\} \{\[%tabiya value=100\]/m);
  // (The writer wraps lines at 79 columns, a name too.)
  assert.match(exported.replace(/\s+/g, ' '), /\{B20 Sicilian Defense\}/);
  assert.match(exported, /\[%tabiya forbidden\]/);
  const file = join(tmp, 'repertoire.pgn');
  writeFileSync(file, exported);

  const before = notesOf(edited);
  assert.equal(before.length, 8);
  const r = cli('book', 'annotate', fresh, file, '--notes');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^1 lines: notes on 8 moves \([12] added to the book\)$/m, 'a2a3, and b1c3 where these games never played it');
  assert.deepEqual(notesOf(fresh), before);
  // Read again: nothing changes.
  assert.equal(cli('book', 'annotate', fresh, file, '--notes').status, 0);
  assert.deepEqual(notesOf(fresh), before);

  // Terra's annotate reads the same file its own way: main line NAGs as values, nothing else.
  const terra = join(tmp, 'terra.tbk');
  assert.equal(cli('book', 'make', pgn, '-o', terra, '--quiet').status, 0);
  assert.equal(cli('book', 'annotate', terra, file).status, 0);
  assert.notDeepEqual(notesOf(terra), before);

  // A word the command does not know is said, not silently dropped.
  const odd = join(tmp, 'odd.pgn');
  writeFileSync(odd, '[Event "x"]\n\n1. e4 {[%tabiya value=90 colour=red]} *\n');
  const w = cli('book', 'annotate', fresh, odd, '--notes');
  assert.equal(w.status, 0, w.stderr);
  assert.match(w.stderr, /\[%tabiya\] commands with words this version does not know, left out: colour=red/);
});

/** The notes a PGN gives, by the SAN of the moves to each position and the move. */
function readNotes(pgn: string, openings?: OpeningIndex): Map<string, { nag?: number; comment?: string; value?: number }> {
  const v = new PgnNotesVisitor(undefined, openings);
  parsePgn(pgn, v);
  const named = new Map<string, { nag?: number; comment?: string; value?: number }>();
  const keyOf = (line: string): string => {
    const pos = unwrap(positionFromFen(STARTING_FEN));
    const sans = line.split(' ').filter((x) => x !== '');
    const last = sans.pop()!;
    for (const s of sans) pos.play(unwrap(parseSan(pos, s)));
    return `${pos.keyHi >>> 0}:${pos.keyLo >>> 0}:${unwrap(parseSan(pos, last))}`;
  };
  const lines = ['c4', 'c4 e5', 'd4', 'd4 d5', 'd4 Nf6', 'd4 Nf6 c4', 'd4 Nf6 c4 e6', 'd4 Nf6 c4 e6 Nc3', 'd4 Nf6 c4 e6 Nf3', 'e4', 'e4 e5', 'e4 e5 Nf3', 'e4 e5 f4', 'e4 e5 Nf3 Nc6', 'e4 e5 f4 exf4', 'b3', 'b3 e5', 'b3 e5 Bb2', 'b3 e5 Bb2 Nc6', 'b3 e5 Bb2 Nc6 e3'];
  const byKey = new Map(lines.map((l) => [keyOf(l), l] as const));
  for (const [k, n] of v.notes) named.set(byKey.get(k) ?? k, { ...(n.nag === undefined ? {} : { nag: n.nag }), ...(n.comment === undefined ? {} : { comment: n.comment }), ...(n.value === undefined ? {} : { value: n.value }) });
  return named;
}

test('--notes: the export\'s reference to a transposition is no note, wrapped anywhere; one that reaches another position is', () => {
  const notes = readNotes(
    // The writer wraps at 79 columns, between "transposes" and "to" as well.
    '[Event "tree"]\n\n1. d4 (1. c4 Nf6 2. d4 {transposes\nto 1.d4\nNf6 2.c4}) (1. e4 {transposes to 1.d4}) 1... Nf6 2. c4 {main} *\n',
  );
  assert.deepEqual(notes.get('d4 Nf6 c4'), { comment: 'main' });
  assert.deepEqual(notes.get('e4'), { comment: 'transposes to 1.d4' });
  assert.equal([...notes.values()].filter((n) => n.comment !== undefined).length, 2, JSON.stringify([...notes]));
});

test('--notes: a move assessment is the move NAG wherever it stands, and a comment after a null move is not the move before it', () => {
  const notes = readNotes(
    '[Event "odd"]\n\n1. c4 $14 $5 e5 $146 $2 (1... e6 $13) *\n\n' +
      '[Event "threat"]\n\n1. d4 $1 Nf6 (1... d5 2. c4 -- {threatens dxc4} 3. Nc3 $2) 2. c4 {main} e6 3. Nc3 (3. Nf3 -- {hands over the move}) *\n',
  );
  // ChessBase and Lichess write the move glyph first, but "N" ($146) or the position's += ($14) may come first.
  assert.deepEqual(notes.get('c4'), { nag: 5 });
  assert.deepEqual(notes.get('c4 e5'), { nag: 2 });
  // Without a move assessment the first NAG is the move's.
  assert.equal([...notes.values()].filter((n) => n.nag === 13).length, 1);
  // The threat after 2.c4 -- is not a comment on 2.c4, nor on 3.Nf3.
  assert.deepEqual(notes.get('d4'), { nag: 1 });
  assert.deepEqual(notes.get('d4 Nf6 c4'), { comment: 'main' });
  assert.equal([...notes.values()].filter((n) => n.comment !== undefined && n.comment !== 'main').length, 0, JSON.stringify([...notes]));
});

test('--notes --replace: a move of the PGN gets exactly the notes it gives there, so a note deleted in another program leaves the book; a move only notes hold keeps them, named', () => {
  const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n(?=\[Event )/).slice(0, 400).join('\n');
  const pgn = join(tmp, 'replace-games.pgn');
  writeFileSync(pgn, games);
  const book = join(tmp, 'replace.tbk');
  assert.equal(cli('book', 'make', pgn, '-o', book, '--quiet').status, 0);
  const first = join(tmp, 'replace-first.pgn');
  writeFileSync(
    first,
    '[Event "repertoire"]\n\n1. e4 {[%tabiya value=100] the king\'s pawn} c5 $5 {Sicilian} 2. Nf3 {[%tabiya value=75]} (2. Ke2 {my own idea}) (2. Nc3 {[%tabiya forbidden]}) d6 *\n\n' +
      '[Event "other"]\n\n1. d4 {[%tabiya value=50] queen\'s pawn} *\n',
  );
  const r1 = cli('book', 'annotate', book, first, '--notes');
  assert.equal(r1.status, 0, r1.stderr);
  assert.match(r1.stdout, /^2 lines: notes on 6 moves \(1 added to the book\)$/m, '2.Ke2 is added by hand');
  const keyed = (line: string): string => {
    const pos = unwrap(positionFromFen(STARTING_FEN));
    const sans = line.split(' ');
    const last = sans.pop()!;
    for (const s of sans) pos.play(unwrap(parseSan(pos, s)));
    return `${pos.keyHi >>> 0},${pos.keyLo >>> 0},${unwrap(parseSan(pos, last))}`;
  };
  const note = (line: string, value: number, nag: number, comment: string, forbidden: boolean): string => {
    const [hi, lo, move] = keyed(line).split(',').map(Number);
    return JSON.stringify([hi, lo, move, value, nag, comment, forbidden]);
  };
  assert.deepEqual(notesOf(book), [note('e4', 100, 0, "the king's pawn", false), note('e4 c5', -1, 5, 'Sicilian', false), note('e4 c5 Nf3', 75, 0, '', false), note('e4 c5 Ke2', -1, 0, 'my own idea', false), note('e4 c5 Nc3', -1, 0, '', true), note('d4', 50, 0, "queen's pawn", false)].sort());

  // Edited elsewhere: the comments of 1.e4 and 1...c5 deleted, 2.Nf3's value and 2.Nc3's mark
  // taken away, 1...c5's NAG changed, 2...d6 annotated, 2.Ke2 bare, 1.d4 not in the file.
  const second = join(tmp, 'replace-second.pgn');
  writeFileSync(second, '[Event "repertoire"]\n\n1. e4 {[%tabiya value=100]} c5 $1 2. Nf3 (2. Ke2) (2. Nc3) d6 $2 {now the main line} 3. d4 *\n');
  const without = cli('book', 'annotate', book, second, '--replace');
  assert.equal(without.status, 2, '--replace without --notes is a usage error');
  assert.match(without.stderr, /--replace replaces the notes that --notes reads/);
  const r2 = cli('book', 'annotate', book, second, '--notes', '--replace', '--json');
  assert.equal(r2.status, 0, r2.stderr);
  const j = JSON.parse(r2.stdout) as { moves: number; added: number; cleared: number; reduced: number; kept: string[] };
  // All notes went from 2.Nf3 and 2.Nc3; 1.e4 and 1...c5 lost their comments and keep a value, a NAG.
  assert.deepEqual([j.moves, j.added, j.cleared, j.reduced, j.kept], [3, 0, 2, 2, ['Ke2 in game 1']]);
  assert.match(r2.stderr, /1 move that no game played kept its notes, though the PGN gives none: .*\(Ke2 in game 1\)/);
  assert.deepEqual(notesOf(book), [note('e4', 100, 0, '', false), note('e4 c5', -1, 1, '', false), note('e4 c5 Ke2', -1, 0, 'my own idea', false), note('e4 c5 Nf3 d6', -1, 2, 'now the main line', false), note('d4', 50, 0, "queen's pawn", false)].sort());

  // Without --replace the same file changes only what it gives.
  const again = join(tmp, 'replace-again.tbk');
  assert.equal(cli('book', 'make', pgn, '-o', again, '--quiet').status, 0);
  assert.equal(cli('book', 'annotate', again, first, '--notes').status, 0);
  assert.equal(cli('book', 'annotate', again, second, '--notes').status, 0);
  assert.ok(notesOf(again).includes(note('e4 c5 Nf3', 75, 0, '', false)), 'a value the PGN does not give is kept');
});

test('--notes: the opening names the export writes are names, not comments; a comment that only looks like one stays', () => {
  const pgn =
    '[Event "names"]\n\n' +
    // The export's own shape: a name, then the move's note in a comment of its own; a user
    // comment that repeats the name after the name; a program that joined name and note into one comment.
    "1. e4 {B00 King's Pawn Game} {[%tabiya value=100] open games} e5 {C20 King's\nPawn Game} {C20 King's Pawn Game} " +
    "2. Nf3 { C40 King's Knight Opening [%tabiya value=50] mine } (2. f4 {C30 King's Gambit} {a plain note} 2... exf4 " +
    // Not the name the list gives the position: a note.
    "{C30 King's Gambit}) 2... Nc6 {my own words} *\n\n" +
    '[Event "same name again"]\n\n' +
    // 3.e3 keeps the name 2...Nc6 had: the export writes none there, so this is the user's.
    "1. b3 {A01 Nimzo-Larsen Attack} e5 {A01 Nimzo-Larsen Attack: Modern Variation} 2. Bb2 Nc6 3. e3 {A01 Nimzo-Larsen Attack: Modern Variation} *\n";
  const notes = readNotes(pgn, loadOpenings());
  assert.deepEqual(Object.fromEntries(notes), {
    e4: { comment: 'open games', value: 100 },
    'e4 e5': { comment: "C20 King's Pawn Game" },
    'e4 e5 Nf3': { comment: 'mine', value: 50 },
    'e4 e5 f4': { comment: 'a plain note' },
    'e4 e5 f4 exf4': { comment: "C30 King's Gambit" },
    'e4 e5 Nf3 Nc6': { comment: 'my own words' },
    'b3 e5 Bb2 Nc6 e3': { comment: 'A01 Nimzo-Larsen Attack: Modern Variation' },
  });
  // Without the names (a caller that passes none) every comment is a note, as before.
  assert.equal(readNotes(pgn).get('e4')?.comment, "B00 King's Pawn Game open games");
});
