/**
 * `tabiya serve` and clients that send a body slowly or never finish it: an answer given before
 * the body has arrived (a write refused without the token, an import's name refused, a GET that
 * carries a body) closes the connection instead of reading the rest, and a request whose body
 * takes longer than the server's bound gets 408 and its connection closed. A request that sends
 * its body whole keeps its connection (keep-alive). A real server on 127.0.0.1, port 0.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { REQUEST_TIMEOUT_MS, buildApp } from '../src/serve/app.js';
import { ServedBook } from '../src/serve/library.js';
import { loadOpenings, startServer } from '../src/serve/server.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-slow-'));
const BOOK = join(tmp, 'a.tbk');
const TOKEN = 'test-token';
/** Short, so that the test of the bound does not wait Node's five minutes. */
const TEST_TIMEOUT_MS = 1000;
/** How long a test waits for the server to close a connection before it fails (a hang bound: with the fixes it closes at once, or after TEST_TIMEOUT_MS). */
const HANG_MS = 20_000;
let book: ServedBook;
let app: FastifyInstance;
let port: number;

before(async () => {
  const pgn = join(tmp, 'games.pgn');
  writeFileSync(pgn, '[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result "0-1"]\n\n1. d4 d5 0-1\n');
  const made = spawnSync(process.execPath, [MAIN, 'book', 'make', pgn, '-o', BOOK, '--quiet'], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  book = await ServedBook.open('a.tbk', BOOK);
  app = buildApp({ books: [book], openings: loadOpenings(), assets: new Map(), token: TOKEN, loopbackOnly: true, requestTimeout: TEST_TIMEOUT_MS });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  port = typeof addr === 'object' && addr !== null ? addr.port : 0;
});

after(async () => {
  await app?.close();
  await book?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * Sends a request head announcing a body of `length` bytes, then one byte every 50 ms, and
 * resolves with what the server answered once it closes the connection (rejects past HANG_MS).
 */
function trickle(method: string, path: string, headers: Record<string, string>, length = 10_000_000): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sent = 0;
    let drip: NodeJS.Timeout | undefined;
    const hang = setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${HANG_MS / 1000} s while the body trickled in (${sent} bytes sent; answered: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').split('\r\n')[0])})`));
    }, HANG_MS);
    socket.on('connect', () => {
      const head = Object.entries({ host: `127.0.0.1:${port}`, 'content-length': String(length), ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
      drip = setInterval(() => {
        if (!socket.destroyed && socket.writable) {
          socket.write('x');
          sent++;
        }
      }, 50);
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(hang);
      resolve({ answer: Buffer.concat(chunks).toString('latin1'), sent });
    });
  });
}

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0);
const bodyOf = (answer: string): { error?: string } => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error?: string };

test('a write refused for want of the token closes its connection instead of reading the body it will not use', async () => {
  const { answer } = await trickle('POST', '/api/move', { 'content-type': 'application/json' });
  assert.equal(statusOf(answer), 403, answer);
  assert.match(answer, /\r\nconnection: close\r\n/i);
  assert.match(bodyOf(answer).error ?? '', /X-Tabiya-Token/);
});

test('an import whose name is refused (a control character) is answered before its body is read, and the connection closed', async () => {
  const { answer } = await trickle('POST', '/api/import?name=games%0Aforged%20line.pgn', { 'content-type': 'application/x-chess-pgn', 'x-tabiya-token': TOKEN });
  assert.equal(statusOf(answer), 400, answer);
  assert.match(bodyOf(answer).error ?? '', /^name: a file name cannot hold control characters \(U\+000A at character 6/);
});

test('a GET that carries a body is answered and its connection closed', async () => {
  const { answer } = await trickle('GET', '/api/books', {});
  assert.equal(statusOf(answer), 200, answer);
  assert.match(answer, /\r\nconnection: close\r\n/i);
});

test('a body that takes longer than the bound to arrive, even with the token, gets 408 and its connection closed', async () => {
  const { answer } = await trickle('POST', '/api/move', { 'content-type': 'application/json', 'x-tabiya-token': TOKEN }, 60_000);
  assert.equal(statusOf(answer), 408, answer);
  assert.deepEqual(bodyOf(answer), { error: 'the request took too long to arrive' });
});

test('a write whose body arrives whole keeps its connection for the next request', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const post = (): Promise<{ status: number; connection: string | undefined; socket: unknown }> =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ move: 'e4', comment: 'kept' });
        const req = request({ host: '127.0.0.1', port, path: '/api/move', method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-tabiya-token': TOKEN, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const first = await post();
    const second = await post();
    assert.equal(first.status, 200);
    assert.equal(first.connection, 'keep-alive');
    assert.equal(second.socket, first.socket, 'the second request went over the same connection');
  } finally {
    agent.destroy();
  }
});

test('tabiya serve bounds the time a request may take to arrive (Node\'s default, which Fastify turns off)', async () => {
  const server = await startServer({ books: [BOOK], port: 0, host: '127.0.0.1', token: TOKEN });
  try {
    assert.equal(REQUEST_TIMEOUT_MS, 300_000);
    assert.equal(server.app.server.requestTimeout, REQUEST_TIMEOUT_MS);
    assert.ok(server.app.server.headersTimeout > 0 && server.app.server.headersTimeout <= REQUEST_TIMEOUT_MS);
  } finally {
    await server.close();
  }
});
