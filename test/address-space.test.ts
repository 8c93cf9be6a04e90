/**
 * The engine under an address-space limit (`ulimit -v`, common on shared and batch machines):
 * V8 reserves about 10 GB for each WebAssembly memory and a few hundred MB for each worker
 * thread, so a small limit leaves no room for the engine at all and a middling one no room for
 * more threads. tabiya says which limit and what to do, exits 1 rather than report an internal
 * error, and starts only the threads that fit rather than let V8 abort the process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { addressSpaceLimit, threadsThatFit, wasmMemoryAdvice, THREAD_ADDRESS_SPACE } from '../src/node/addressSpace.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const GB = 2 ** 30;

/** Runs a shell command line under `ulimit -v` (KiB, as the shell takes it). */
function limited(gb: number, command: string, input = ''): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', `ulimit -v ${gb * 1024 * 1024} && ${command}`], { input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('the limit and the room for threads are read from /proc', () => {
  assert.equal(addressSpaceLimit('Max address space         unlimited            unlimited            bytes\n'), undefined);
  assert.equal(addressSpaceLimit('Max address space         4294967296           unlimited            bytes\n'), 4 * GB);
  assert.equal(threadsThatFit(undefined, 'VmSize:\t12000000 kB\n'), Infinity);
  assert.equal(threadsThatFit(14 * GB, `VmSize:\t${(14 * GB - 2 * THREAD_ADDRESS_SPACE - 1024) / 1024} kB\n`), 2);
  assert.equal(threadsThatFit(12 * GB, 'VmSize:\t12900000 kB\n'), 0);
});

test('the advice names the limit and the way round it; other errors get none', () => {
  const msg = 'WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance';
  assert.match(wasmMemoryAdvice(msg, 4 * GB, [], '')!, /may use 4\.0 GB of address space \(ulimit -v\).*--disable-wasm-trap-handler/);
  assert.doesNotMatch(wasmMemoryAdvice(msg, 4 * GB, ['--disable-wasm-trap-handler'], '')!, /run Node with/);
  assert.match(wasmMemoryAdvice('WebAssembly.Memory(): could not allocate memory', undefined, [], '')!, /too little free memory/);
  assert.equal(wasmMemoryAdvice('ENOENT: no such file', 4 * GB, [], ''), undefined);
});

test('under ulimit -v 4 GB: bench and uci say why the engine cannot start and exit 1', { timeout: 120_000 }, () => {
  const bench = limited(4, `"${process.execPath}" "${MAIN}" bench`);
  assert.equal(bench.code, 1, bench.stderr);
  assert.match(bench.stderr, /^tabiya: the WebAssembly engine cannot get memory: this process may use 4\.0 GB of address space \(ulimit -v\)/);
  assert.doesNotMatch(bench.stderr, /internal error|at new/);
  const uci = limited(4, `"${process.execPath}" "${MAIN}" uci`, 'uci\nisready\nposition startpos\ngo depth 4\n');
  assert.equal(uci.code, 1, uci.stderr);
  assert.match(uci.stdout, /^info string the WebAssembly engine cannot get memory: this process may use 4\.0 GB/m);
  // With the trap handler off (Node 20.15, 22.2 and later), the same limit is enough for one thread.
  const off = limited(4, `"${process.execPath}" --disable-wasm-trap-handler "${MAIN}" bench`);
  assert.equal(off.code, 0, off.stderr);
  assert.match(off.stdout, /signature as recorded/);
});

test('under ulimit -v 13 GB: Threads 4 searches on the threads that fit and says so', { timeout: 120_000 }, () => {
  const r = limited(13, `"${process.execPath}" "${MAIN}" uci`, 'uci\nsetoption name Threads value 4\nisready\nposition startpos\ngo depth 8\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^info string Threads 4: this process may use 13\.0 GB of address space \(ulimit -v\), room for [123] search threads?; searching on [123]$/m);
  assert.match(r.stdout, /^bestmove [a-h][1-8][a-h][1-8]/m);
});
