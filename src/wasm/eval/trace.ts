/**
 * The evaluation's trace, for the tuner (src/tune/): while `tracing`, every term adds its
 * count to the coefficient of its weight pair, White's count minus Black's, so that the
 * evaluation is Σ weight · coefficient, blended by phase and scale (evaluate.ts
 * evaluateTrace). Only the build made for it (dist/wasm/core-trace.wasm, `--use
 * EVAL_TRACE=1`) has the tests at all: in the others EVAL_TRACE is 0 and they compile to
 * nothing (a runtime flag alone cost the search 4 to 24% of its speed, measured by alternating
 * the two builds on the bench positions, on a loaded machine).
 */
import { NPAIRS, PACKED } from './params';

// @ts-ignore: EVAL_TRACE is a constant the build sets (package.json build:wasm)
const TRACE_BUILD: bool = EVAL_TRACE != 0;

/** Is this the trace build? */
export function isTraceBuild(): bool {
  return TRACE_BUILD;
}

let tracingOn = false;
/** A trace is being taken (never, outside the trace build). */
// @ts-ignore: decorator
@inline export function tracing(): bool {
  return TRACE_BUILD && tracingOn;
}
/**
 * Coefficient of each weight pair, as i32 counts, for each of the evaluation's four sums
 * (src/engine/evalParams.ts): at k the linear sum (White's count minus Black's), at NPAIRS + k
 * the king danger White creates, at 2 · NPAIRS + k the danger Black creates, at 3 · NPAIRS + k
 * the complexity.
 */
export const TRACE_SUMS = 4;
export const TRACE_COEF = new StaticArray<i32>(TRACE_SUMS * NPAIRS);

/** Starts (with every coefficient 0) or ends a trace. */
export function setTracing(on: bool): void {
  if (on) memory.fill(changetype<usize>(TRACE_COEF), 0, <usize>(TRACE_SUMS * NPAIRS) << 2);
  tracingOn = on;
}

/** Counts `n` of safety pair k for attacker c's king danger (while tracing). */
// @ts-ignore: decorator
@inline export function traceDanger(c: i32, k: i32, n: i32): void {
  if (tracing()) unchecked(TRACE_COEF[(1 + c) * NPAIRS + k] += n);
}

/** Counts `n` of complexity pair k (while tracing). */
// @ts-ignore: decorator
@inline export function traceComplexity(k: i32, n: i32): void {
  if (tracing()) unchecked(TRACE_COEF[3 * NPAIRS + k] += n);
}

/** Counts `n` of pair k for the side whose sign this is (while tracing). */
// @ts-ignore: decorator
@inline export function trace(k: i32, n: i32): void {
  if (tracing()) unchecked(TRACE_COEF[k] += n);
}

/** Pair k's packed value, counted once for the side of `sign` (1 White, -1 Black). */
// @ts-ignore: decorator
@inline export function term(k: i32, sign: i32): i32 {
  if (tracing()) unchecked(TRACE_COEF[k] += sign);
  return unchecked(PACKED[k]);
}
