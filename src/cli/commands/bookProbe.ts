/**
 * `tabiya book probe BOOK [--fen F] [--moves "e2e4 e7e5"]`: the book moves of a position with
 * weight, share and learn data, in SAN and UCI. Books too large for memory are searched on
 * disk. With --choose, one move is also picked by policy (seeded with --seed). The opening's
 * ECO code and name come first (data/openings-by-key.tsv, src/serve/openings.ts).
 */
import { openBook } from '../../book/node/openBook.js';
import { chooseMove, seededRandom, type BookMove, type Policy } from '../../book/polyglot/select.js';
import { splitLearn } from '../../book/polyglot/format.js';
import type { Position } from '../../core/position.js';
import { keyToHex } from '../../core/zobrist.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../../notation/fen.js';
import { makeSan } from '../../notation/san.js';
import { playMoveList } from '../../notation/moveList.js';
import { readJournal, type JournalRecord } from '../../book/node/auditJournal.js';
import { lossText } from '../../book/audit/verdict.js';
import { existsSync } from 'node:fs';
import { loadOpenings } from '../../node/openingNames.js';
import type { Opening } from '../../serve/openings.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';

export interface BookProbeCliOptions {
  fen?: string;
  moves?: string;
  minWeight?: string;
  choose?: string;
  seed?: string;
  json?: boolean;
}

/** The position of --fen plus --moves (UCI or SAN), or a usage error naming the bad part. */
export function positionOf(fen: string | undefined, moves: string | undefined): Position {
  return lineOf(fen, moves).pos;
}

/**
 * The probed position and its opening: the deepest named position of --fen and the positions
 * --moves lead to, as the Lichess site names a game (null when none is named).
 */
export function probedPosition(fen: string | undefined, moves: string | undefined): { pos: Position; opening: Opening | null } {
  const { start, played, pos } = lineOf(fen, moves);
  return { pos, opening: loadOpenings().along(start, played) ?? null };
}

function lineOf(fen: string | undefined, moves: string | undefined): { start: Position; played: number[]; pos: Position } {
  const r = positionFromFen(fen ?? STARTING_FEN);
  if (!r.ok) throw new CliError(`--fen: ${r.error.message}`, 2);
  const start = r.value.clone();
  const played = playMoveList(r.value, moves ?? '');
  if (!played.ok) throw new CliError(`--moves: ${played.error.message}`, 2);
  return { start, played: played.value, pos: r.value };
}

/** The opening line of probe's text: ECO code and name, as the Lichess site shows them. */
export function openingLine(opening: Opening | null): string[] {
  return opening === null ? [] : [`opening: ${opening.eco} ${opening.name}`];
}

export async function bookProbeCommand(file: string, opts: BookProbeCliOptions): Promise<void> {
  const { pos, opening } = probedPosition(opts.fen, opts.moves);
  const minWeight = intOption('--min-weight', opts.minWeight ?? '1', 0, 65535)!;
  const policy = opts.choose as Policy | undefined;
  if (policy !== undefined && policy !== 'best' && policy !== 'weighted' && policy !== 'uniform') {
    throw new CliError(`--choose: "${opts.choose}" is not best, weighted or uniform`, 2);
  }
  let moves: BookMove[];
  let warnings: readonly string[];
  // Moves the book holds here under --min-weight (weight 0 by default): named, not a bare "no book moves".
  let hidden = 0;
  try {
    const book = await openBook(file);
    warnings = book.warnings;
    moves = await book.moves(pos, { minWeight });
    if (minWeight > 0) hidden = (await book.moves(pos, { minWeight: 0 })).length - moves.length;
    await book.close();
  } catch (e) {
    throw e instanceof Error && 'code' in e ? new CliError(e.message, 1) : e;
  }
  const key = keyToHex(pos.keyHi, pos.keyLo);
  const audited = auditOf(file, key, opts.json);
  if (!opts.json) for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
  const total = moves.reduce((n, m) => n + m.weight, 0);
  const rows = moves.map((m) => {
    const learn = splitLearn(m.learn);
    return {
      uci: m.uci,
      san: makeSan(pos, m.move),
      weight: m.weight,
      share: total > 0 ? Math.round((1000 * m.weight) / total) / 10 : 0,
      learn: m.learn,
      learnGames: learn.games,
      learnPoints: learn.points,
      entry: m.index,
      // A .bin keeps no notes: `book audit` verdicts come from its journal beside the book.
      audit: verdictOf(audited, m.uci),
    };
  });
  const seed = intOption('--seed', opts.seed, 0);
  const chosen = policy === undefined ? undefined : chooseMove(moves, { policy, random: seed === undefined ? Math.random : seededRandom(seed) });
  const fen = makeFen(pos);
  const out: Record<string, unknown> = { fen, key, opening, moves: rows, totalWeight: total, hidden };
  if (policy !== undefined) out.chosen = chosen === undefined ? null : { uci: chosen.uci, san: makeSan(pos, chosen.move), policy };
  report(opts.json, out, () => {
    const lines = [`${fen}  (key ${key})`, ...openingLine(opening)];
    if (rows.length === 0) lines.push('no book moves');
    if (hidden > 0) lines.push(`${hidden} move${hidden === 1 ? '' : 's'} of weight below ${minWeight} not shown (--min-weight 0 shows ${hidden === 1 ? 'it' : 'them'})`);
    if (rows.length > 0) {
      const withAudit = rows.some((r) => r.audit !== null);
      lines.push(`move     uci     weight   share${withAudit ? '   audit' : ''}  learn`);
      for (const r of rows) {
        const learn = r.learn === 0 ? '' : `${r.learnGames} games, ${r.learnPoints / 2} points`;
        const audit = withAudit ? ` ${(r.audit === null ? '' : lossText(r.audit.loss)).padStart(7)}` : '';
        lines.push(`${r.san.padEnd(8)} ${r.uci.padEnd(6)} ${String(r.weight).padStart(7)} ${r.share.toFixed(1).padStart(6)}%${audit}  ${learn}`.trimEnd());
      }
      if (withAudit) lines.push(`audit: pawns (or a mate) the move loses against the engine's best move, from ${file}.audit (book audit)`);
    }
    if (policy !== undefined) lines.push(chosen === undefined ? `chosen (${policy}): none` : `chosen (${policy}): ${makeSan(pos, chosen.move)}`);
    return lines.join('\n');
  });
}

/** The verdicts `book audit` journaled for this position beside the book, if any (a journal that cannot be read is skipped, with a warning). */
function auditOf(file: string, key: string, quiet?: boolean): JournalRecord | undefined {
  const path = `${file}.audit`;
  if (!existsSync(path)) return undefined;
  try {
    return readJournal(path).done.get(key);
  } catch (e) {
    if (!quiet) process.stderr.write(`warning: ${(e as Error).message}; no audit verdicts shown\n`);
    return undefined;
  }
}

function verdictOf(record: JournalRecord | undefined, uci: string): { loss: number; best: string; depth: number; refutation: string[] } | null {
  const v = record?.moves.find((m) => m.uci === uci);
  return v === undefined || record === undefined ? null : { loss: v.loss, best: record.best, depth: v.depth, refutation: v.refutation };
}
