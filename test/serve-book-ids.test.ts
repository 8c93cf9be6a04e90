/**
 * `tabiya serve` names each book by an id made from its file name: no two books served may share
 * one (a request names a book by id alone, so an edit would land in the other), even where a
 * numbered id of one file would be another file's own name. And a path the router cannot decode
 * is answered as every other error: `{"error": ...}` with the safety headers, and a method a path
 * does not take as such (405 with Allow), not as a page that does not exist. A real server on
 * 127.0.0.1, port 0, over three copies of a two-game book.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../src/serve/server.js';
import { ServedBook, bookIds, policyOf } from '../src/serve/library.js';
import { positionAfter } from './support/tbk.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-ids-'));
const A = join(tmp, 'a.tbk');
const A2 = join(tmp, 'a-2.tbk');
const XA = join(tmp, 'x', 'a.tbk');
const TOKEN = 'test-token';
let server: RunningServer;

function http(path: string, opts: { method?: string; body?: string } = {}): Promise<{ status: number; headers: Record<string, unknown>; json: { error?: string } & Record<string, unknown> }> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const headers = opts.body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(opts.body)), 'x-tabiya-token': TOKEN };
    const req = request({ host: u.hostname, port: u.port, path, method: opts.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** The comment a book file holds on 1.e4, read from the file as a new server would. */
async function commentOnE4(path: string): Promise<string | null | undefined> {
  const book = await ServedBook.open('check', path);
  try {
    return (await book.moves(positionAfter(''), policyOf(undefined))).find((m) => m.uci === 'e2e4')?.comment;
  } finally {
    await book.close();
  }
}

before(async () => {
  mkdirSync(join(tmp, 'x'));
  const pgn = join(tmp, 'games.pgn');
  writeFileSync(pgn, '[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result "0-1"]\n\n1. d4 d5 0-1\n');
  const made = spawnSync(process.execPath, [MAIN, 'book', 'make', pgn, '-o', A, '--quiet'], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  copyFileSync(A, A2);
  copyFileSync(A, XA);
  server = await startServer({ books: [A, A2, XA], port: 0, host: '127.0.0.1', token: TOKEN });
});

after(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

test('book ids: a numbered id is never another file\'s own name', () => {
  assert.deepEqual(bookIds(['a.tbk', 'x/a.tbk', 'a-2.tbk']), ['a.tbk', 'a-3.tbk', 'a-2.tbk']);
  assert.deepEqual(bookIds(['a.tbk', 'a-2.tbk', 'x/a.tbk', 'y/a-2.tbk']), ['a.tbk', 'a-2.tbk', 'a-3.tbk', 'a-2-2.tbk']);
  assert.deepEqual(bookIds(['a.tbk', 'x/a.tbk', 'y/a.tbk']), ['a.tbk', 'a-2.tbk', 'a-3.tbk']);
  assert.deepEqual(bookIds(['my book.tbk', 'my_book.tbk']), ['my_book.tbk', 'my_book-2.tbk']);
});

test('serve a.tbk a-2.tbk x/a.tbk: three ids, and an edit of a-2.tbk lands in a-2.tbk', async () => {
  const books = (await http('/api/books')).json.books as { id: string }[];
  const ids = books.map((b) => b.id);
  assert.deepEqual(ids, ['a.tbk', 'a-2.tbk', 'a-3.tbk']);
  assert.deepEqual(server.books.map((b) => b.id), ids);
  const r = await http('/api/move', { method: 'POST', body: JSON.stringify({ book: 'a-2.tbk', move: 'e4', comment: 'meant for a-2.tbk' }) });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  assert.equal(await commentOnE4(A2), 'meant for a-2.tbk');
  assert.equal(await commentOnE4(XA), null);
  assert.equal(await commentOnE4(A), null);
});

test('a path that cannot be decoded: 400 {"error"} with the safety headers, as every other error', async () => {
  for (const path of ['/%', '/assets/%E0%A4%A', '/api/explorer%zz']) {
    const r = await http(path);
    assert.equal(r.status, 400, path);
    assert.deepEqual(Object.keys(r.json), ['error'], path);
    assert.match(r.json.error!, /malformed path/, path);
    assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
  }
  const long = await http(`/assets/${'a'.repeat(150)}`);
  assert.equal(long.status, 414);
  assert.deepEqual(Object.keys(long.json), ['error']);
  // The server still answers.
  assert.equal((await http('/api/books')).status, 200);
});

test('a method a path does not take: 405 with Allow; a path that does not exist: 404', async () => {
  for (const [method, path, allow] of [
    ['PUT', '/api/move', 'POST'],
    ['GET', '/api/move', 'POST'],
    ['DELETE', '/api/books', 'GET, HEAD'],
    ['PUT', '/assets/app.js', 'GET, HEAD'],
    ['POST', '/?x=1', 'GET, HEAD'],
  ] as const) {
    const r = await http(path, { method, body: '{}' });
    assert.equal(r.status, 405, `${method} ${path}`);
    assert.equal(r.headers.allow, allow, `${method} ${path}`);
    assert.match(r.json.error!, new RegExp(`^${method} is not a method of ${path.replace(/\?.*/, '').replace(/[/.]/g, '\\$&')}: it takes ${allow}$`));
  }
  const missing = await http('/api/nothing', { method: 'PUT', body: '{}' });
  assert.equal(missing.status, 404);
  assert.match(missing.json.error!, /^no such page: PUT \/api\/nothing/);
});
