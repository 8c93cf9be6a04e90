/**
 * `tabiya book audit BOOK [--depth d | --nodes n] [--min-games g] [--min-weight w] [--margin cp]
 * [--max-ply p] [--threads n] [--journal F] [--fresh] [--mark] [--json]`: the engine checks
 * every book move above the thresholds and lists those that lose more than the margin against
 * the best move, with the line that refutes them (src/book/node/audit.ts).
 */
import { availableParallelism } from 'node:os';
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { ioReason } from '../../book/node/atomicWrite.js';
import { bookFormat, markBook, runAudit, type AuditedMove, type AuditResult } from '../../book/node/audit.js';
import { tbkFileVersion } from '../../book/node/openTbk.js';
import { tbkNotNamedTbk } from '../../book/polyglot/reader.js';
import { lossText, type AuditLimits } from '../../book/audit/verdict.js';
import type { Position } from '../../core/position.js';
import { positionFromFen } from '../../notation/fen.js';
import { uciLineToSan } from '../../notation/moveList.js';
import { makeSan } from '../../notation/san.js';
import { parseUci } from '../../notation/uci.js';
import { checkOutputs } from '../../node/outputs.js';
import { startProgress } from '../../node/progress.js';
import { exitAfterSignal, onStopSignals, sayOnStderr } from '../../node/stopSignals.js';
import { configureV8ForSearch } from '../../node/v8flags.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { bookErrors } from './richCommon.js';
import { whenUnlocked, withBookLock } from '../../book/node/richFile.js';

export interface BookAuditCliOptions {
  depth?: string;
  nodes?: string;
  minGames?: string;
  minWeight?: string;
  margin?: string;
  maxPly?: string;
  threads?: string;
  hash?: string;
  journal?: string;
  fresh?: boolean;
  mark?: boolean;
  quiet?: boolean;
  json?: boolean;
}

/** The default search: deep enough for the classic opening traps, a fraction of a second a move. */
export const DEFAULT_AUDIT_DEPTH = 10;

