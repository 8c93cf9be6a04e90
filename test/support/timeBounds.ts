/**
 * Time bounds of the fuzz tests, stated as ratios and as a hang bound rather than as speeds:
 * a parser must never hang on one input, and its time must grow linearly with the input's size
 * (a pathological megabyte must not cost quadratic time).
 */
import assert from 'node:assert/strict';

/**
 * One fuzz input that takes this much CPU time is a hang, not slowness: every case of these tests
 * parses in a few milliseconds, and an infinite loop or a quadratic blow-up on a 100 kB case takes
 * far longer. CPU time, not the clock, so a machine busy with other work does not fail the test.
 */
export const HANG_MS = 2000;

function cpuMs(f: () => void): number {
  const t0 = process.cpuUsage();
  f();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

/** Runs `f`, failing when it takes more than HANG_MS of CPU time; returns its value. */
export function withinHangBound<T>(what: () => string, f: () => T): T {
  let value: T | undefined;
  const ms = cpuMs(() => {
    value = f();
  });
  if (ms > HANG_MS) assert.fail(`${ms.toFixed(0)} ms of CPU time on one input (hang bound ${HANG_MS} ms): ${what()}`);
  return value as T;
}

/**
 * Checks that parsing one input of `size` units costs about as much as parsing 16 inputs of
 * size/16 (the same amount of text): linear time gives a ratio near 1, quadratic time about 16.
 * The bound is 4, and runs under 20 ms are not judged (timer noise). Each side is the best of up
 * to three tries, so a pause of the machine does not fail the test.
 */
export function assertLinear<T>(name: string, make: (size: number) => T, parse: (input: T) => void, size: number): void {
  const big = make(size);
  const small = make(size / 16);
  let tBig = Infinity;
  let tSmall = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    tBig = Math.min(tBig, cpuMs(() => parse(big)));
    tSmall = Math.min(tSmall, cpuMs(() => {
      for (let k = 0; k < 16; k++) parse(small);
    }));
    if (tBig < 20 || tBig <= 4 * tSmall) return;
  }
  assert.fail(`${name}: one input of ${size} took ${tBig.toFixed(1)} ms CPU, 16 inputs of ${size / 16} took ${tSmall.toFixed(1)} ms: not linear`);
}

/**
 * Waits for `promise` at most `ms` of wall-clock time: a hang bound for a step that takes well
 * under a second on an idle machine (closing a page, a browser or a server), set far above what
 * a busy machine needs, so only a step that would wait forever reaches it. Past it, `onHang`
 * runs (it ends what hangs, so the test run can go on, and may say more about the state) and
 * the test fails naming the step.
 */
export async function settlesWithin<T>(what: string, ms: number, promise: Promise<T>, onHang?: () => string | undefined | Promise<string | undefined>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), ms);
  });
  try {
    const r = await Promise.race([promise.then((value) => ({ value })), hang]);
    if (r !== 'hang') return r.value;
  } finally {
    clearTimeout(timer);
  }
  promise.catch(() => {});
  const more = await onHang?.();
  return assert.fail(`${what} did not finish within ${ms / 1000} s (hang bound)${more ? `: ${more}` : ''}`);
}
