/**
 * Real labelled positions for the tuner's tests: the first lines of the shared Texel set
 * (../shared/data/tuning/pgnmentor_quiet_labeled.epd.gz), traced after quiescence resolution.
 */
import { buildTraces } from './build.js';
import { readText } from './dataset.js';
import type { TraceStore } from './traceStore.js';

export const SHARED_LABELED = new URL('../../../../shared/data/tuning/pgnmentor_quiet_labeled.epd.gz', import.meta.url);

let cache: string[] | null = null;

/** The first `n` lines of the shared labelled set. */
export function sharedLines(n: number): string[] {
  if (!cache || cache.length < n) {
    const text = readText(SHARED_LABELED.pathname);
    cache = [];
    let at = 0;
    while (cache.length < Math.max(n, 20000) && at < text.length) {
      const end = text.indexOf('\n', at);
      const line = text.slice(at, end < 0 ? text.length : end).trim();
      if (line !== '') cache.push(line);
      at = end < 0 ? text.length : end + 1;
    }
  }
  return cache.slice(0, n);
}

/** Traces of the first `n` shared positions (resolved by quiescence search). */
export function sharedStore(n: number, from = 0): TraceStore {
  const lines = sharedLines(from + n).slice(from);
  return buildTraces(lines, Int32Array.from(lines, (_, i) => from + i + 1), { resolve: true }).store;
}
