import { divide, perft } from '../../core/perft.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { parseEpd, perftExpectations } from '../../notation/epd.js';
import { makeUci } from '../../notation/uci.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { readEpdRecords } from './epdFile.js';

export interface PerftOptions {
  fen?: string;
  depth?: string;
  divide?: boolean;
  bulk?: boolean;
  suite?: string;
  maxDepth?: string;
  json?: boolean;
}

export function perftCommand(opts: PerftOptions): void {
  if (opts.suite !== undefined) return perftSuite(opts);
  const depth = intOption('--depth', opts.depth ?? '5', 0, 20)!;
  const r = positionFromFen(opts.fen ?? STARTING_FEN);
  if (!r.ok) throw new CliError(`--fen: ${r.error.message}`, 2);
  const pos = r.value;
  const bulk = opts.bulk !== false;
  const t0 = performance.now();
  let nodes: number;
  let moves: { move: string; nodes: number }[] | undefined;
  if (opts.divide) {
    moves = divide(pos, depth, bulk).map((d) => ({ move: makeUci(d.move, pos.chess960), nodes: d.nodes }));
    nodes = moves.reduce((a, d) => a + d.nodes, 0);
  } else {
    nodes = perft(pos, depth, bulk);
  }
  const secs = (performance.now() - t0) / 1000;
  const nps = Math.round(nodes / Math.max(secs, 1e-6));
  report(opts.json, moves ? { nodes, nps, divide: moves } : { nodes, nps }, () => {
    const lines = moves ? moves.map((d) => `${d.move}: ${d.nodes}`) : [];
    lines.push(`${moves ? '\n' : ''}nodes ${nodes}`, `time ${secs.toFixed(3)} s, ${(nps / 1e6).toFixed(2)} M nodes/s`);
    return lines.join('\n');
  });
}

function perftSuite(opts: PerftOptions): void {
  const maxDepth = intOption('--max-depth', opts.maxDepth ?? '4', 1, 20)!;
  const file = opts.suite!;
  const records = readEpdRecords(file);
  const mismatches: { line: number; fen: string; depth: number; expected: number; got: number }[] = [];
  const errors: { line: number; message: string }[] = [];
  let positions = 0;
  let checks = 0;
  let nodes = 0;
  const t0 = performance.now();
  for (const { line, text } of records) {
    const rec = parseEpd(text.trim());
    if (!rec.ok) {
      errors.push({ line, message: rec.error.message });
      continue;
    }
    const pos = positionFromFen(rec.value.fen);
    if (!pos.ok) {
      errors.push({ line, message: pos.error.message });
      continue;
    }
    positions++;
    // A count that is not a number ("D2 4OO") would otherwise be left out without a word.
    for (const [op, operands] of rec.value.ops) {
      if (/^D\d+$/.test(op) && !(operands.length === 1 && /^\d+$/.test(operands[0]!))) {
        errors.push({ line, message: `${op} needs one node count, not "${operands.join(' ')}"` });
      }
    }
    for (const [depth, expected] of perftExpectations(rec.value)) {
      if (depth > maxDepth) continue;
      const got = perft(pos.value, depth);
      nodes += got;
      checks++;
      if (got !== expected) mismatches.push({ line, fen: rec.value.fen, depth, expected, got });
    }
  }
  const secs = (performance.now() - t0) / 1000;
  const nps = Math.round(nodes / Math.max(secs, 1e-6));
  // Unreadable lines are diagnostics (stderr, as epd says them); the mismatches are the result.
  for (const e of errors) process.stderr.write(`warning: ${file}:${e.line}: ${e.message} (skipped)\n`);
  report(opts.json, { file, positions, checks, nodes, nps, mismatches, errors }, () => {
    const out = [
      ...mismatches.map((m) => `${file}:${m.line}: depth ${m.depth}: expected ${m.expected}, got ${m.got} (${m.fen})`),
      `${positions} positions, ${checks} counts checked to depth ${maxDepth}: ${mismatches.length} mismatches, ${errors.length} unreadable lines`,
      `${nodes} nodes in ${secs.toFixed(2)} s (${(nps / 1e6).toFixed(2)} M nodes/s)`,
    ];
    return out.join('\n');
  });
  if (checks === 0) throw new CliError(`${file}: no perft count (D1 ... Dn operation) up to depth ${maxDepth} to check`, 1);
  if (mismatches.length > 0 || errors.length > 0) process.exitCode = 1;
}
