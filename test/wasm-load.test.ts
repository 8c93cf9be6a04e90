/**
 * The page's engine compiles its core from a URL (src/engine/wasm/load.ts): a build that
 * cannot be had is an error naming the URL and what is wrong (the HTTP status, the
 * Content-Type), not the browser's bare "HTTP status code is not ok".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileCoreFrom } from '../src/engine/wasm/load.js';

const CORE = readFileSync(new URL('../../dist/wasm/core.wasm', import.meta.url));

test('compileCoreFrom: a served build compiles; a missing one, one of the wrong type and no server name the URL', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/assets/core.wasm') res.writeHead(200, { 'Content-Type': 'application/wasm' }).end(CORE);
    else if (req.url === '/assets/text.wasm') res.writeHead(200, { 'Content-Type': 'text/plain' }).end(CORE);
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    assert.ok((await compileCoreFrom(`${base}/assets/core.wasm`)) instanceof WebAssembly.Module);
    await assert.rejects(compileCoreFrom(`${base}/sub/assets/core.wasm`), (e: Error) => {
      assert.equal(e.message, `${base}/sub/assets/core.wasm: HTTP 404 Not Found`);
      return true;
    });
    await assert.rejects(compileCoreFrom(`${base}/assets/text.wasm`), (e: Error) => {
      assert.ok(e.message.startsWith(`${base}/assets/text.wasm: `), e.message);
      assert.match(e.message, /MIME type/);
      return true;
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  await assert.rejects(compileCoreFrom(`${base}/assets/core.wasm`), (e: Error) => e.message.startsWith(`${base}/assets/core.wasm: `));
});
