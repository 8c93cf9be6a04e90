/**
 * V8 settings for long searches. On-stack replacement can leave the recursive search stuck in
 * unoptimised code: when a search function is deoptimised while dozens of its frames are on the
 * stack, V8 compiles an OSR version for the running loop and, in Node 20, then no longer tiers
 * the function itself up again, which halved the nodes per second of whole matches. Without
 * OSR every new call simply enters the re-optimised function. Set before any search runs.
 */
import v8 from 'node:v8';

let done = false;

export function configureV8ForSearch(): void {
  if (done) return;
  done = true;
  v8.setFlagsFromString('--no-use-osr');
}