export async function bookAuditCommand(file: string, opts: BookAuditCliOptions): Promise<void> {
  configureV8ForSearch();
  // Everything that can be refused is refused before a search starts or a file is written.
  const depth = intOption('--depth', opts.depth, 1, 60);
  const nodes = intOption('--nodes', opts.nodes, 1);
  if (depth !== undefined && nodes !== undefined) throw new CliError('give --depth or --nodes, not both', 2);
  const limits: AuditLimits = nodes !== undefined ? { nodes } : { depth: depth ?? DEFAULT_AUDIT_DEPTH };
  const margin = intOption('--margin', opts.margin ?? '100', 0, 100000)!;
  const maxPly = intOption('--max-ply', opts.maxPly ?? '1024', 1, 1024)!;
  const threads = opts.threads === undefined || opts.threads === 'auto' ? availableParallelism() : intOption('--threads', opts.threads, 1, 256)!;
  const hashMB = intOption('--hash', opts.hash ?? '16', 1, 1024)!;
  if (!existsSync(file)) throw new CliError(`${file}: cannot open: no such file`, 1);
  if (!statSync(file).isFile()) throw new CliError(`${file}: not a regular file`, 1);
  const version = tbkFileVersion(file);
  const format = bookFormat(file);
  // The book commands pick the format by the name (book info, probe, merge): a .tbk named .bin
  // would otherwise be marked as a .tbk under a name that promises a Polyglot book.
  if (format === '.bin' && version !== undefined) throw new CliError(tbkNotNamedTbk(file).message, 1);
  if (format === '.bin' && opts.minGames !== undefined) throw new CliError('--min-games applies to .tbk books only (a .bin keeps weights, not games: use --min-weight)', 2);
  if (format === '.tbk' && opts.minWeight !== undefined) throw new CliError('--min-weight applies to .bin books only (use --min-games)', 2);
  if (opts.mark && format === '.bin') throw new CliError(`${file}: --mark writes into a .tbk; a Polyglot .bin has nowhere to keep verdicts (make a .tbk with: tabiya book import ${file} -o ${file.replace(/\.bin$/i, '')}.tbk)`, 2);
  if (opts.mark && version !== 2) throw new CliError(`${file}: --mark writes into a version 2 .tbk; upgrade it first with: tabiya book upgrade ${file}`, 2);
  // --mark changes the book in place at the end: a book that cannot be written is refused now,
  // not after the whole audit has been searched.
  if (opts.mark) {
    try {
      closeSync(openSync(file, 'r+'));
    } catch (e) {
      throw new CliError(`${file}: cannot write: ${ioReason(e)} (--mark writes the verdicts into the book); nothing was searched`, 1);
    }
  }
  const minGames = intOption('--min-games', opts.minGames ?? '3', 1)!;
  const minWeight = intOption('--min-weight', opts.minWeight ?? '1', 0, 65535)!;
  const journal = opts.journal ?? `${file}.audit`;
  // The journal is written to: never the book itself, a directory or a path in no directory.
  checkOutputs([{ path: journal, kind: 'text', mode: 'update' }], [file]);
  // Progress and notes go to stderr with --json too (docs/cli.md): only --quiet silences them.
  const quiet = opts.quiet === true;
  let bar: ReturnType<typeof startProgress> | undefined;
  let done = 0;
  let todo = 0;
  // Ctrl-C: every finished position is already synced to the journal (writes are synchronous, so
  // a signal handled here never lands inside one); say how to go on, and stop.
  // SIGHUP (a closed terminal, a dropped ssh session) likewise: the note may find no terminal to
  // be written to, which does not stop the exit (src/node/stopSignals.ts).
  const onSignal = (signal: NodeJS.Signals): void => {
    bar?.stop();
    sayOnStderr(`\ninterrupted: ${done} of ${todo} positions searched in this run are in the journal ${journal}; the same command goes on from there\n`);
    exitAfterSignal(signal);
  };
  const offSignals = onStopSignals(onSignal);
  // One audit at a time per journal: two runs appending to the same journal (the same command in
  // two terminals) wrote over each other's lines, and the next run refused the journal as
  // damaged. The journal's lock (JOURNAL.lock, as a book's) is refused at once, not waited for:
  // the other audit may run for hours. A lock left by a killed run is taken over.
  const audit = (): Promise<AuditResult> =>
    runAudit(file, format, {
      limits,
      minGames,
      minWeight,
      margin,
      maxPly,
      threads,
      hashMB,
      journal,
      fresh: opts.fresh ?? false,
      onStart: (n, total) => {
        todo = n;
        if (!quiet && n < total) process.stderr.write(`${journal}: ${total - n} of ${total} positions already audited, not searched again\n`);
        bar = startProgress({ label: 'audit', total: n, unit: 'positions', quiet });
      },
      onProgress: (n, flagged) => {
        done = n;
        bar?.update(n, `${flagged} flagged`);
      },
    });
  const result = await bookErrors(async () => {
    try {
      return await withBookLock(journal, audit, { timeoutMs: 0 });
    } finally {
      bar?.stop();
      offSignals();
    }
  });
  if (opts.mark) await whenUnlocked(file);
  const mark = opts.mark ? await bookErrors(() => markBook(file, result.moves, margin)) : undefined;
  const marked = mark === undefined ? undefined : { marked: mark.marked, forbidden: mark.forbidden, chosen: mark.chosen.map((m) => flaggedRow(m).line) };
  if (marked !== undefined && marked.chosen.length > 0 && !opts.json) {
    const n = marked.chosen.length;
    process.stderr.write(`note: ${n} flagged move${n === 1 ? '' : 's'} with a user value above 0 (chosen) left playable: ${marked.chosen.slice(0, 10).join(', ')}${n > 10 ? `, and ${n - 10} more` : ''}; tabiya book set ${file} --moves … --move … --forbid forbids one\n`);
  }
  const flagged = result.moves.filter((m) => m.flagged).map((m) => flaggedRow(m));
  const value = {
    book: file,
    format,
    ...limits,
    margin,
    minGames: format === '.tbk' ? minGames : undefined,
    minWeight: format === '.bin' ? minWeight : undefined,
    // Always present (docs/books.md lists it): null when the whole book is audited.
    maxPly: maxPly >= 1024 ? null : maxPly,
    positions: result.positions.length,
    searched: result.searched,
    fromJournal: result.fromJournal,
    journal,
    movesChecked: result.moves.length,
    recovered: result.recovered,
    unreached: result.unreached,
    nodes: result.nodes,
    seconds: Math.round(result.seconds * 100) / 100,
    marked: marked ?? null,
    flagged,
  };
  report(opts.json, value, () => humanReport(value, result));
}

