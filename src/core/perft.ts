/**
 * Perft: the number of leaf nodes of the legal move tree to a depth, the standard
 * correctness test for move generation. Tests, the CLI and the benchmark share this code.
 * With `bulk`, the last ply is counted from the generated move list instead of being played.
 */
import { generateLegal } from './movegen.js';
import type { Position } from './position.js';
import { MAX_MOVES } from './types.js';

const MAX_DEPTH = 64;
const stack = new Uint16Array(MAX_MOVES * MAX_DEPTH);

export function perft(pos: Position, depth: number, bulk = true): number {
  if (depth <= 0) return 1;
  if (depth > MAX_DEPTH) throw new RangeError(`perft depth ${depth} exceeds ${MAX_DEPTH}`);
  return bulk ? perftBulk(pos, depth, 0) : perftFull(pos, depth, 0);
}

function perftBulk(pos: Position, depth: number, base: number): number {
  const end = generateLegal(pos, stack, base);
  if (depth === 1) return end - base;
  let nodes = 0;
  for (let i = base; i < end; i++) {
    pos.play(stack[i]!);
    nodes += perftBulk(pos, depth - 1, end);
    pos.undo();
  }
  return nodes;
}

function perftFull(pos: Position, depth: number, base: number): number {
  const end = generateLegal(pos, stack, base);
  if (depth === 1) {
    // Leaves are still played and taken back (no bulk counting): full perft measures make/unmake.
    for (let i = base; i < end; i++) {
      pos.play(stack[i]!);
      pos.undo();
    }
    return end - base;
  }
  let nodes = 0;
  for (let i = base; i < end; i++) {
    pos.play(stack[i]!);
    nodes += perftFull(pos, depth - 1, end);
    pos.undo();
  }
  return nodes;
}

/** Perft per root move ("divide"). */
export function divide(pos: Position, depth: number, bulk = true): { move: number; nodes: number }[] {
  const buf = new Uint16Array(MAX_MOVES);
  const n = generateLegal(pos, buf, 0);
  const out: { move: number; nodes: number }[] = [];
  for (let i = 0; i < n; i++) {
    pos.play(buf[i]!);
    out.push({ move: buf[i]!, nodes: perft(pos, depth - 1, bulk) });
    pos.undo();
  }
  return out;
}
