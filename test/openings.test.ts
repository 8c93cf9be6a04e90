/**
 * Opening names (src/serve/openings.ts): the table `tabiya serve` and `tabiya book probe` read
 * (data/openings-by-key.tsv) is the list of data/openings/ replayed, line for line; the names
 * agree with that list replayed by chess.js (its own move generator and SAN reader) at every
 * position of every line of the list and of real master games, transpositions included; `book
 * probe` names the probed position in text and JSON; the PGN export of a subtree carries the
 * main line's ECO and Opening tags and names each line's opening where it changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, readdirSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gunzipSync } from 'node:zlib';
import { Chess } from 'chess.js';
import { defaultPolicy } from '../src/book/select/config.js';
import { generateLegal } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, makeFen as makeFenOf, positionFromFen } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { makeUci } from '../src/notation/uci.js';
import { gameTag, readGames } from '../src/pgn/game.js';
import { OPENINGS_DIR, OPENINGS_TABLE, loadOpenings, replayOpenings } from '../src/node/openingNames.js';
import type { MoveFacts } from '../src/serve/explorer.js';
import { openingKey, type Opening } from '../src/serve/openings.js';
import { subtreePgn, walkSubtree } from '../src/serve/subtree.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MASTERS_GZ = join(REPO, 'data/masters-2550.pgn.gz');
const BIN = join(REPO, 'data/tabiya.bin');

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-openings-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** The lines of the list in file order: ECO, name and SAN moves. */
function listLines(dir = OPENINGS_DIR): { eco: string; name: string; sans: string[] }[] {
  const out: { eco: string; name: string; sans: string[] }[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.tsv')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n').slice(1)) {
      if (line.trim() === '') continue;
      const [eco, name, pgn] = line.split('\t');
      out.push({ eco: eco!, name: name!, sans: pgn!.split(/\s+/).filter((w) => w !== '' && !/^\d+\.+$/.test(w)) });
    }
  }
  return out;
}

/**
 * The position of a chess.js game as the list and the Lichess site key a name: its EPD, the en
 * passant square only when a capture is legal (python-chess `board.epd()` in the list's
 * bin/gen.py, scalachess `Fen.writeOpening`; chess.js writes the square by the same rule).
 */
function epdOf(chess: Chess): string {
  return chess.fen().split(' ').slice(0, 4).join(' ');
}

/** A line played by chess.js: the SAN chess.js writes for each move, and the EPD after it. */
interface ChessJsLine {
  sans: string[];
  epds: string[];
}

function chessJsLine(sans: readonly string[]): ChessJsLine {
  const chess = new Chess();
  const out: ChessJsLine = { sans: [], epds: [] };
  for (const san of sans) {
    out.sans.push(chess.move(san).san);
    out.epds.push(epdOf(chess));
  }
  return out;
}

/**
 * The list replayed by chess.js: each position's name, the first line in file order keeping it,
 * and that line's moves; and each line as chess.js played it, kept so that the comparison below
 * walks the list's lines without playing them through chess.js a second time.
 */
function chessJsIndex(): { byEpd: Map<string, Opening & { sans: string[] }>; lines: { eco: string; name: string; played: ChessJsLine }[] } {
  const byEpd = new Map<string, Opening & { sans: string[] }>();
  const lines: { eco: string; name: string; played: ChessJsLine }[] = [];
  for (const l of listLines()) {
    const played = chessJsLine(l.sans);
    lines.push({ eco: l.eco, name: l.name, played });
    const epd = played.epds.at(-1) ?? epdOf(new Chess());
    if (!byEpd.has(epd)) byEpd.set(epd, { eco: l.eco, name: l.name, sans: l.sans });
  }
  return { byEpd, lines };
}

