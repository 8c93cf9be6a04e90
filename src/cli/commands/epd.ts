/**
 * `tabiya epd FILE --movetime MS`: runs a test suite. A position counts as solved when the
 * engine's move is one of its `bm` moves and none of its `am` moves. Records that cannot be
 * read are reported with their line and skipped.
 */
import { readFileSync } from 'node:fs';
import { Engine } from '../../engine/engine.js';
import { parseEpd } from '../../notation/epd.js';
import { makeSan, parseSan } from '../../notation/san.js';
import { startProgress } from '../../node/progress.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { configureV8ForSearch } from '../../node/v8flags.js';

export interface EpdOptions {
  movetime?: string;
  depth?: string;
  nodes?: string;
  hash?: string;
  limit?: string;
  json?: boolean;
  quiet?: boolean;
}

interface Failure {
  id: string;
  line: number;
  expected: string[];
  avoid: string[];
  played: string;
}

export function epdCommand(file: string, opts: EpdOptions): void {
  configureV8ForSearch();
  const movetime = intOption('--movetime', opts.movetime, 1);
  const depth = intOption('--depth', opts.depth, 1, 120);
  const nodes = intOption('--nodes', opts.nodes, 1);
  const hash = intOption('--hash', opts.hash ?? '64', 1, 8192)!;
  const limit = intOption('--limit', opts.limit, 1);
  if (movetime === undefined && depth === undefined && nodes === undefined) throw new CliError('epd: give --movetime, --depth or --nodes', 2);
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (e) {
    throw new CliError(`${file}: cannot read: ${(e as Error).message}`);
  }
  const lines = text.split(/\r?\n/);
  const records: { line: number; text: string }[] = [];
  lines.forEach((t, i) => {
    if (t.trim() !== '' && !t.trim().startsWith('#')) records.push({ line: i + 1, text: t });
  });
  const todo = limit !== undefined ? records.slice(0, limit) : records;
  const engine = new Engine({ hashMB: hash });
  // The search runs in this process: no GUI or pipe to keep time back for.
  engine.settings.moveOverhead = 0;
  const progress = startProgress({ label: 'epd', total: todo.length, unit: 'positions', quiet: opts.quiet || opts.json });
  const failures: Failure[] = [];
  const errors: { line: number; message: string }[] = [];
  let solved = 0;
  let total = 0;
  let searched = 0;
  let time = 0;
  for (const rec of todo) {
    progress.update(total + errors.length, `${solved} solved`);
    const parsed = parseEpd(rec.text);
    if (!parsed.ok) {
      errors.push({ line: rec.line, message: `${file}:${rec.line}: ${parsed.error.message}` });
      continue;
    }
    const { fen, ops } = parsed.value;
    try {
      engine.setPosition(fen);
    } catch (e) {
      errors.push({ line: rec.line, message: `${file}:${rec.line}: ${(e as Error).message}` });
      continue;
    }
    const bm: number[] = [];
    const am: number[] = [];
    let bad = '';
    for (const [op, out] of [['bm', bm], ['am', am]] as const) {
      for (const san of ops.get(op) ?? []) {
        const m = parseSan(engine.pos, san);
        if (m.ok) out.push(m.value);
        else bad = `${op} ${san}: ${m.error.message}`;
      }
    }
    if (bad !== '' || (bm.length === 0 && am.length === 0)) {
      errors.push({ line: rec.line, message: `${file}:${rec.line}: ${bad || 'no bm or am operation'}` });
      continue;
    }
    engine.newGame();
    const r = engine.go({ movetime, depth, nodes });
    total++;
    searched += r.nodes;
    time += r.time;
    if ((bm.length === 0 || bm.includes(r.bestMove)) && !am.includes(r.bestMove)) solved++;
    else {
      failures.push({
        id: ops.get('id')?.[0] ?? `line ${rec.line}`,
        line: rec.line,
        expected: ops.get('bm') ?? [],
        avoid: ops.get('am') ?? [],
        played: r.bestMove !== 0 ? makeSan(engine.pos, r.bestMove) : '(none)',
      });
    }
  }
  progress.stop();
  for (const e of errors) process.stderr.write(`tabiya: skipped ${e.message}\n`);
  const nps = Math.round((searched * 1000) / Math.max(1, time));
  report(opts.json, { file, solved, total, skipped: errors.length, nps, failed: failures }, () => {
    const out = failures.map((f) => `${f.id}: played ${f.played}, ${f.expected.length ? `best ${f.expected.join(' ')}` : `avoid ${f.avoid.join(' ')}`}`);
    out.push(`solved ${solved}/${total}${errors.length ? ` (${errors.length} skipped)` : ''}, ${nps} nodes/s`);
    return out.join('\n');
  });
}
