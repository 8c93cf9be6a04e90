/**
 * `npm run bench -- retrieval [--keys N] [--bits B] [--lookups L] [--runs R]`: the retrieval
 * structure (src/book/rich/retrieval.ts) against the usual alternative, a sorted array of the
 * full 64-bit keys with their values searched by binary search (Uint32Arrays of key halves and
 * values), on the same random keys in one run.
 *
 *   1. Build rate, keys/s, from keys in random order: ours groups them by partition and solves
 *      each; the anchor sorts them (LSD radix sort, four 16-bit digits, values carried along).
 *   2. Lookup latency, ns per query, warm, in memory: random members, and random non-members
 *      (ours answers those too, with an arbitrary value; the anchor finds nothing).
 *   3. Size, bits per key.
 *
 * Default: 10 million keys, 19-bit values (enough for 389,000 games), 1 million lookups, best
 * of 2 builds. Builds and lookup passes alternate between the two; the best is kept.
 */
import { Retrieval } from '../src/book/rich/retrieval.js';
import { buildRetrieval } from '../src/book/rich/retrievalBuilder.js';
import { randomKeys, xorshift32 } from '../test/support/randomKeys.js';
import { benchArgs } from './args.js';

/** The anchor: keys sorted as unsigned 64-bit numbers, with their values. */
interface SortedKeys {
  hi: Uint32Array;
  lo: Uint32Array;
  values: Uint32Array;
}

/** LSD radix sort of (hi, lo, value) by the 64-bit key hi·2^32 + lo, 16 bits a pass. */
function sortKeys(hi: Uint32Array, lo: Uint32Array, values: Uint32Array): SortedKeys {
  const n = hi.length;
  let a: SortedKeys = { hi: hi.slice(), lo: lo.slice(), values: values.slice() };
  let b: SortedKeys = { hi: new Uint32Array(n), lo: new Uint32Array(n), values: new Uint32Array(n) };
  const count = new Uint32Array(1 << 16);
  for (let pass = 0; pass < 4; pass++) {
    const src = pass < 2 ? a.lo : a.hi;
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(src[i]! >>> shift) & 0xffff]!++;
    for (let d = 0, sum = 0; d < count.length; d++) {
      const c = count[d]!;
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = count[(src[i]! >>> shift) & 0xffff]!++;
      b.hi[j] = a.hi[i]!;
      b.lo[j] = a.lo[i]!;
      b.values[j] = a.values[i]!;
    }
    [a, b] = [b, a];
  }
  return a;
}

/** Binary search for a key; its value, or -1. */
function search(s: SortedKeys, keyHi: number, keyLo: number): number {
  const h = keyHi >>> 0;
  const l = keyLo >>> 0;
  let lo = 0;
  let hi = s.hi.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const mh = s.hi[mid]!;
    if (mh < h || (mh === h && s.lo[mid]! < l)) lo = mid + 1;
    else hi = mid;
  }
  return lo < s.hi.length && s.hi[lo] === h && s.lo[lo] === l ? s.values[lo]! : -1;
}

/** Mean ns per query over the given keys, one pass. */
function pass(hi: Uint32Array, lo: Uint32Array, get: (h: number, l: number) => number): number {
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < hi.length; i++) sink ^= get(hi[i]!, lo[i]!);
  const ns = ((performance.now() - t0) * 1e6) / hi.length;
  if (sink === 0.5) console.log('');
  return ns;
}

const row = (name: string, ours: number, anchor: number, digits = 0): string =>
  `${name.padEnd(36)} ${ours.toFixed(digits).padStart(12)} ${anchor.toFixed(digits).padStart(12)} ${(ours / anchor).toFixed(3).padStart(8)}`;

