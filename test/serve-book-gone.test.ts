/**
 * `tabiya serve` editing a book whose file was removed, renamed or replaced after the server
 * opened it: the edit, the removal and the import are refused as edits the book cannot take
 * (409), naming the book, and nothing is written, neither where the file was nor elsewhere. And
 * an import's name with a control character is refused (400), the book left as it was. A real
 * server on 127.0.0.1, port 0.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../src/serve/server.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-gone-'));
const A = join(tmp, 'a.tbk');
const B = join(tmp, 'b.tbk');
const TOKEN = 'test-token';
let server: RunningServer;

function post(path: string, body: string, type = 'application/json'): Promise<{ status: number; json: { error?: string } & Record<string, unknown> }> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'POST', headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), 'x-tabiya-token': TOKEN } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PGN = '[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n';

before(async () => {
  const pgn = join(tmp, 'games.pgn');
  writeFileSync(pgn, `${PGN}\n[Result "0-1"]\n\n1. d4 d5 0-1\n`);
  const made = spawnSync(process.execPath, [MAIN, 'book', 'make', pgn, '-o', A, '--quiet'], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  copyFileSync(A, B);
  rmSync(pgn);
  server = await startServer({ books: [A, B], port: 0, host: '127.0.0.1', token: TOKEN });
});

after(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('a book whose file was renamed away: edit, removal and import get 409 naming it, and nothing is written', async () => {
  renameSync(B, join(tmp, 'moved.tbk'));
  try {
    const before = readdirSync(tmp).sort();
    const moved = readFileSync(join(tmp, 'moved.tbk'));
    for (const [path, body, type] of [
      ['/api/move', JSON.stringify({ book: 'b.tbk', move: 'e4', comment: 'lost?' }), 'application/json'],
      ['/api/move/remove', JSON.stringify({ book: 'b.tbk', move: 'h4' }), 'application/json'],
      ['/api/import?book=b.tbk&name=games.pgn', PGN, 'application/x-chess-pgn'],
    ] as const) {
      const r = await post(path, body, type);
      assert.equal(r.status, 409, `${path}: ${JSON.stringify(r.json)}`);
      assert.match(r.json.error ?? '', /^book b\.tbk: its file .*b\.tbk is gone \(removed or renamed since tabiya serve opened it\); nothing was written/, path);
    }
    assert.deepEqual(readdirSync(tmp).sort(), before, 'no file made where the book was, nor beside it');
    assert.deepEqual(readFileSync(join(tmp, 'moved.tbk')), moved);
    // The other book still takes edits.
    assert.equal((await post('/api/move', JSON.stringify({ book: 'a.tbk', move: 'e4', comment: 'here' }))).status, 200);
  } finally {
    renameSync(join(tmp, 'moved.tbk'), B);
  }
});

test('a book whose file was replaced by one that is not a book, or cut short: 409 naming it, the file left byte for byte', async () => {
  const original = readFileSync(B);
  try {
    for (const [what, bytes] of [
      ['text', Buffer.from('not a book at all\n')],
      ['cut short', original.subarray(0, original.length - 100)],
    ] as const) {
      writeFileSync(B, bytes);
      const r = await post('/api/move', JSON.stringify({ book: 'b.tbk', move: 'e4', comment: 'lost?' }));
      assert.equal(r.status, 409, `${what}: ${JSON.stringify(r.json)}`);
      assert.match(r.json.error ?? '', /^book b\.tbk: .*b\.tbk: .*\(the file was replaced or changed since tabiya serve opened it\); nothing was written$/, what);
      // An import is refused at once too, not accepted (202) to fail as a job.
      if (what === 'text') {
        const imp = await post('/api/import?book=b.tbk&name=games.pgn', PGN, 'application/x-chess-pgn');
        assert.equal(imp.status, 409, `${what}: ${JSON.stringify(imp.json)}`);
        assert.match(imp.json.error ?? '', /^book b\.tbk: .*b\.tbk: not a \.tbk book \(the file was replaced or changed since tabiya serve opened it\); nothing was written$/);
      }
      assert.deepEqual(readFileSync(B), bytes, what);
    }
  } finally {
    writeFileSync(B, original);
  }
  // Put back, the book takes the edit again.
  assert.equal((await post('/api/move', JSON.stringify({ book: 'b.tbk', move: 'e4', comment: 'back' }))).status, 200);
});

test('an import named with a control character is refused (400, the character named) and the book left as it was', async () => {
  const before = readFileSync(A);
  for (const [name, code] of [
    ['games%0A.pgn', 'U+000A'],
    ['%1B%5B31mred.pgn', 'U+001B'],
    ['a%C2%85b.pgn', 'U+0085'],
  ] as const) {
    const r = await post(`/api/import?book=a.tbk&name=${name}`, PGN, 'application/x-chess-pgn');
    assert.equal(r.status, 400, `${name}: ${JSON.stringify(r.json)}`);
    assert.match(r.json.error ?? '', new RegExp(`^name: a file name cannot hold control characters \\(${code.replace('+', '\\+')} at character \\d+`), name);
  }
  assert.deepEqual(readFileSync(A), before);
  // A name in any script, spaces included, is taken.
  const ok = await post(`/api/import?book=a.tbk&name=${encodeURIComponent('Партии 2024 ♞.pgn')}`, PGN, 'application/x-chess-pgn');
  assert.equal(ok.status, 202, JSON.stringify(ok.json));
  for (let i = 0; i < 500; i++) {
    const u = new URL(server.url);
    const job = await new Promise<{ finished: boolean; error?: string }>((resolve, reject) => {
      request({ host: u.hostname, port: u.port, path: '/api/import' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      })
        .on('error', reject)
        .end();
    });
    if (job.finished) {
      assert.equal(job.error, undefined);
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
});

test('a comment with a control character (an escape sequence, a bell) is refused (400), the book left as it was; a tab and line breaks are taken', async () => {
  const before = readFileSync(A);
  for (const [comment, code] of [
    ['\u001b[31mred', 'U+001B'],
    ['ring\u0007', 'U+0007'],
    ['a\u0085b', 'U+0085'],
  ] as const) {
    const r = await post('/api/move', JSON.stringify({ book: 'a.tbk', move: 'e4', comment }));
    assert.equal(r.status, 400, `${JSON.stringify(comment)}: ${JSON.stringify(r.json)}`);
    assert.equal(r.json.error, `comment: a control character (${code}) cannot be kept: the book's PGN export could not carry it`);
  }
  assert.deepEqual(readFileSync(A), before);
  assert.equal((await post('/api/move', JSON.stringify({ book: 'a.tbk', move: 'e4', comment: 'main\tline\r\nof the repertoire' }))).status, 200);
});