function tabiya(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

test('the table of named positions is the opening list replayed, line for line', () => {
  const replayed = replayOpenings();
  assert.deepEqual(replayed.problems, [], 'every line of the list replays');
  const table = loadOpenings();
  assert.deepEqual(table.problems, []);
  assert.equal(table.size, replayed.size);
  assert.ok(table.size > 3700 && table.size <= 3807, String(table.size));
  assert.ok(readFileSync(OPENINGS_TABLE, 'utf8') === replayed.toTable(), `${OPENINGS_TABLE} is out of date with data/openings/: run npm run gen:openings`);
  assert.ok(table.toTable() === replayed.toTable(), 'the table reads back as written');
  // A list that changes (a name, a move) no longer matches the table.
  const changed = join(tmp, 'list');
  cpSync(OPENINGS_DIR, changed, { recursive: true });
  const c = join(changed, 'c.tsv');
  writeFileSync(c, readFileSync(c, 'utf8').replace('\tRuy Lopez: Berlin Defense\t', '\tRuy Lopez: Berlin\t'));
  assert.notEqual(replayOpenings(changed).toTable(), replayed.toTable());
  writeFileSync(c, readFileSync(join(OPENINGS_DIR, 'c.tsv'), 'utf8').replace('1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6\n', '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n'));
  assert.notEqual(replayOpenings(changed).toTable(), replayed.toTable());
  // A damaged table says where.
  const bad = join(tmp, 'bad.tsv');
  writeFileSync(bad, 'key\teco\tname\nnot-a-key\tA00\tX\n');
  assert.deepEqual(loadOpenings(bad).problems, [`${bad}:2: not a 16-digit hex key, an ECO code and a name`]);
});

test("names agree with the list replayed by chess.js at every position of the list's lines and of master games, transpositions included", () => {
  const { byEpd: oracle, lines } = chessJsIndex();
  const names = loadOpenings();
  assert.equal(names.size, oracle.size, 'as many named positions');
  const start = unwrap(positionFromFen(STARTING_FEN));
  let positions = 0;
  let named = 0;
  let transposed = 0;
  /** Plays the line chess.js played in ours, comparing the name of every position and the deepest name along the line. */
  const compare = ({ sans, epds }: ChessJsLine, what: string): void => {
    const pos = start.clone();
    const moves: number[] = [];
    let deepest: Opening | undefined;
    const played: string[] = [];
    for (let i = 0; i < sans.length; i++) {
      played.push(sans[i]!);
      const m = unwrap(parseSan(pos, sans[i]!));
      pos.play(m);
      moves.push(m);
      const want = oracle.get(epds[i]!);
      const got = names.of(pos);
      assert.deepEqual(got, want === undefined ? undefined : { eco: want.eco, name: want.name }, `${what}, after ${sans.slice(0, i + 1).join(' ')}`);
      positions++;
      if (want !== undefined) {
        named++;
        deepest = got;
        if (want.sans.length !== i + 1 || want.sans.some((s, j) => s !== played[j])) transposed++;
      }
    }
    assert.deepEqual(names.along(start, moves), deepest, `${what}: the deepest name along ${sans.join(' ')}`);
  };
  for (const l of lines) compare(l.played, `the list's ${l.eco} ${l.name}`);
  // The first 400 games of the bundled master games, to move 25 (about 2 MB of text: the start of the gzip stream).
  const fd = openSync(MASTERS_GZ, 'r');
  const head = Buffer.alloc(600_000);
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const text = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  const { games } = readGames(text.slice(0, text.lastIndexOf('\n[Event ')));
  const standard = games.filter((g) => gameTag(g, 'FEN') === undefined).slice(0, 400);
  assert.equal(standard.length, 400);
  const before = transposed;
  for (const g of standard) compare(chessJsLine(g.moves.slice(0, 50).map((n) => n.san)), `game ${gameTag(g, 'White')} - ${gameTag(g, 'Black')}`);
  assert.ok(positions > 50_000 && named > 5_000, `${positions} positions, ${named} named`);
  assert.ok(transposed - before > 100, `${transposed - before} named positions of the games reached by another move order than the list's`);
  // The Nimzo-Indian by its two move orders.
  const along = (line: string): Opening | undefined => {
    const pos = start.clone();
    const moves = line.split(' ').map((san) => {
      const m = unwrap(parseSan(pos, san));
      pos.play(m);
      return m;
    });
    return names.along(start, moves);
  };
  assert.deepEqual(along('d4 Nf6 c4 e6 Nc3 Bb4'), { eco: 'E20', name: 'Nimzo-Indian Defense' });
  assert.deepEqual(along('c4 e6 Nc3 Nf6 d4 Bb4'), { eco: 'E20', name: 'Nimzo-Indian Defense' });
  assert.deepEqual(along('Nf3 Nf6 c4 e6 Nc3 Bb4 d4'), { eco: 'E21', name: 'Nimzo-Indian Defense: Three Knights Variation' }, 'the list has it as 1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.Nf3');
  // A double push last, beside an enemy pawn that cannot take en passant (the e4 pawn is pinned
  // by Qe2): Polyglot's key counts the e.p. file, the list's EPD has none. One position, one name.
  const bronstein = { eco: 'C40', name: 'Latvian Gambit Accepted: Bronstein Gambit' };
  assert.deepEqual(along('e4 e5 Nf3 f5 Nxe5 Qf6 d4 d6 Nc4 fxe4 Qh5+ g6 Qe2'), bronstein, "the list's move order");
  assert.deepEqual(along('e4 e5 Nf3 f5 Nxe5 Qf6 Nc4 fxe4 Qh5+ g6 Qe2 d6 d4'), bronstein, '7.d4 last, e4xd3 e.p. illegal');
  // The same from a FEN whose e.p. field names the square no capture can use (X-FEN, Stockfish write it).
  assert.deepEqual(names.of(unwrap(positionFromFen('rnb1kbnr/ppp4p/3p1qp1/8/2NPp3/8/PPP1QPPP/RNB1KB1R b KQkq d3 0 7'))), bronstein);
  // A legal capture keeps the square: 1.e4 d5 2.e5 f5 is not the position with ...f5 played earlier.
  assert.notEqual(openingKey(unwrap(positionFromFen('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3')))[1], openingKey(unwrap(positionFromFen('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3')))[1]);
});

test('book probe names the probed position: the deepest named one along --moves, or the --fen position\'s own', () => {
  const najdorf = 'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6';
  const cases: [string[], Opening | null][] = [
    [['--moves', najdorf], { eco: 'B90', name: 'Sicilian Defense: Najdorf Variation' }],
    [['--moves', 'e2e4 e7e5 g1f3 b8c6 f1b5 g8f6'], { eco: 'C65', name: 'Ruy Lopez: Berlin Defense' }],
    // Past the list's lines (8.Qxd8+ Kxd8 9.Nc3 is the Berlin endgame's main line), the last name stays.
    [['--moves', 'e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4 d4 Nd6 Bxc6 dxc6 dxe5 Nf5 Qxd8+ Kxd8 Nc3'], { eco: 'C67', name: "Ruy Lopez: Berlin Defense, l'Hermet Variation, Berlin Wall Defense" }],
    // A transposition: the Najdorf reached by 2.Nc3 first.
    [['--moves', 'e4 c5 Nc3 d6 Nf3 Nf6 d4 cxd4 Nxd4 a6'], { eco: 'B90', name: 'Sicilian Defense: Najdorf Variation' }],
    // A transposition whose last move is a double push beside a pinned pawn (no e.p. capture).
    [['--moves', 'e4 e5 Nf3 f5 Nxe5 Qf6 Nc4 fxe4 Qh5+ g6 Qe2 d6 d4'], { eco: 'C40', name: 'Latvian Gambit Accepted: Bronstein Gambit' }],
    // The position of a FEN alone, and a FEN with moves from it.
    [['--fen', 'rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6'], { eco: 'B90', name: 'Sicilian Defense: Najdorf Variation' }],
    [['--fen', 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', '--moves', 'Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3'], { eco: 'B90', name: 'Sicilian Defense: Najdorf Variation, English Attack' }],
    [[], null],
    [['--fen', '8/8/8/4k3/8/8/8/4K2R w K - 0 1'], null],
  ];
  for (const [args, want] of cases) {
    const json = tabiya(['book', 'probe', BIN, ...args, '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).opening, want, args.join(' '));
    if (![0, 2, cases.length - 1].includes(cases.findIndex((c) => c[0] === args))) continue;
    const text = tabiya(['book', 'probe', BIN, ...args]);
    assert.equal(text.code, 0, text.stderr);
    const second = text.stdout.split('\n')[1]!;
    if (want === null) assert.doesNotMatch(text.stdout, /opening/, args.join(' '));
    else assert.equal(second, `opening: ${want.eco} ${want.name}`, args.join(' '));
  }
  // A .tbk names the position the same way.
  writeFileSync(join(tmp, 'g.pgn'), '[Event "?"]\n[Result "1-0"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 1-0\n');
  assert.equal(tabiya(['book', 'make', 'g.pgn', '-o', 'g.tbk', '--quiet']).code, 0);
  const rich = tabiya(['book', 'probe', 'g.tbk', '--moves', najdorf, '--json']);
  assert.equal(rich.code, 0, rich.stderr);
  assert.deepEqual(JSON.parse(rich.stdout).opening, { eco: 'B90', name: 'Sicilian Defense: Najdorf Variation' });
  assert.deepEqual(JSON.parse(rich.stdout).moves.map((m: { san: string }) => m.san), ['Be3']);
  assert.equal(tabiya(['book', 'probe', 'g.tbk', '--moves', najdorf]).stdout.split('\n')[1], 'opening: B90 Sicilian Defense: Najdorf Variation');
});

test('the PGN export of a subtree is tagged with the opening of its main line and names each line where its opening changes', async () => {
  const index = loadOpenings();
  // A book by the moves that lead to a position: [uci, weight]; heaviest first is the main line.
  const lines: Record<string, [string, number][]> = {
    '': [['e2e4', 10], ['d2d4', 5]],
    e2e4: [['e7e5', 10], ['c7c5', 8]],
    'e2e4 e7e5': [['g1f3', 10]],
    'e2e4 e7e5 g1f3': [['b8c6', 10]],
    'e2e4 e7e5 g1f3 b8c6': [['f1b5', 10]],
    'e2e4 e7e5 g1f3 b8c6 f1b5': [['a7a6', 20], ['g8f6', 10]],
    'e2e4 e7e5 g1f3 b8c6 f1b5 g8f6': [['e1g1', 10]],
    'e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1': [['a7a6', 1]],
    'e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1 a7a6': [['a2a3', 1]],
  };
  const byKey = new Map<string, [string, number][]>();
  for (const [line, moves] of Object.entries(lines)) {
    const pos = unwrap(positionFromFen(STARTING_FEN));
    for (const u of line === '' ? [] : line.split(' ')) pos.play(legal(pos).find((x) => makeUci(x) === u)!);
    byKey.set(`${pos.keyHi}:${pos.keyLo}`, moves);
  }
  const book = async (p: Position): Promise<MoveFacts[]> =>
    (byKey.get(`${p.keyHi}:${p.keyLo}`) ?? []).map(([uci, weight]) => ({
      move: legal(p).find((x) => makeUci(x) === uci)!, uci, games: weight, wins: 0, draws: weight, losses: 0, avgElo: 0, opponentElo: 0, weight, probability: 0,
      userValue: null, nag: null, comment: null, forbidden: false, byHand: false, repeats: 0, game: null, audit: null, learned: null,
    }));
  const exported = async (fen: string, atRoot: Opening | undefined): Promise<string> => {
    const pos = unwrap(positionFromFen(fen));
    const tree = await walkSubtree(book, pos, defaultPolicy(), 12, 20000);
    const pgn = subtreePgn(tree, pos, 'x.tbk', { index, atRoot });
    assert.equal(makeFenOf(pos), fen, 'the position is left as it was');
    return pgn;
  };
  const tags = (pgn: string): [string | undefined, string | undefined] => {
    const g = readGames(pgn).games[0]!;
    return [gameTag(g, 'ECO'), gameTag(g, 'Opening')];
  };
  // From the start: the main line 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 is the Morphy Defense, whatever its variations (the Berlin) are named.
  const whole = await exported(STARTING_FEN, undefined);
  assert.deepEqual(tags(whole), ['C70', 'Ruy Lopez: Morphy Defense']);
  assert.match(whole, /^\[Result "\*"\]\n\[ECO "C70"\]\n\[Opening "Ruy Lopez: Morphy Defense"\]\n\n1\. e4 /m);
  // Each line's opening where it changes, the variations' too, as a comment of its own at the
  // move that reaches it; 4.O-O is still the Berlin (the list names it so again): no comment.
  const movetext = whole.slice(whole.indexOf('\n\n') + 2).replace(/\s+/g, ' ').trim();
  assert.equal(
    movetext,
    "1. e4 {B00 King's Pawn Game} (1. d4 {A40 Queen's Pawn Game}) 1... e5 {C20 King's Pawn Game} (1... c5 {B20 Sicilian Defense}) " +
      "2. Nf3 {C40 King's Knight Opening} 2... Nc6 {C44 King's Knight Opening: Normal Variation} 3. Bb5 {C60 Ruy Lopez} " +
      '3... a6 {C70 Ruy Lopez: Morphy Defense} (3... Nf6 {C65 Ruy Lopez: Berlin Defense} 4. O-O a6 5. a3) *',
  );
  // From the Berlin: its main line 4.O-O a6 5.a3 leaves the list after 4.O-O, whose name stays.
  const berlin = await exported('r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', undefined);
  assert.deepEqual(tags(berlin), ['C65', 'Ruy Lopez: Berlin Defense']);
  assert.match(berlin, /\[FEN "[^"]+"\]\n\[ECO "C65"\]/);
  // The exported position's own name is the one in effect: 4.O-O, named as it, is not commented.
  assert.doesNotMatch(berlin.slice(berlin.indexOf('\n\n')), /\{/);
  // A position the book has no move in keeps the name of the way there; an unnamed one has no tags.
  assert.deepEqual(tags(await exported('rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR b KQkq - 0 1', { eco: 'A00', name: "Anderssen's Opening" })), ['A00', "Anderssen's Opening"]);
  const none = await exported('8/8/8/4k3/8/8/8/4K2R w K - 0 1', undefined);
  assert.doesNotMatch(none, /\[ECO |\[Opening /);
  assert.equal(readGames(none).errors.length, 0);
});

function legal(pos: Position): number[] {
  const buf = new Uint16Array(256);
  return [...buf.subarray(0, generateLegal(pos, buf, 0))];
}
