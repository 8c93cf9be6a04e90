/**
 * Buffers that cross threads without being detached: a build's threads pass chunks of input,
 * parsed plies and packed parts to one another in these, by reference, and never transfer a
 * buffer.
 *
 * Why not transfer: V8 compiles a typed-array access without a check for a detached buffer for
 * as long as no ArrayBuffer of the isolate has ever been detached (its `ArrayBufferDetaching`
 * protector; `node --trace-protector-invalidation` shows when it goes). Transferring a buffer in
 * postMessage detaches it, and from then on the whole thread runs its typed-array loops with
 * the check: a build's worker parsed its share of the 389k master games in 3.0 s of processor
 * time, and in 3.45 s once it had transferred one buffer; a plain loop over a Uint8Array ran
 * 255 ms before and 413 ms after. A SharedArrayBuffer is passed by reference and never detached
 * (the sender hands it over by convention and does not touch it again); a small buffer is
 * copied instead.
 *
 * Browser-safe: without SharedArrayBuffer (a page that is not cross-origin isolated) these are
 * plain buffers, for code that runs on one thread there.
 */

const canShare = typeof SharedArrayBuffer === 'function';

/** `n` zero bytes in shared memory when there is any. */
export function sharedBytes(n: number): Uint8Array {
  return new Uint8Array(canShare ? new SharedArrayBuffer(n) : new ArrayBuffer(n));
}

/** `n` zero 32-bit ints in shared memory when there is any. */
export function sharedInts(n: number): Int32Array {
  return new Int32Array(canShare ? new SharedArrayBuffer(n * 4) : new ArrayBuffer(n * 4));
}
