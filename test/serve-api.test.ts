/**
 * `tabiya serve`'s JSON API against a real server on 127.0.0.1 (port 0), on books built from
 * real master games: every explorer field cross-checked with `tabiya book probe --json` (a .tbk
 * and a .bin), the Lichess response shape, opening names across transpositions, every bad
 * input (400, 404, 413), path traversal plain and encoded, the write token, Origin and Host
 * checks, --read-only, and note edits that persist across a restart and are never half-applied.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { performanceRating } from '../src/serve/performance.js';
import { addressToOpen, loadAssets, loadOpenings, startServer, type RunningServer } from '../src/serve/server.js';
import { isLoopback } from '../src/serve/loopback.js';
import { buildApp, stopImport } from '../src/serve/app.js';
import { ServedBook, policyOf } from '../src/serve/library.js';
import { subtreePgn, walkSubtree } from '../src/serve/subtree.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';
import { readGames } from '../src/pgn/game.js';
import { settlesWithin } from './support/timeBounds.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-api-'));
const TBK = join(tmp, 'masters.tbk');
const BIN = join(tmp, 'masters.bin');
const TOKEN = 'test-token';
let server: RunningServer;

function tabiya(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface Reply {
  status: number;
  body: string;
  json: Record<string, unknown> & { error?: string };
}

/** A raw HTTP request (the path is sent as given, not normalised as fetch would). */
function http(url: string, path: string, opts: { method?: string; body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Reply> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: opts.method ?? 'GET', headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json = {};
        try {
          json = JSON.parse(body);
        } catch {
          /* not JSON (the page) */
        }
        resolve({ status: res.statusCode ?? 0, body, json });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

const explore = (query: string, url = server.url): Promise<Reply> => http(url, `/api/explorer?${query}`);
const write = (path: string, body: object, headers: Record<string, string> = { 'x-tabiya-token': TOKEN }, url = server.url): Promise<Reply> =>
  http(url, path, { method: 'POST', body: JSON.stringify(body), headers });

before(async () => {
  for (const out of [TBK, BIN]) {
    const r = tabiya(['book', 'make', SAMPLE_GZ, '-o', out, '--quiet', ...(out === BIN ? ['--min-games', '2'] : [])]);
    assert.equal(r.code, 0, r.stderr);
  }
  // Verdicts of book audit on the first moves (a 1 cp margin flags most), as the explorer must show them.
  const audit = tabiya(['book', 'audit', TBK, '--max-ply', '1', '--depth', '3', '--margin', '1', '--threads', '1', '--mark', '--quiet']);
  assert.equal(audit.code, 0, audit.stderr);
  server = await startServer({ books: [TBK, BIN], port: 0, host: '127.0.0.1', token: TOKEN });
});
after(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const LINES = ['', 'e2e4', 'e2e4,c7c5', 'd2d4,g8f6,c2c4,e7e6', 'e2e4,e7e5,g1f3,b8c6,f1b5'];

test('explorer on a .tbk: every field as book probe --json gives it (audit verdicts too), in the Lichess shape', async () => {
  let audited = 0;
  for (const play of LINES) {
    const r = await explore(`book=masters.tbk&play=${play}`);
    assert.equal(r.status, 200, r.body);
    const probe = tabiya(['book', 'probe', TBK, '--moves', play.replaceAll(',', ' '), '--json']);
    assert.equal(probe.code, 0, probe.stderr);
    const want = JSON.parse(probe.stdout) as {
      fen: string;
      opening: { eco: string; name: string } | null;
      moves: { uci: string; san: string; wins: number; draws: number; losses: number; avgElo: number; weight: number; probability: number; userValue: number | null; nag: number | null; comment: string | null; forbidden: boolean; audit: { loss: number; best: string | null; depth: number; refutation: string[] } | null }[];
    };
    const got = r.json as { fen: string; white: number; draws: number; black: number; moves: Record<string, unknown>[]; opening: unknown; topGames: unknown[]; recentGames: unknown[] };
    assert.equal(got.fen, want.fen);
    assert.deepEqual(got.opening, want.opening, `${play}: the opening`);
    assert.ok(want.moves.length > 0, `the sample has book moves after ${play}`);
    assert.equal(got.moves.length, want.moves.length);
    const blackToMove = want.fen.split(' ')[1] === 'b';
    let w = 0;
    let d = 0;
    let b = 0;
    want.moves.forEach((m, i) => {
      const g = got.moves[i]!;
      // The Lichess fields: results from White's side.
      assert.deepEqual(
        { uci: g.uci, san: g.san, white: g.white, draws: g.draws, black: g.black, averageRating: g.averageRating },
        { uci: m.uci, san: m.san, white: blackToMove ? m.losses : m.wins, draws: m.draws, black: blackToMove ? m.wins : m.losses, averageRating: m.avgElo > 0 ? m.avgElo : null },
        `${play}: ${m.san}`,
      );
      assert.deepEqual(
        { weight: g.weight, probability: g.probability, userValue: g.userValue, nag: g.nag, comment: g.comment, forbidden: g.forbidden },
        { weight: m.weight, probability: m.probability, userValue: m.userValue, nag: m.nag, comment: m.comment, forbidden: m.forbidden },
      );
      assert.deepEqual(g.audit, m.audit === null ? null : { loss: m.audit.loss, best: m.audit.best, depth: m.audit.depth, refutation: m.audit.refutation }, `${play}: ${m.san} audit`);
      if (play === '') audited += m.audit === null ? 0 : 1;
      assert.ok('performance' in g && 'learned' in g);
      w += g.white as number;
      d += g.draws as number;
      b += g.black as number;
    });
    assert.deepEqual([got.white, got.draws, got.black], [w, d, b], 'the Σ row is the sum of the moves');
    assert.deepEqual([got.topGames, got.recentGames], [[], []]);
  }
  assert.ok(audited > 3, `the start position's moves carry audit verdicts (${audited})`);
});

test("explorer performance: the answering players' mean rating from book probe of the next position, and FIDE's dp for the mover's score", async () => {
  for (const play of ['e2e4', 'd2d4,g8f6']) {
    const got = (await explore(`book=masters.tbk&play=${play}`)).json.moves as { uci: string; white: number; draws: number; black: number; averageOpponentRating: number | null; performance: number | null }[];
    const blackToMove = play.split(',').length % 2 === 1;
    for (const m of got.slice(0, 4)) {
      const next = JSON.parse(tabiya(['book', 'probe', TBK, '--moves', `${play},${m.uci}`.replaceAll(',', ' '), '--json']).stdout) as { moves: { avgElo: number; ratedGames: number }[] };
      const rated = next.moves.reduce((n, r) => n + r.ratedGames, 0);
      const opponents = next.moves.reduce((n, r) => n + r.avgElo * r.ratedGames, 0) / rated;
      assert.ok(rated > 0, `${play} ${m.uci}: the sample's games are rated`);
      assert.equal(m.averageOpponentRating, Math.round(opponents), `${play} ${m.uci}`);
      const [wins, losses] = blackToMove ? [m.black, m.white] : [m.white, m.black];
      assert.equal(m.performance, performanceRating(opponents, wins, m.draws, losses), `${play} ${m.uci}`);
      // Above the opponents exactly when the movers scored above half.
      const aboveHalf = Math.sign(2 * wins + m.draws - (wins + m.draws + losses));
      assert.equal(Math.sign(m.performance! - Math.round(opponents)), aboveHalf, `${play} ${m.uci}`);
    }
  }
  const bin = (await explore('book=masters.bin&play=e2e4')).json.moves as { performance: unknown; averageOpponentRating: unknown }[];
  assert.ok(bin.every((m) => m.performance === null && m.averageOpponentRating === null), 'a .bin keeps no ratings');
});

test('explorer answers are kept: the same bytes again, and a change shows at once', async () => {
  const q = 'book=masters.tbk&play=e2e4,e7e5,g1f3,b8c6';
  const first = await explore(q);
  const again = await explore(q);
  assert.equal(again.body, first.body);
  assert.equal(again.status, 200);
  const r = await write('/api/move', { book: 'masters.tbk', play: 'e2e4,e7e5,g1f3,b8c6', move: 'f1b5', comment: 'the Spanish' });
  assert.equal(r.status, 200, r.body);
  const moves = (await explore(q)).json.moves as { uci: string; comment: string | null }[];
  assert.equal(moves.find((m) => m.uci === 'f1b5')?.comment, 'the Spanish');
  assert.equal(JSON.parse(first.body).moves.find((m: { uci: string }) => m.uci === 'f1b5').comment, null);
});

test('a change another process makes to a served book shows in the next answers', async () => {
  const q = 'book=masters.tbk&play=d2d4,d7d5,c2c4';
  const before = (await explore(q)).json.moves as { uci: string; userValue: number | null }[];
  assert.equal(before.find((m) => m.uci === 'e7e6')?.userValue, null);
  const r = tabiya(['book', 'set', TBK, '--moves', 'd4 d5 c4', '--move', 'e6', '--value', '61']);
  assert.equal(r.code, 0, r.stderr);
  // The server looks at the file at most every 250 ms.
  await new Promise((res) => setTimeout(res, 300));
  const after = (await explore(q)).json.moves as { uci: string; userValue: number | null }[];
  assert.equal(after.find((m) => m.uci === 'e7e6')?.userValue, 61);
});

test('a .bin replaced by another process (book make -o, book merge -o into it) shows in the next answers, kept ones too', async () => {
  const q = 'book=masters.bin&play=e2e4';
  const probeBin = (): { uci: string; weight: number }[] =>
    (JSON.parse(tabiya(['book', 'probe', BIN, '--moves', 'e4', '--json']).stdout) as { moves: { uci: string; weight: number }[] }).moves.map((m) => ({ uci: m.uci, weight: m.weight }));
  const served = async (): Promise<{ uci: string; weight: number }[]> => ((await explore(q)).json.moves as { uci: string; weight: number }[]).map((m) => ({ uci: m.uci, weight: m.weight }));
  const original = readFileSync(BIN);
  const first = await served();
  assert.deepEqual(await served(), first, 'kept');
  try {
    // Another build into the same file: fewer moves (only those of 20 games or more).
    let r = tabiya(['book', 'make', SAMPLE_GZ, '-o', BIN, '--quiet', '--min-games', '20']);
    assert.equal(r.code, 0, r.stderr);
    assert.notDeepEqual(probeBin(), first, 'the new build differs after 1.e4');
    await new Promise((res) => setTimeout(res, 300));
    assert.deepEqual(await served(), probeBin());
    // A merge into it (of two copies of the book: every weight doubled).
    const before = probeBin();
    copyFileSync(BIN, join(tmp, 'copy.bin'));
    r = tabiya(['book', 'merge', join(tmp, 'copy.bin'), join(tmp, 'copy.bin'), '-o', BIN, '--force']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(probeBin(), before.map((m) => ({ uci: m.uci, weight: Math.min(2 * m.weight, 65535) })));
    await new Promise((res) => setTimeout(res, 300));
    assert.deepEqual(await served(), probeBin());
  } finally {
    writeFileSync(`${BIN}.new`, original);
    renameSync(`${BIN}.new`, BIN);
  }
  await new Promise((res) => setTimeout(res, 300));
  assert.deepEqual(await served(), first, 'and back');
});

test('a big .bin read from disk, replaced while probes run: they finish on the old book, the next ones read the new', async () => {
  const path = join(tmp, 'disk.bin');
  copyFileSync(BIN, path);
  const book = await ServedBook.open('disk.bin', path, { binMemoryLimit: 0 });
  try {
    const start = positionFromFen(STARTING_FEN);
    assert.ok(start.ok);
    const e4 = start.value;
    const m = parseUci(e4, 'e2e4');
    assert.ok(m.ok);
    e4.play(m.value);
    const old = (await book.moves(e4, policyOf(undefined))).map((m) => [m.uci, m.weight]);
    const r = tabiya(['book', 'merge', BIN, BIN, '-o', join(tmp, 'doubled.bin')]);
    assert.equal(r.code, 0, r.stderr);
    renameSync(join(tmp, 'doubled.bin'), path);
    const revision = book.revision;
    // The new file is opened (a few reads) while probes of the old one are on their way (a
    // read per step of their binary search): the old one must stay open until they are done.
    const reopened = book.refresh(Date.now() + 1000);
    assert.ok(reopened !== undefined);
    const running = Array.from({ length: 50 }, () => book.moves(e4, policyOf(undefined)));
    await reopened;
    assert.equal(book.revision, revision + 1, 'a new revision: answers kept before are not sent again');
    for (const moves of await Promise.all(running)) assert.deepEqual(moves.map((m) => [m.uci, m.weight]), old);
    assert.deepEqual(
      (await book.moves(e4, policyOf(undefined))).map((m) => [m.uci, m.weight]),
      old.map(([uci, w]) => [uci, Math.min(2 * (w as number), 65535)]),
    );
    // A file that is no book any more: the book stays as it was, and is looked at again later.
    writeFileSync(path, 'not a book');
    await book.refresh(Date.now() + 2000);
    assert.equal(book.revision, revision + 1);
    assert.equal((await book.moves(e4, policyOf(undefined))).length, old.length);
  } finally {
    await book.close();
  }
});

test('explorer on a .bin: weights and shares as book probe --json gives them', async () => {
  for (const play of LINES.slice(0, 3)) {
    const r = await explore(`book=masters.bin&play=${play}`);
    assert.equal(r.status, 200, r.body);
    const want = JSON.parse(tabiya(['book', 'probe', BIN, '--moves', play.replaceAll(',', ' '), '--json']).stdout) as { moves: { uci: string; san: string; weight: number; share: number }[] };
    const got = r.json.moves as { uci: string; san: string; weight: number; probability: number; white: number }[];
    assert.deepEqual(
      got.map((m) => [m.uci, m.san, m.weight, Math.round(1000 * m.probability) / 10]),
      want.moves.map((m) => [m.uci, m.san, m.weight, m.share]),
    );
    assert.ok(got.every((m) => m.white === 0), 'a .bin keeps no game counts');
  }
});

test('policy= gives the probabilities of that policy, as book probe --policy does', async () => {
  for (const policy of ['uniform', 'polyglot-best', 'gnu-random']) {
    const got = (await explore(`book=masters.tbk&play=e2e4&policy=${policy}`)).json.moves as { uci: string; probability: number }[];
    const want = JSON.parse(tabiya(['book', 'probe', TBK, '--moves', 'e4', '--policy', policy, '--json']).stdout) as { moves: { uci: string; probability: number }[] };
    assert.deepEqual(got.map((m) => [m.uci, m.probability]), want.moves.map((m) => [m.uci, m.probability]), policy);
  }
  const uniform = (await explore('book=masters.tbk&play=e2e4&policy=uniform')).json.moves as { probability: number }[];
  assert.ok(uniform.every((m) => Math.abs(m.probability - uniform[0]!.probability) < 1e-12 || m.probability === 0));
});

test('opening names by position: a transposition gets the same name and statistics', async () => {
  const a = await explore('book=masters.tbk&play=d2d4,g8f6,c2c4,e7e6,b1c3,f8b4');
  const b = await explore('book=masters.tbk&play=c2c4,e7e6,b1c3,g8f6,d2d4,f8b4');
  assert.deepEqual(a.json.opening, { eco: 'E20', name: 'Nimzo-Indian Defense' });
  assert.deepEqual(b.json.opening, a.json.opening);
  assert.deepEqual(b.json.moves, a.json.moves);
  assert.deepEqual((await explore('book=masters.tbk&play=e2e4,c7c5')).json.opening, { eco: 'B20', name: 'Sicilian Defense' });
  // Past the named positions, the deepest name on the way is kept.
  const deep = await explore('book=masters.tbk&play=e2e4,c7c5,a2a3,a7a6,h2h3');
  assert.equal((deep.json.opening as { eco: string }).eco.startsWith('B2'), true);
  assert.equal((await explore('book=masters.tbk&fen=8/8/8/4k3/8/8/8/4K2R%20w%20K%20-%200%201')).json.opening, null);
});

test('the opening list: every line of data/openings replays', () => {
  const index = loadOpenings();
  assert.deepEqual(index.problems, []);
  // 3,807 lines; a few name the same position (the first in file order keeps it).
  assert.ok(index.size > 3700 && index.size <= 3807, String(index.size));
});

test('bad input: 400 for an invalid FEN, an illegal move, a bad policy; 404 for an unknown book; 413 for a big body', async () => {
  const cases: [string, number, RegExp][] = [
    ['book=masters.tbk&fen=rnbqkbnr', 400, /^fen: /],
    ['book=masters.tbk&play=e2e4,e2e4', 400, /^play: move 2 \(e2e4\): illegal move/],
    ['book=masters.tbk&play=e2e4;rm', 400, /play/],
    ['book=masters.tbk&policy=random', 400, /policy/],
    ['book=nothing.tbk', 404, /no book "nothing.tbk" is served/],
    ['play=e2e4', 400, /book: name one of masters.tbk, masters.bin/],
  ];
  for (const [q, status, message] of cases) {
    const r = await explore(q);
    assert.equal(r.status, status, q);
    assert.match(r.json.error ?? '', message, q);
  }
  const big = await write('/api/move', { book: 'masters.tbk', move: 'e2e4', comment: 'x'.repeat(70_000) });
  assert.equal(big.status, 413);
  assert.equal(big.json.error, 'request body too large (over 64 KiB)');
  // A PGN over the import's bound: the bound and the command that takes any size.
  const bigPgn = await http(server.url, '/api/import?book=masters.tbk', { method: 'POST', body: ' '.repeat(33 * 1024 * 1024), headers: { 'content-type': 'application/x-chess-pgn', 'x-tabiya-token': TOKEN } });
  assert.equal(bigPgn.status, 413);
  assert.match(bigPgn.body, /over 32 MiB.*tabiya book make -o/);
  const bad = await write('/api/move', { book: 'masters.tbk', move: 'e2e4', userValue: 101 });
  assert.equal(bad.status, 400);
  // A misspelt field beside a valid change: refused, not dropped while the rest is saved.
  const unknown = await write('/api/move', { book: 'masters.tbk', move: 'e2e4', comment: 'kept?', usrValue: 50 });
  assert.equal(unknown.status, 400);
  assert.match(unknown.json.error ?? '', /usrValue/);
  // A field of the wrong type is refused, not coerced (an empty string cleared the user value,
  // false the NAG, 1 marked the move forbidden, true was saved as the comment "true").
  const before = readFileSync(TBK);
  for (const [field, value] of [['userValue', ''], ['userValue', '50'], ['nag', false], ['comment', true], ['forbidden', 1], ['forbidden', 'true'], ['move', 5]] as const) {
    const wrong = await write('/api/move', { book: 'masters.tbk', move: 'e2e4', [field]: value });
    assert.equal(wrong.status, 400, `${field}: ${JSON.stringify(value)}`);
    assert.match(wrong.json.error ?? '', new RegExp(`^body/${field} must be `), `${field}: ${JSON.stringify(value)}`);
  }
  const wrongRemove = await write('/api/move/remove', { book: 'masters.tbk', move: 5 });
  assert.equal(wrongRemove.status, 400);
  assert.ok(readFileSync(TBK).equals(before), 'a refused edit changes nothing');
  const notJson = await http(server.url, '/api/move', { method: 'POST', body: '{"move":', headers: { 'content-type': 'application/json', 'x-tabiya-token': TOKEN } });
  assert.equal(notJson.status, 400);
  assert.ok(typeof notJson.json.error === 'string');
  // JSON sent as text (fetch's default type for a string body): the type is what is wrong.
  for (const path of ['/api/move', '/api/move/remove']) {
    const asText = await http(server.url, path, { method: 'POST', body: JSON.stringify({ book: 'masters.tbk', move: 'e2e4', comment: 'x' }), headers: { 'content-type': 'text/plain', 'x-tabiya-token': TOKEN } });
    assert.equal(asText.status, 415, path);
    assert.match(asText.json.error ?? '', /^unsupported Content-Type "text\/plain": send JSON \(Content-Type: application\/json\)$/, path);
  }
  assert.ok(readFileSync(TBK).equals(before), 'a refused edit changes nothing');
  const r = await http(server.url, '/nowhere');
  assert.equal(r.status, 404);
  assert.match(r.json.error ?? '', /no such page/);
  // A form post (with the token): 415, saying what to send.
  const form = await http(server.url, '/api/move', { method: 'POST', body: 'book=masters.tbk&move=e2e4', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-tabiya-token': TOKEN } });
  assert.equal(form.status, 415);
  assert.match(form.json.error ?? '', /send JSON \(Content-Type: application\/json\)/);
  // A query over Node's 16 KB of request line and headers: answered in the API's shape, { error } alone.
  const long = await http(server.url, `/api/explorer?book=masters.tbk&fen=${'p'.repeat(20_000)}`);
  assert.equal(long.status, 431);
  assert.deepEqual(Object.keys(long.json), ['error']);
  assert.match(long.json.error ?? '', /over 16 KB/);
});

test('path traversal, plain and encoded, reaches no file', async () => {
  const secret = readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8');
  const paths = [
    '/../package.json',
    '/assets/../../package.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/assets/%252e%252e%252fpackage.json',
    '/assets/..%5c..%5cpackage.json',
    '/assets/index.html',
    `/assets/${encodeURIComponent(TBK)}`,
    `/api/explorer?book=${encodeURIComponent('../../' + TBK)}`,
    `/api/explorer?book=${encodeURIComponent(TBK)}`,
    '/api/explorer?book=..%252f..%252fetc%252fpasswd',
    '/api/explorer?book=%2e%2e%2fmasters.tbk',
  ];
  for (const p of paths) {
    const r = await http(server.url, p);
    assert.ok(r.status === 404 || r.status === 400, `${p}: ${r.status}`);
    assert.ok(!r.body.includes('"devDependencies"') && !r.body.includes(secret.slice(0, 40)), p);
  }
});

test('writes need the token and a same-origin request; Host must be loopback', async () => {
  const body = { book: 'masters.tbk', move: 'e2e4', userValue: 60 };
  const before = readFileSync(TBK);
  const near = [TOKEN.slice(0, -1), `${TOKEN}x`, '', `${TOKEN.slice(0, -1)}é`].map((t) => ({ 'x-tabiya-token': t }));
  for (const headers of [{}, { 'x-tabiya-token': 'guess' }, ...near, { 'x-tabiya-token': TOKEN, origin: 'http://evil.example' }] as Record<string, string>[]) {
    const r = await write('/api/move', body, headers);
    assert.equal(r.status, 403, JSON.stringify(headers));
    // A page left open across a restart of the server carries the old token: it is told where the new one is.
    if (headers['x-tabiya-token'] === 'guess') assert.match(r.body, /open the new address it printed/);
  }
  assert.deepEqual(readFileSync(TBK), before, 'refused writes change nothing');
  const rebinding = await http(server.url, '/api/books', { headers: { host: 'evil.example:80' } });
  assert.equal(rebinding.status, 403);
  // The page carries the token only when opened with it, as the address tabiya serve prints
  // gives it (Jupyter's way): another account of the machine can open the page, not learn it.
  const page = await http(server.url, '/');
  assert.equal(page.status, 200);
  assert.match(page.body, /name="tabiya-token" content=""/);
  assert.ok(!page.body.includes(TOKEN));
  for (const guess of ['guess', `${TOKEN}x`, TOKEN.slice(1), '']) assert.ok(!(await http(server.url, `/?token=${guess}`)).body.includes(TOKEN), guess);
  assert.equal(server.pageUrl, `${server.url}?token=${TOKEN}`);
  const opened = await http(server.url, `/?play=e2e4&token=${TOKEN}`);
  assert.match(opened.body, new RegExp(`name="tabiya-token" content="${TOKEN}"`));
  assert.equal((await http(server.url, '/api/books')).status, 200);
});

test("on another address than loopback, Host must be an IP address or the machine's name: no DNS rebinding", async () => {
  // Not listening (inject): what a server bound to 0.0.0.0 on the machine "mybox" answers.
  const app = buildApp({ books: server.books, openings: loadOpenings(), assets: loadAssets(), token: TOKEN, loopbackOnly: false, hostNames: ['mybox'] });
  try {
    const before = readFileSync(TBK);
    for (const host of ['evil.example:8080', '127.0.0.1.evil.example', 'localhost.evil.example:80', 'mybox.evil.example']) {
      const page = await app.inject({ url: '/', headers: { host } });
      assert.equal(page.statusCode, 403, host);
      assert.ok(!page.body.includes(TOKEN), 'the token is not given away');
      assert.match(JSON.parse(page.body).error, /open the page by IP address or as "mybox"/);
      const w = await app.inject({ method: 'POST', url: '/api/move', headers: { host, origin: `http://${host}`, 'x-tabiya-token': TOKEN, 'content-type': 'application/json' }, payload: JSON.stringify({ book: 'masters.tbk', move: 'e2e4', comment: 'rebound' }) });
      assert.equal(w.statusCode, 403, host);
    }
    assert.ok(readFileSync(TBK).equals(before), 'refused writes change nothing');
    for (const host of ['192.168.1.20:8080', '[fe80::1]:8080', '10.0.0.5', 'localhost:8080', 'mybox:8080', 'MYBOX']) {
      assert.equal((await app.inject({ url: '/api/books', headers: { host } })).statusCode, 200, host);
    }
  } finally {
    await app.close();
  }
});

test('--host ::ffff:127.0.0.1 is loopback: no warning, and Host must name loopback in any of its spellings', async () => {
  for (const host of ['127.0.0.1', '127.8.9.10', '::1', 'localhost', '::ffff:127.0.0.1', '::FFFF:7f00:1']) assert.ok(isLoopback(host), host);
  for (const host of ['0.0.0.0', '::', '10.1.2.3', '::ffff:10.1.2.3', 'fe80::1', 'example.com']) assert.ok(!isLoopback(host), host);
  const s = await startServer({ books: [BIN], port: 0, host: '::ffff:127.0.0.1', token: TOKEN });
  try {
    // A browser writes the mapped address compressed (WHATWG URL): [::ffff:7f00:1].
    assert.match(s.url, /^http:\/\/\[::ffff:127\.0\.0\.1\]:\d+\/$/);
    const port = new URL(s.url).port;
    // The mapped address is 127.0.0.1 to an IPv4 client.
    const url = `http://127.0.0.1:${port}/`;
    for (const host of [`[::ffff:7f00:1]:${port}`, `[::ffff:127.0.0.1]:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      assert.equal((await http(url, '/api/books', { headers: { host } })).status, 200, host);
    }
    for (const host of ['evil.example', '127.0.0.1.evil.example', `[::ffff:a01:203]:${port}`, `mybox:${port}`]) {
      const r = await http(url, '/api/books', { headers: { host } });
      assert.equal(r.status, 403, host);
      assert.match(r.body, /is not a loopback address/);
    }
  } finally {
    await s.close();
  }
  // And from the command: no warning that other machines can read the books.
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [MAIN, 'serve', BIN, '--host', '::ffff:127.0.0.1', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  const deadline = Date.now() + 20_000;
  while (!/Ctrl-C stops it/.test(out + err) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGTERM');
  assert.equal(await exited, 0, err);
  assert.match(out, /http:\/\/\[::ffff:127\.0\.0\.1\]:\d+\//, out + err);
  assert.ok(!err.includes('warning: listening on'), err);
});

test('byHand: true only for a move the book holds through its notes, not for one of games or of an imported .bin', async () => {
  // A .tbk imported from the .bin: its moves have weights and no games.
  const imported = join(tmp, 'imported.tbk');
  assert.equal(tabiya(['book', 'import', BIN, '-o', imported]).code, 0);
  for (const [book, move] of [
    [imported, 'e2e4'],
    [imported, 'h2h4'],
    [TBK, 'g2g4'],
  ] as const) {
    const r = tabiya(['book', 'set', book, '--move', move, '--value', '50']);
    assert.equal(r.code, 0, r.stderr);
  }
  const s = await startServer({ books: [imported, TBK, BIN], port: 0, host: '127.0.0.1', token: TOKEN });
  try {
    for (const [book, hand] of [
      ['imported.tbk', ['h2h4']],
      ['masters.tbk', ['g2g4']],
      ['masters.bin', []],
    ] as const) {
      const moves = (await explore(`book=${book}`, s.url)).json.moves as { uci: string; byHand: boolean; white: number; weight: number }[];
      assert.ok(moves.length > 5 && moves.every((m) => typeof m.byHand === 'boolean'), book);
      assert.deepEqual(moves.filter((m) => m.byHand).map((m) => m.uci), hand, `${book}: the moves added by hand`);
    }
  } finally {
    await s.close();
    for (const move of ['g2g4']) assert.equal(tabiya(['book', 'set', TBK, '--move', move, '--value', 'clear']).code, 0);
  }
});

test('edits: user value, NAG, comment, forbidden; add and remove a move; they survive a restart', async () => {
  const e4 = { book: 'masters.tbk', play: 'e2e4' };
  let r = await write('/api/move', { ...e4, move: 'c5', userValue: 77, nag: 1, comment: 'the Sicilian\nDefence', forbidden: false });
  assert.equal(r.status, 200, r.body);
  assert.deepEqual(r.json, { ok: true, added: false });
  r = await write('/api/move', { ...e4, move: 'e7e5', forbidden: true });
  assert.equal(r.status, 200, r.body);
  r = await write('/api/move', { ...e4, move: 'a7a6', userValue: 5 });
  assert.equal(r.status, 200);
  const check = async (url: string): Promise<void> => {
    const moves = (await explore('book=masters.tbk&play=e2e4', url)).json.moves as { uci: string; userValue: number | null; nag: number | null; comment: string | null; forbidden: boolean }[];
    const c5 = moves.find((m) => m.uci === 'c7c5')!;
    assert.deepEqual([c5.userValue, c5.nag, c5.comment, c5.forbidden], [77, 1, 'the Sicilian Defence', false]);
    assert.equal(moves.find((m) => m.uci === 'e7e5')!.forbidden, true);
    assert.equal(moves.find((m) => m.uci === 'a7a6')!.userValue, 5);
  };
  await check(server.url);
  // The file says the same to the CLI.
  const probe = JSON.parse(tabiya(['book', 'probe', TBK, '--moves', 'e4', '--json']).stdout) as { moves: { uci: string; userValue: number | null; comment: string | null }[] };
  assert.deepEqual(probe.moves.filter((m) => m.uci === 'c7c5').map((m) => [m.userValue, m.comment]), [[77, 'the Sicilian Defence']]);
  // A restart of the server keeps every change.
  await server.close();
  server = await startServer({ books: [TBK, BIN], port: 0, host: '127.0.0.1', token: TOKEN });
  await check(server.url);
  // A move of no game can be added and removed; one with games cannot be removed.
  const start = { book: 'masters.tbk', fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' };
  r = await write('/api/move', { ...start, move: 'h2h4', userValue: 3, comment: 'a joke' });
  assert.deepEqual(r.json, { ok: true, added: true });
  assert.ok(((await explore('book=masters.tbk')).json.moves as { uci: string }[]).some((m) => m.uci === 'h2h4'));
  r = await write('/api/move/remove', { ...start, move: 'h4' });
  assert.equal(r.status, 200, r.body);
  assert.ok(!((await explore('book=masters.tbk')).json.moves as { uci: string }[]).some((m) => m.uci === 'h2h4'));
  const bytes = readFileSync(TBK);
  r = await write('/api/move/remove', { ...start, move: 'e2e4' });
  assert.equal(r.status, 409);
  assert.match(r.json.error ?? '', /played in \d+ games of the book: mark it forbidden instead/);
  // Bad edits change nothing: an illegal move, a .bin, an empty change, a new move with an
  // empty note (it would not be kept: not "added").
  for (const [body, status] of [
    [{ ...start, move: 'e2e5', userValue: 1 }, 400],
    [{ ...start, move: 'h2h4', userValue: null, nag: null, comment: null, forbidden: false }, 400],
    [{ book: 'masters.bin', move: 'e2e4', userValue: 1 }, 409],
    [{ ...start, move: 'e2e4' }, 400],
    [{ ...start, move: 'e2e4', nag: -1 }, 400],
  ] as const) {
    r = await write('/api/move', body);
    assert.equal(r.status, status, JSON.stringify(body));
    assert.ok(typeof r.json.error === 'string');
  }
  // The error speaks the notation the move was written in.
  r = await write('/api/move', { ...start, move: 'Ke2', userValue: 1 });
  assert.match(r.json.error ?? '', /^move: illegal move "Ke2"/);
  r = await write('/api/move', { ...start, move: 'h2h4', comment: null });
  assert.match(r.json.error ?? '', /^h4 is added with a note: give it a user value/);
  assert.deepEqual(readFileSync(TBK), bytes, 'refused edits leave the book byte for byte');
});

test('a book locked by another process: an edit waits briefly, then 503, and nothing changes', async () => {
  const lock = `${TBK}.lock`;
  (await import('node:fs')).writeFileSync(lock, `${process.pid}\n`);
  const bytes = readFileSync(TBK);
  try {
    // The lock is ours and never released: the 503 shows the edit gave up its wait. How long it
    // waits is the promise (docs/serve.md: up to 2 s; the wait holds the whole server, library.ts
    // EDIT_LOCK), and only the clock shows it: the bound is fifteen times that wait, so that a
    // far longer one fails (once it ends) and a loaded machine does not.
    const r = await settlesWithin('an edit of a locked book', 30_000, write('/api/move', { book: 'masters.tbk', move: 'e2e4', userValue: 9 }));
    assert.equal(r.status, 503);
    assert.match(r.json.error ?? '', new RegExp(`locked by process ${process.pid}\\b`));
    assert.deepEqual(readFileSync(TBK), bytes);
  } finally {
    rmSync(lock, { force: true });
  }
});

test('--read-only refuses every write, with the token too', async () => {
  const copy = join(tmp, 'ro.tbk');
  copyFileSync(TBK, copy);
  const ro = await startServer({ books: [copy], port: 0, host: '127.0.0.1', token: TOKEN, readOnly: true });
  try {
    const r = await write('/api/move', { move: 'e2e4', userValue: 1 }, { 'x-tabiya-token': TOKEN }, ro.url);
    assert.equal(r.status, 403);
    assert.match(r.json.error ?? '', /read-only/);
    assert.deepEqual(readFileSync(copy), readFileSync(TBK));
    const books = await http(ro.url, '/api/books');
    assert.deepEqual(books.json, { books: [{ id: 'ro.tbk', format: 'tbk', version: 2, editable: false }], readOnly: true });
    assert.equal((await explore('play=e2e4', ro.url)).status, 200, 'one book: book= may be left out');
  } finally {
    await ro.close();
  }
});

test('the command: prints the URL, refuses a busy port, stops cleanly on SIGTERM', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [MAIN, 'serve', TBK, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const deadline = Date.now() + 20_000;
  while (!/http:\/\/127\.0\.0\.1:\d+\//.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0];
  assert.ok(url !== undefined, out + err);
  assert.equal((await explore('play=e2e4', url)).status, 200);
  const port = new URL(url).port;
  const busy = tabiya(['serve', TBK, '--port', port]);
  assert.equal(busy.code, 1);
  assert.match(busy.stderr, new RegExp(`--port ${port}: the port is in use`));
  // A connection that never carries a request (a browser opens some ahead of need) must not
  // hold the stop: the server ends it.
  const idle = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => idle.once('connect', resolve));
  const idleEnded = new Promise((resolve) => idle.once('close', resolve));
  idle.on('error', () => {});
  const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  child.kill('SIGTERM');
  const code = await settlesWithin('the server stopping on SIGTERM with an unused connection open', 20_000, exited, () => {
    child.kill('SIGKILL');
    return 'killed';
  });
  await idleEnded;
  assert.equal(code, 0, err);
  assert.match(err, /stopped/);
  const missing = tabiya(['serve', join(tmp, 'missing.tbk'), '--port', '0']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /missing\.tbk/);
});

test('the command: Ctrl-C and SIGTERM stop it cleanly (exit 0) after an import too', { timeout: 120_000 }, async () => {
  const { spawn } = await import('node:child_process');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const copy = join(tmp, `stop-${signal}.tbk`);
    copyFileSync(TBK, copy);
    // TABIYA_SERVE_TOKEN chooses the token (a script driving the API); the address carries it.
    const child = spawn(process.execPath, [MAIN, 'serve', copy, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TABIYA_SERVE_TOKEN: `env-${signal}` } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | string | null>((resolve) => child.on('exit', (c, sig) => resolve(c ?? sig)));
    const deadline = Date.now() + 20_000;
    while (!/http:\/\/127\.0\.0\.1:\d+\//.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0];
    assert.ok(url !== undefined, out + err);
    // The token is in the address the server printed, not in a page opened without it.
    const token = /http:\/\/127\.0\.0\.1:\d+\/\?token=(\S+) /.exec(out)?.[1];
    assert.equal(token, `env-${signal}`, out);
    assert.match((await http(url, '/')).body, /name="tabiya-token" content=""/);
    const games = '[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n';
    const r = await http(url, `/api/import?book=stop-${signal}.tbk`, { method: 'POST', body: games, headers: { 'content-type': 'application/x-chess-pgn', 'x-tabiya-token': token } });
    assert.equal(r.status, 202, r.body);
    let job: { finished: boolean; error?: string } = { finished: false };
    for (let i = 0; i < 400 && !job.finished; i++) {
      await new Promise((res) => setTimeout(res, 50));
      job = (await http(url, '/api/import')).json as typeof job;
    }
    assert.ok(job.finished && job.error === undefined, JSON.stringify(job));
    // The import's temporary directory installed the temporary files' signal handler after the
    // server's own; the server's stop removed its handler first, and that one, alone, ended the
    // process by the signal (130, 143) before the server closed.
    child.kill(signal);
    const code = await settlesWithin(`the server stopping on ${signal} after an import`, 20_000, exited, () => {
      child.kill('SIGKILL');
      return 'killed';
    });
    assert.equal(code, 0, `${signal}: ${err}`);
    assert.match(err, /tabiya serve: stopped/);
  }
});

test('with no book named, serve builds the bundled book once, says so, and serves it', { timeout: 120_000 }, async () => {
  // A copy of the package in which data/tabiya.bin is missing, as after `npm ci` on a fresh clone
  // (the README's first command): the compiled code and the bundled data but for the book.
  const { cpSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } = await import('node:fs');
  const { spawn } = await import('node:child_process');
  const repo = fileURLToPath(new URL('../../', import.meta.url));
  const root = join(tmp, 'fresh');
  mkdirSync(join(root, 'data'), { recursive: true });
  cpSync(join(repo, 'dist'), join(root, 'dist'), { recursive: true });
  copyFileSync(join(repo, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  for (const f of readdirSync(join(repo, 'data'))) if (f !== 'tabiya.bin') symlinkSync(join(repo, 'data', f), join(root, 'data', f));
  const book = join(root, 'data', 'tabiya.bin');
  const start = async (): Promise<{ url: string; err: string; stop(): Promise<number | null> }> => {
    const child = spawn(process.execPath, [join(root, 'dist/src/cli/main.js'), 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    const deadline = Date.now() + 90_000;
    while (!/http:\/\/127\.0\.0\.1:\d+\//.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0];
    if (url === undefined) child.kill('SIGKILL');
    assert.ok(url !== undefined, out + err);
    assert.match(out, /\(tabiya\.bin\)/);
    return { url, err, stop: () => (child.kill('SIGTERM'), exited) };
  };
  const first = await start();
  try {
    assert.match(first.err, /no book named; building the bundled book .*data\/tabiya\.bin from .*data\/masters-2550\.pgn\.gz \(once\)/);
    const built = /built .*tabiya\.bin: (\d+) games, (\d+) entries, (\d+) bytes in [\d.]+ s/.exec(first.err);
    assert.ok(built, first.err);
    // data/README.md: 83,561 games; 16 bytes an entry.
    assert.equal(Number(built[1]), 83561);
    assert.equal(Number(built[3]), 16 * Number(built[2]));
    assert.equal(statSync(book).size, Number(built[3]));
    const r = await explore('', first.url);
    assert.equal(r.status, 200);
    const sans = (r.json.moves as { san: string }[]).map((m) => m.san);
    for (const san of ['e4', 'd4', 'Nf3', 'c4']) assert.ok(sans.includes(san), sans.join(' '));
  } finally {
    assert.equal(await first.stop(), 0);
  }
  // The book is what `tabiya book make` writes with the options docs/books.md gives for it.
  const same = tabiya(['book', 'make', join(repo, 'data/masters-2550.pgn.gz'), '-o', join(tmp, 'default.bin'), '--max-ply', '30', '--min-games', '5', '--quiet']);
  assert.equal(same.code, 0, same.stderr);
  assert.deepEqual(readFileSync(book), readFileSync(join(tmp, 'default.bin')));
  // The copy in git (a fresh clone serves it without building) is that book too.
  assert.deepEqual(readFileSync(join(repo, 'data/tabiya.bin')), readFileSync(book), 'data/tabiya.bin is the book its games and options make');
  // The second start serves the book it finds.
  const mtime = statSync(book).mtimeMs;
  const second = await start();
  assert.equal(await second.stop(), 0);
  assert.doesNotMatch(second.err, /building|built/);
  assert.equal(statSync(book).mtimeMs, mtime);
  assert.deepEqual(readdirSync(join(root, 'data')).filter((f) => !existsSync(join(repo, 'data', f)) && f !== 'tabiya.bin'), [], 'no temporary file left');
});

test('export: the whole book as book export writes it, a subtree as .bin and as PGN that pgn-extract reads', async () => {
  const whole = await httpBytes(server.url, '/api/export?book=masters.tbk&format=bin&whole=true');
  assert.equal(whole.status, 200);
  const cli = tabiya(['book', 'export', TBK, '-o', join(tmp, 'cli.bin'), '--force']);
  assert.equal(cli.code, 0, cli.stderr);
  assert.deepEqual(whole.bytes, readFileSync(join(tmp, 'cli.bin')));
  const binWhole = await httpBytes(server.url, '/api/export?book=masters.bin&format=bin&whole=true');
  assert.deepEqual(binWhole.bytes, readFileSync(BIN));
  // The subtree after 1.e4 c5 as .bin: its moves there are the explorer's, with the same weights.
  const sub = await httpBytes(server.url, '/api/export?book=masters.tbk&format=bin&play=e2e4,c7c5&depth=4');
  assert.equal(sub.status, 200);
  const subPath = join(tmp, 'sub.bin');
  (await import('node:fs')).writeFileSync(subPath, sub.bytes);
  const probed = JSON.parse(tabiya(['book', 'probe', subPath, '--moves', 'e4 c5', '--json']).stdout) as { moves: { uci: string; weight: number }[] };
  const explored = (await explore('book=masters.tbk&play=e2e4,c7c5')).json.moves as { uci: string; weight: number }[];
  assert.deepEqual(
    probed.moves.map((m) => [m.uci, m.weight]).sort(),
    explored.filter((m) => m.weight > 0).map((m) => [m.uci, m.weight]).sort(),
  );
  assert.equal(JSON.parse(tabiya(['book', 'probe', subPath, '--json']).stdout).moves.length, 0, 'nothing above the subtree');
  // A NAG set on a move goes out with it, before its comment (PGN standard 8.2.4).
  assert.equal((await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'b1c3', nag: 5, comment: 'closed' })).status, 200);
  const pgn = await http(server.url, '/api/export?book=masters.tbk&format=pgn&play=e2e4,c7c5&depth=5');
  assert.equal(pgn.status, 200);
  // The opening 2.Nc3 reaches is named first, in a comment of its own; the move's comment follows.
  assert.match(pgn.body, /\(2\. Nc3 \$5 \{B23 Sicilian Defense: Closed\}\s\{closed\}/);
  assert.match(pgn.body, /\[FEN "rnbqkbnr\/pp1ppppp\/8\/2p5\/4P3\/8\/PPPP1PPP\/RNBQKBNR w KQkq - 0 2"\]/);
  assert.match(pgn.body, /^2\. Nf3 /m);
  assert.ok(pgn.body.split('\n').every((l) => l.length <= 79), 'export format: lines of at most 79 characters');
  // Tagged with the opening of the main line's deepest named position, as book probe names the line's end.
  const exported = readGames(pgn.body).games[0]!;
  const mainLine = exported.moves.map((n) => n.san).join(' ');
  const named = JSON.parse(tabiya(['book', 'probe', TBK, '--moves', `e4 c5 ${mainLine}`, '--json']).stdout).opening as { eco: string; name: string };
  assert.ok(named !== null && named.name.startsWith('Sicilian Defense'), mainLine);
  assert.deepEqual(['ECO', 'Opening'].map((t) => exported.tags.find(([n]) => n === t)?.[1]), [named.eco, named.name], mainLine);
  const file = join(tmp, 'sub.pgn');
  (await import('node:fs')).writeFileSync(file, pgn.body);
  const stats = tabiya(['pgn', 'stats', file, '--json', '--strict']);
  assert.equal(stats.code, 0, stats.stdout + stats.stderr);
  const pgnExtract = '/usr/games/pgn-extract';
  if ((await import('node:fs')).existsSync(pgnExtract)) {
    // Every variation replays legally: pgn-extract checks them all and keeps the game.
    const r = spawnSync(pgnExtract, ['--quiet', '-s', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\[Event "tabiya book masters.tbk"\]/);
    assert.doesNotMatch(r.stderr, /illegal|unknown move|error/i);
  }
  assert.equal((await http(server.url, '/api/export?book=masters.tbk&format=zip')).status, 400);
  assert.equal((await http(server.url, '/api/export?book=masters.tbk&format=pgn&depth=99')).status, 400);
  assert.equal((await http(server.url, '/api/export?book=masters.tbk&format=pgn&side=both')).status, 400);
});

test("export of a repertoire for one side: the side's chosen move only, every book reply of the other, read back by pgn-extract and as a .bin", async () => {
  // Choose 2.Nc3 against the Sicilian (the book plays 2.Nf3 most).
  assert.equal((await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'b1c3', userValue: 100 })).status, 200);
  try {
    const pgn = await http(server.url, '/api/export?book=masters.tbk&format=pgn&play=e2e4,c7c5&depth=3&side=white');
    assert.equal(pgn.status, 200);
    assert.match(pgn.body, /^\[Event "tabiya book masters\.tbk: White repertoire"\]$/m);
    assert.match(pgn.body, /(^|\} )2\. Nc3 /m, pgn.body.slice(0, 600));
    assert.doesNotMatch(pgn.body, /(^|[ (])2\. Nf3 /m);
    // Black's replies to 2.Nc3 are all the book's, each answered by one White move.
    const replies = ((await explore('book=masters.tbk&play=e2e4,c7c5,b1c3')).json.moves as { san: string; weight: number; forbidden: boolean }[]).filter((m) => m.weight > 0 && !m.forbidden);
    assert.ok(replies.length >= 3, `${replies.length} replies`);
    const { games, errors } = readGames(pgn.body);
    assert.deepEqual([games.length, errors.length], [1, 0]);
    const [nc3, reply, answer] = games[0]!.moves;
    assert.deepEqual([nc3!.san, nc3!.variations], ['Nc3', undefined], 'the chosen move is the only White move here');
    const lines = [[reply!, answer!], ...(reply!.variations ?? [])];
    assert.deepEqual(lines.map((l) => l[0]!.san), replies.map((m) => m.san), "every book reply of Black's, most played first");
    for (const l of lines) assert.ok(l[1] !== undefined && l[1].variations === undefined, `one White answer to 2...${l[0]!.san}`);
    const file = join(tmp, 'rep.pgn');
    writeFileSync(file, pgn.body);
    if (existsSync('/usr/games/pgn-extract')) {
      const r = spawnSync('/usr/games/pgn-extract', ['--quiet', '-s', file], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /illegal|unknown move|error/i);
    }
    const bin = await httpBytes(server.url, '/api/export?book=masters.tbk&format=bin&play=e2e4,c7c5&depth=3&side=white');
    const binPath = join(tmp, 'rep.bin');
    writeFileSync(binPath, bin.bytes);
    const probed = JSON.parse(tabiya(['book', 'probe', binPath, '--moves', 'e4 c5', '--json']).stdout) as { moves: { uci: string }[] };
    assert.deepEqual(probed.moves.map((m) => m.uci), ['b1c3'], 'the .bin plays only the chosen move');
  } finally {
    assert.equal((await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'b1c3', userValue: null })).status, 200);
  }
});

function httpBytes(url: string, path: string): Promise<{ status: number; bytes: Buffer }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: u.hostname, port: u.port, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

test('import: PGN games counted into the open .tbk with progress, broken ones skipped; notes kept', async () => {
  const before = (await explore('book=masters.tbk&play=e2e4,e7e5,g1f3')).json.moves as { uci: string; white: number; draws: number; black: number }[];
  const games = [
    '[Event "a"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n',
    '[Event "b"]\n[White "A"]\n[Black "B"]\n[Result "0-1"]\n\n1. e4 e5 2. Nf3 Nf6 0-1\n',
    '[Event "broken"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n',
  ].join('\n');
  // The PGN's copy left in the temporary directory by a server killed during an import (kill -9).
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  const stale = join(tmpdir(), `tabiya-serve-import-${dead}-x0x0x0`);
  mkdirSync(stale);
  writeFileSync(join(stale, 'import.pgn'), games);
  const r = await http(server.url, '/api/import?book=masters.tbk', { method: 'POST', body: games, headers: { 'content-type': 'application/x-chess-pgn', 'x-tabiya-token': TOKEN } });
  assert.equal(r.status, 202, r.body);
  let job: { finished: boolean; error?: string; writing?: { done: number; total: number }; result?: { gamesUsed: number; gamesSkipped: number; errors: string[] } } = { finished: false };
  for (let i = 0; i < 200 && !job.finished; i++) {
    await new Promise((res) => setTimeout(res, 50));
    job = (await http(server.url, '/api/import')).json as typeof job;
  }
  assert.equal(job.error, undefined);
  assert.deepEqual([job.result?.gamesUsed, job.result?.gamesSkipped], [2, 1]);
  // The book's writing, most of an import into a big book, has its own progress.
  assert.ok(job.writing !== undefined && job.writing.total > 0 && job.writing.done > 0, JSON.stringify(job));
  assert.equal(existsSync(stale), false, "a dead server's import copy is removed by the next import");
  assert.deepEqual(readdirSync(tmpdir()).filter((n) => n.startsWith(`tabiya-serve-import-${process.pid}@`) || n.startsWith(`tabiya-serve-import-${process.pid}-`)), [], 'and ours when it has finished');
  assert.match(job.result!.errors[0]!, /line \d+: .*Ke3/);
  const after = (await explore('book=masters.tbk&play=e2e4,e7e5,g1f3')).json.moves as typeof before;
  const count = (l: typeof before, uci: string): number[] => {
    const m = l.find((x) => x.uci === uci);
    return m === undefined ? [0, 0, 0] : [m.white, m.draws, m.black];
  };
  assert.deepEqual(count(after, 'b8c6'), count(before, 'b8c6').map((n, i) => n + (i === 0 ? 1 : 0)));
  assert.deepEqual(count(after, 'g8f6'), count(before, 'g8f6').map((n, i) => n + (i === 2 ? 1 : 0)));
  // The notes set earlier are still there.
  const e4 = (await explore('book=masters.tbk&play=e2e4')).json.moves as { uci: string; userValue: number | null }[];
  assert.equal(e4.find((m) => m.uci === 'c7c5')!.userValue, 77);
  const bin = await http(server.url, '/api/import?book=masters.bin', { method: 'POST', body: games, headers: { 'content-type': 'text/plain', 'x-tabiya-token': TOKEN } });
  assert.equal(bin.status, 409);
  const noToken = await http(server.url, '/api/import?book=masters.tbk', { method: 'POST', body: games, headers: { 'content-type': 'text/plain' } });
  assert.equal(noToken.status, 403);
  // A file with no game: the error names the file as the user knows it, not the server's copy.
  const junk = await http(server.url, '/api/import?book=masters.tbk&name=notes.txt', { method: 'POST', body: 'just some notes\n', headers: { 'content-type': 'text/plain', 'x-tabiya-token': TOKEN } });
  assert.equal(junk.status, 202, junk.body);
  job = { finished: false };
  for (let i = 0; i < 200 && !job.finished; i++) {
    await new Promise((res) => setTimeout(res, 50));
    job = (await http(server.url, '/api/import')).json as typeof job;
  }
  assert.match(job.error ?? '', /^notes\.txt: no readable game/);
  // The server's temporary directory unusable (full, or here not a directory): said as such,
  // naming the file and the directory, and the book is left as it was.
  const kept = readFileSync(TBK);
  const tmpBefore = process.env.TMPDIR;
  process.env.TMPDIR = TBK;
  try {
    const nowhere = await http(server.url, '/api/import?book=masters.tbk&name=games.pgn', { method: 'POST', body: games, headers: { 'content-type': 'text/plain', 'x-tabiya-token': TOKEN } });
    assert.equal(nowhere.status, 202, nowhere.body);
    job = { finished: false };
    for (let i = 0; i < 200 && !job.finished; i++) {
      await new Promise((res) => setTimeout(res, 50));
      job = (await http(server.url, '/api/import')).json as typeof job;
    }
  } finally {
    if (tmpBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpBefore;
  }
  assert.equal(job.error, `games.pgn: cannot write the import's copy in ${TBK}: not a directory (the server's temporary directory: TMPDIR chooses it)`);
  assert.ok(readFileSync(TBK).equals(kept));
});

test('import: the file\'s bytes as the page sends them: Windows-1252 names, gzip and a last game without a newline are read; UTF-16 and binary data are refused in the command line\'s words', async () => {
  const game = (white: string, moves: string, result: string): string => `[Event "x"]\r\n[White "${white}"]\r\n[Black "Wałęsa"]\r\n[Result "${result}"]\r\n\r\n${moves} ${result}`;
  const text = `${game('Müller', '1. e4 e5 2. Nf3 Nc6', '1-0')}\r\n\r\n${game('José', '1. e4 e5 2. Nf3 Nf6', '0-1')}`;
  const run = async (name: string, body: Buffer | string, type = 'application/x-chess-pgn'): Promise<{ status: number; job: { finished: boolean; games?: number; error?: string; result?: { gamesUsed: number; gamesSkipped: number } } }> => {
    const r = await http(server.url, `/api/import?book=masters.tbk&name=${name}`, { method: 'POST', body, headers: { 'content-type': type, 'x-tabiya-token': TOKEN } });
    let job: { finished: boolean } = { finished: r.status !== 202 };
    for (let i = 0; i < 400 && !job.finished; i++) {
      await new Promise((res) => setTimeout(res, 50));
      job = (await http(server.url, '/api/import')).json as typeof job;
    }
    return { status: r.status, job };
  };
  // Windows-1252 (a ChessBase export: é, ü as single bytes), no newline after the last game.
  const cp = Buffer.from(text.replace('ł', 'l').replace('ę', 'e'), 'latin1');
  for (const [name, body] of [['games.pgn', cp], ['games.pgn.gz', gzipSync(cp)], ['renamed.pgn', gzipSync(cp)]] as const) {
    const { status, job } = await run(name, body);
    assert.equal(status, 202, name);
    assert.equal(job.error, undefined, name);
    assert.deepEqual([job.result?.gamesUsed, job.result?.gamesSkipped, job.games], [2, 0, 2], `${name}: both games read, and the last report counts the last game`);
  }
  // UTF-16 (Windows Notepad's "Unicode") and a binary file: one clear error, as the command line says it.
  const utf16 = await run('notepad.pgn', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  assert.equal(utf16.job.error, 'notepad.pgn:1: UTF-16 text, not PGN text (save it as UTF-8)');
  const binary = await run('book.bin', Buffer.from([0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0, 0, 3, 0x1c, 0, 1, 0, 0]));
  assert.match(binary.job.error ?? '', /^book\.bin:1: binary data \(a NUL byte at byte 9\), not PGN text$/);
  // Text sent as text (curl --data-binary with text/plain) still imports.
  const plain = await run('plain.pgn', text, 'text/plain');
  assert.deepEqual([plain.job.result?.gamesUsed, plain.job.error], [2, undefined]);
});

test('a Chess960 position of a .tbk: castling is listed king-takes-rook, as for a .bin, not as the king step it is not', async () => {
  const fen = 'rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1';
  const one = (moves: string, result: string): string => `[Variant "Chess960"] [FEN "${fen}"] [Result "${result}"]\n1. ${moves} ${result}\n\n`;
  writeFileSync(join(tmp, 'c960.pgn'), one('O-O-O Kc8', '1-0') + one('Kc1 Kc8', '0-1'));
  const path = join(tmp, 'c960.tbk');
  assert.equal(tabiya(['book', 'make', 'c960.pgn', '-o', path, '--quiet']).code, 0);
  const book = await ServedBook.open('c960.tbk', path, {});
  try {
    const start = positionFromFen(fen);
    assert.ok(start.ok);
    const moves = (await book.moves(start.value, policyOf(undefined))).map((m) => m.uci).sort();
    assert.deepEqual(moves, ['b1a1', 'b1c1']);
    // The PGN export of the subtree says Chess960, so its castling is read as such.
    const tree = await walkSubtree((p, c) => book.moves(p, c), start.value, policyOf(undefined), 2, 100);
    const pgn = subtreePgn(tree, start.value, 'c960.tbk');
    assert.match(pgn, /\[Variant "Chess960"\]\n\[SetUp "1"\]\n\[FEN "rk5r\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/RK5R w KQkq - 0 1"\]/);
    assert.match(pgn, /O-O-O/);
  } finally {
    await book.close();
  }
});

/** The first `bytes` of the big master-game collection (cut after a whole game): an import that runs for a while. */
async function bigPgn(bytes: number): Promise<Buffer> {
  const { createReadStream } = await import('node:fs');
  const { createGunzip } = await import('node:zlib');
  const source = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = createReadStream(source).pipe(createGunzip());
  for await (const c of stream as AsyncIterable<Buffer>) {
    chunks.push(c);
    size += c.length;
    if (size >= bytes) break;
  }
  stream.destroy();
  const text = Buffer.concat(chunks).subarray(0, bytes);
  return text.subarray(0, text.lastIndexOf('\n[Event ') + 1);
}

/** Polls the import job until `ready` says so (its progress, not a time). */
async function importReaches(url: string, ready: (j: { done: number; finished: boolean }) => boolean): Promise<{ done: number; finished: boolean }> {
  for (;;) {
    const j = (await http(url, '/api/import')).json as unknown as { done: number; finished: boolean };
    if (ready(j) || j.finished) return j;
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('import: a server stopped (SIGINT, SIGTERM, close) while an import runs cancels it, says so, and leaves the book and no temporary file', { timeout: 180_000 }, async () => {
  const { spawn } = await import('node:child_process');
  const pgn = await bigPgn(30_000_000);
  const dir = join(tmp, 'cancel');
  const scratch = join(dir, 'tmp');
  mkdirSync(scratch, { recursive: true });
  const book = join(dir, 'cancel.tbk');
  copyFileSync(TBK, book);
  const original = readFileSync(book);
  const post = (url: string, token: string): Promise<Reply> => http(url, '/api/import?book=cancel.tbk&name=big.pgn', { method: 'POST', body: pgn, headers: { 'content-type': 'application/x-chess-pgn', 'x-tabiya-token': token } });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const child = spawn(process.execPath, [MAIN, 'serve', book, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: scratch } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | string | null>((resolve) => child.on('exit', (c, sig) => resolve(c ?? sig)));
    const deadline = Date.now() + 20_000;
    while (!/http:\/\/127\.0\.0\.1:\d+\//.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0];
    assert.ok(url !== undefined, out + err);
    // The token is in the address the server printed, not in a page opened without it.
    const token = /http:\/\/127\.0\.0\.1:\d+\/\?token=(\S+) /.exec(out)?.[1];
    assert.ok(token !== undefined, out);
    assert.match((await http(url, '/')).body, /name="tabiya-token" content=""/);
    const r = await post(url, token);
    assert.equal(r.status, 202, r.body);
    const j = await importReaches(url, (s) => s.done > 0);
    assert.equal(j.finished, false, 'the import is still running');
    child.kill(signal);
    const code = await settlesWithin(`the server stopping on ${signal} during an import`, 30_000, exited, () => {
      child.kill('SIGKILL');
      return 'killed';
    });
    assert.equal(code, 0, `${signal}: ${err}`);
    assert.match(err, /^tabiya serve: the import of big\.pgn into cancel\.tbk was cancelled: the server stopped before it finished; nothing was written to the book$/m, err);
    assert.doesNotMatch(err, /process is ending/);
    assert.ok(readFileSync(book).equals(original), `${signal}: the book is as it was`);
    assert.deepEqual(readdirSync(dir).sort(), ['cancel.tbk', 'tmp'], `${signal}: no temporary file or lock beside the book`);
    assert.deepEqual(readdirSync(scratch), [], `${signal}: the import's copy of the PGN is removed`);
  }
  // In the process: the job says it was cancelled, and close() says what to tell the operator.
  const s = await startServer({ books: [book], port: 0, host: '127.0.0.1', token: TOKEN });
  const open = new Set<RunningServer>([s]);
  try {
    const r = await post(s.url, TOKEN);
    assert.equal(r.status, 202, r.body);
    assert.equal((await importReaches(s.url, (x) => x.done > 0)).finished, false);
    // What close() does first; a page polling then reads the job's end.
    assert.equal(await stopImport(s.app), 'the import of big.pgn into cancel.tbk was cancelled: the server stopped before it finished; nothing was written to the book');
    const job = (await http(s.url, '/api/import')).json;
    assert.deepEqual([job.finished, job.cancelled, job.error], [true, true, 'cancelled: the server was stopped before the import of big.pgn finished; nothing was written to cancel.tbk']);
    open.delete(s);
    assert.deepEqual(await s.close(), {}, 'nothing more to cancel');
    // And close() itself cancels an import, saying what to tell the operator.
    const s2 = await startServer({ books: [book], port: 0, host: '127.0.0.1', token: TOKEN });
    open.add(s2);
    assert.equal((await post(s2.url, TOKEN)).status, 202);
    assert.equal((await importReaches(s2.url, (x) => x.done > 0)).finished, false);
    open.delete(s2);
    assert.match((await s2.close()).importCancelled ?? '', /^the import of big\.pgn into cancel\.tbk was cancelled/);
    assert.ok(readFileSync(book).equals(original), 'the book is as it was');
    assert.deepEqual(readdirSync(dir).sort(), ['cancel.tbk', 'tmp'], 'no temporary file or lock beside the book');
    assert.deepEqual(readdirSync(tmpdir()).filter((f) => f.startsWith(`tabiya-serve-import-${process.pid}@`)), [], "the import's copy of the PGN is removed");
  } finally {
    // A failed assertion must not leave a server (and its import) holding the test run open.
    for (const o of open) await o.close();
  }
});

test('a comment holding the export\'s own [%tabiya …] markup is refused: book annotate --notes would read it back as a user value', async () => {
  const q = 'book=masters.tbk&play=e2e4,c7c5';
  assert.equal((await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'b1c3', comment: 'closed' })).status, 200);
  for (const comment of ['[%tabiya value=0 forbidden]', 'see [%TABIYA value=3]']) {
    const r = await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'b1c3', comment });
    assert.equal(r.status, 400, r.body);
    assert.match(r.json.error as string, /^comment: \[%tabiya …\] cannot be kept/);
  }
  const c3 = ((await explore(q)).json.moves as { uci: string; comment: string | null; forbidden: boolean }[]).find((m) => m.uci === 'b1c3');
  assert.equal(c3?.comment, 'closed', 'the book keeps the comment it had');
  assert.equal(c3?.forbidden, false);
  // Other bracketed commands (lichess's [%clk], [%eval]) and a [%tabiyaX] are plain text.
  assert.equal((await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'b1c3', comment: 'was [%eval 0.3] [%tabiyas]' })).status, 200);
});

test('a comment with a } is refused: a PGN comment ends at its first }, so the PGN export could not carry it and reading it back would change it', async () => {
  const q = 'book=masters.tbk&play=e2e4,c7c5';
  const set = await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'g1f3', comment: 'the main line (2...d6)' });
  assert.equal(set.status, 200, set.body);
  const r = await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'g1f3', comment: 'a {braced} note' });
  assert.equal(r.status, 400, r.body);
  assert.equal(r.json.error, "comment: a } cannot be kept: a PGN comment ends at its first }, so the book's PGN export could not carry it; write ) or ] instead");
  const moves = (await explore(q)).json.moves as { uci: string; comment: string | null }[];
  assert.equal(moves.find((m) => m.uci === 'g1f3')?.comment, 'the main line (2...d6)', 'the book keeps the comment it had');
  // A { alone is fine in a comment, and comes back through the PGN export as written.
  assert.equal((await write('/api/move', { book: 'masters.tbk', play: 'e2e4,c7c5', move: 'g1f3', comment: 'see {the Open' })).status, 200);
  const pgn = (await http(server.url, '/api/export?book=masters.tbk&format=pgn&play=e2e4,c7c5&depth=1')).body;
  assert.match(pgn, /Nf3 \{[^}]*\} \{see \{the Open\}/);
  const back = readGames(pgn).games[0]!;
  assert.ok(JSON.stringify(back).includes('see {the Open'), 'read back as written');
});

test('the printed address names the machine when the server listens on every address (0.0.0.0, ::), which no browser elsewhere can open', () => {
  assert.equal(addressToOpen('0.0.0.0', 'Studio'), 'studio');
  assert.equal(addressToOpen('::', 'studio'), 'studio');
  assert.equal(addressToOpen('127.0.0.1', 'studio'), '127.0.0.1');
  assert.equal(addressToOpen('192.168.1.20', 'studio'), '192.168.1.20');
  assert.equal(addressToOpen('::1', 'studio'), '[::1]');
  assert.equal(addressToOpen('fe80::1', 'studio'), '[fe80::1]');
  assert.equal(addressToOpen('chess.example', 'studio'), 'chess.example');
});