export function main(args: string[]): void {
  const { keys, bits, lookups, runs } = benchArgs('retrieval', args, {
    usage: '[--keys N] [--bits B] [--lookups L] [--runs R]',
    options: {
      keys: { kind: 'int', default: 10_000_000, min: 1, help: 'random keys' },
      bits: { kind: 'int', default: 19, min: 1, max: 32, arg: 'B', help: 'bits of each value' },
      lookups: { kind: 'int', default: 1_000_000, min: 1, arg: 'L', help: 'lookups a pass' },
      runs: { kind: 'int', default: 2, min: 1, arg: 'R', help: 'builds of each; the best is kept' },
    },
  }).values;
  const { hi, lo, values } = randomKeys(keys, bits, 2022);
  const r = xorshift32(2023);
  console.log(`retrieval: ${keys} random keys, ${bits}-bit values; builds best of ${runs}, ${lookups} lookups a pass, best of 5 passes`);

  // 1. build
  let ourBuild = Infinity;
  let anchorBuild = Infinity;
  let bytes: Uint8Array = new Uint8Array(0);
  let sorted: SortedKeys | undefined;
  for (let run = 0; run < runs; run++) {
    let t0 = performance.now();
    bytes = buildRetrieval(hi, lo, values, { bits });
    ourBuild = Math.min(ourBuild, (performance.now() - t0) / 1000);
    t0 = performance.now();
    sorted = sortKeys(hi, lo, values);
    anchorBuild = Math.min(anchorBuild, (performance.now() - t0) / 1000);
  }
  const ours = Retrieval.open(bytes);
  if (!ours.ok) throw ours.error;
  const ret = ours.value;
  const anchor = sorted!;

  // 2. lookups
  const hitHi = new Uint32Array(lookups);
  const hitLo = new Uint32Array(lookups);
  const missHi = new Uint32Array(lookups);
  const missLo = new Uint32Array(lookups);
  for (let i = 0; i < lookups; i++) {
    const j = r() % keys;
    hitHi[i] = hi[j]!;
    hitLo[i] = lo[j]!;
    missHi[i] = r();
    missLo[i] = r();
  }
  for (let i = 0; i < lookups; i += 997) {
    if (ret.get(hitHi[i]!, hitLo[i]!) !== search(anchor, hitHi[i]!, hitLo[i]!)) throw new Error('the two disagree on a member');
  }
  const getOurs = (h: number, l: number): number => ret.get(h, l);
  const getAnchor = (h: number, l: number): number => search(anchor, h, l);
  const best = { hitOurs: Infinity, hitAnchor: Infinity, missOurs: Infinity, missAnchor: Infinity };
  for (let p = 0; p < 6; p++) {
    const hitOurs = pass(hitHi, hitLo, getOurs);
    const hitAnchor = pass(hitHi, hitLo, getAnchor);
    const missOurs = pass(missHi, missLo, getOurs);
    const missAnchor = pass(missHi, missLo, getAnchor);
    if (p === 0) continue; // warm-up
    best.hitOurs = Math.min(best.hitOurs, hitOurs);
    best.hitAnchor = Math.min(best.hitAnchor, hitAnchor);
    best.missOurs = Math.min(best.missOurs, missOurs);
    best.missAnchor = Math.min(best.missAnchor, missAnchor);
  }

  // 3. size
  const ourBits = (bytes.length * 8) / keys;
  const anchorBits = ((anchor.hi.byteLength + anchor.lo.byteLength + anchor.values.byteLength) * 8) / keys;

  console.log(`${''.padEnd(36)} ${'retrieval'.padStart(12)} ${'sorted+bs'.padStart(12)} ${'ratio'.padStart(8)}`);
  console.log(row('build, M keys/s (random order)', keys / ourBuild / 1e6, keys / anchorBuild / 1e6, 2));
  console.log(row('lookup, member, ns', best.hitOurs, best.hitAnchor));
  console.log(row('lookup, non-member, ns', best.missOurs, best.missAnchor));
  console.log(row('size, bits per key', ourBits, anchorBits, 2));
  console.log(
    `retrieval: ${ret.partitions} partitions, ${(bytes.length / 2 ** 20).toFixed(1)} MiB, ${(ourBits / bits).toFixed(4)} × ${bits} bits per key; ` +
      `sorted keys: ${((anchorBits * keys) / 8 / 2 ** 20).toFixed(1)} MiB (${64 + bits} bits per key if the values were packed too); ratio = retrieval / sorted`,
  );
}