/** A flagged move as --json lists it: best and refutation in UCI, the line to it in SAN. */
function flaggedRow(m: AuditedMove) {
  const pos = at(m.position.fen);
  const move = parseUci(pos, m.uci);
  const san = move.ok ? makeSan(pos, move.value) : m.uci;
  return {
    fen: m.position.fen,
    uci: m.uci,
    san,
    games: m.games,
    weight: m.weight,
    loss: m.loss,
    best: m.best,
    refutation: m.refutation,
    depth: m.depth,
    ply: m.position.ply,
    line: uciLineToSan(at(m.position.root), [...m.position.line, m.uci], true),
  };
}

function at(fen: string): Position {
  const r = positionFromFen(fen);
  if (!r.ok) throw r.error;
  return r.value;
}

const pawns = (cp: number): string => (cp / 100).toFixed(2);

function humanReport(v: { flagged: ReturnType<typeof flaggedRow>[]; margin: number; depth?: number; nodes?: number; journal: string; marked: { marked: number; forbidden: number; chosen: string[] } | null; recovered: number | null; unreached: number | null }, r: AuditResult): string {
  const lines: string[] = [];
  if (v.flagged.length > 0) {
    const rows = v.flagged.map((f) => {
      const after = at(f.fen);
      const m = parseUci(after, f.uci);
      if (m.ok) after.play(m.value);
      return [f.line, f.games === null ? String(f.weight) : String(f.games), lossText(f.loss), uciLineToSan(at(f.fen), [f.best]), uciLineToSan(after, f.refutation.slice(0, 8))];
    });
    const head = ['line', r.format === '.bin' ? 'weight' : 'games', 'loss', 'best', 'refutation'];
    const width = head.map((h, i) => Math.max(h.length, ...rows.map((x) => x[i]!.length)));
    const fmt = (x: string[]): string => x.map((c, i) => (i === 1 || i === 2 ? c.padStart(width[i]!) : c.padEnd(width[i]!))).join('  ').trimEnd();
    lines.push(fmt(head), ...rows.map(fmt));
  }
  const limit = v.depth !== undefined ? `depth ${v.depth}` : `${v.nodes} nodes`;
  lines.push(
    `${r.positions.length} positions, ${r.moves.length} book moves checked (${limit}): ${v.flagged.length} lose more than ${pawns(v.margin)} pawns against the best move`,
    `searched ${r.searched} positions in ${r.seconds.toFixed(1)} s; ${r.fromJournal} were already in the journal ${v.journal} and were not searched again`,
  );
  if (v.recovered !== null && v.recovered > 0) lines.push(`${v.recovered} of the positions are reached by no book line from the start (games set up from a FEN, transpositions of rarer lines): set up from the book's games`);
  if (v.unreached !== null && v.unreached > 0) {
    lines.push(
      r.format === '.bin'
        ? `${v.unreached} stored positions above the thresholds cannot be reached from the start through book moves: not audited (a .bin keeps keys, not boards or games, so a position no book line leads to cannot be set up)`
        : `${v.unreached} stored positions above the thresholds are reached by no book line from the start and by none of the games the book keeps: not audited`,
    );
  }
  if (v.marked !== null) lines.push(`marked: ${v.marked.marked} verdicts written into the book, ${v.marked.forbidden} moves forbidden (the book policy never plays them)`);
  return lines.join('\n');
}
