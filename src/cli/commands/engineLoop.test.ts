import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { WorkerHost } from '../../node/workerHost.js';
import { UciServer } from '../../protocol/uci/server.js';
import { XboardServer } from '../../protocol/xboard/server.js';
import { CliError } from '../errors.js';
import { serveLines } from './engineLoop.js';

/** A search thread that throws at its first go. */
const FAILING = new URL('../../../test/support/failingWorker.js', import.meta.url);

test('a search thread that fails ends the engine loop with exit code 70 after saying so, instead of leaving the GUI waiting', { timeout: 30000 }, async () => {
  const host = new WorkerHost(FAILING);
  const out: string[] = [];
  const server = new UciServer((l) => out.push(l), host);
  const input = new PassThrough();
  const loop = serveLines(input, new PassThrough(), server, host, (m) => out.push(`info string ${m}`));
  input.write('uci\nisready\nposition startpos\ngo depth 5\n');
  await assert.rejects(loop, (e: unknown) => e instanceof CliError && e.exitCode === 70 && /search thread failed: search fell over/.test(e.message));
  // (readyok may or may not come first: the worker's 'synced' message and its error event
  // travel separately, and a loaded machine delivers them in either order.)
  assert.match(out.at(-1)!, /^info string search thread failed: search fell over$/);
});

test('the same for xboard: the failure is told to the user and the loop ends with exit code 70', { timeout: 30000 }, async () => {
  const host = new WorkerHost(FAILING);
  const out: string[] = [];
  const loop = serveLines(new PassThrough().end('xboard\nprotover 2\nnew\nsd 3\ngo\n'), new PassThrough(), new XboardServer((l) => out.push(l), host), host, (m) => out.push(`tellusererror ${m}`));
  await assert.rejects(loop, (e: unknown) => e instanceof CliError && e.exitCode === 70);
  assert.match(out.at(-1)!, /^tellusererror search thread failed: search fell over$/);
});
