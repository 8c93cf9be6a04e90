/**
 * Why the WebAssembly engine could not get memory, in words a user can act on. V8 reserves
 * about 10 GB of address space for every WebAssembly memory, so that bounds checks are done by
 * the processor's page protection (its "trap handler"); under an address-space limit
 * (`ulimit -v`, common on shared and batch machines) no WebAssembly memory can be made at all,
 * and V8's own message ("Out of memory") points at the machine's memory instead. Node 20.15
 * and 22.2 added `--disable-wasm-trap-handler`, which makes V8 check bounds in the code and
 * reserve only what the memory holds (Node's doc/api/cli.md).
 */
import { readFileSync } from 'node:fs';

/** V8's messages when a WebAssembly memory or instance cannot get its memory. */
const WASM_OOM = /WebAssembly\.\w+\(\): (Out of memory|could not allocate memory)/;

/** The process's address-space limit in bytes (RLIMIT_AS), or undefined when there is none or it cannot be read. */
export function addressSpaceLimit(limits = readLimits()): number | undefined {
  const m = /^Max address space\s+(\S+)/m.exec(limits ?? '');
  if (m === null || m[1] === 'unlimited') return undefined;
  const n = Number(m[1]);
  return Number.isFinite(n) ? n : undefined;
}

function readLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Address space each more search thread reserves: a worker thread's own V8 heap and code range.
 * Measured with `tabiya uci` on Node 20 (VmSize in /proc/self/status): 12.1, 12.7, 13.3 and
 * 14.0 GB with 1 to 4 threads, so about 610 MB a thread; taken with a margin.
 */
export const THREAD_ADDRESS_SPACE = 700 * 2 ** 20;

/**
 * How many more worker threads fit under the address-space limit (Infinity without one). V8
 * cannot fail a thread that finds no room gently: it aborts the whole process ("Fatal process
 * OOM in Failed to reserve virtual memory for CodeRange").
 */
export function threadsThatFit(limit = addressSpaceLimit(), status = readStatus()): number {
  if (limit === undefined) return Infinity;
  const m = /^VmSize:\s+(\d+) kB/m.exec(status ?? '');
  if (m === null) return Infinity;
  return Math.max(0, Math.floor((limit - Number(m[1]) * 1024) / THREAD_ADDRESS_SPACE));
}

function readStatus(): string | undefined {
  try {
    return readFileSync('/proc/self/status', 'utf8');
  } catch {
    return undefined;
  }
}

/** The limit in words, for messages. */
export function addressSpaceText(limit: number): string {
  return `this process may use ${(limit / 2 ** 30).toFixed(1)} GB of address space (ulimit -v)`;
}

/**
 * For an error message that says WebAssembly could not get memory: what to do about it (the
 * address-space limit and the ways round it); undefined for any other message.
 */
export function wasmMemoryAdvice(message: string, limit = addressSpaceLimit(), execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string | undefined {
  if (!WASM_OOM.test(message)) return undefined;
  const trapHandlerOff = execArgv.includes('--disable-wasm-trap-handler') || nodeOptions.includes('--disable-wasm-trap-handler');
  if (limit === undefined) return 'the WebAssembly engine cannot get memory: the machine has too little free memory (try a smaller Hash or fewer Threads)';
  if (trapHandlerOff) return `the WebAssembly engine cannot get memory: ${addressSpaceText(limit)}; raise the limit or use a smaller Hash and fewer Threads`;
  return (
    `the WebAssembly engine cannot get memory: ${addressSpaceText(limit)}, and Node reserves about 10 GB of it for each WebAssembly memory. ` +
    'Raise the limit (ulimit -v unlimited), or run Node with --disable-wasm-trap-handler (NODE_OPTIONS=--disable-wasm-trap-handler tabiya ...), which needs only what the engine uses and searches a little slower'
  );
}
