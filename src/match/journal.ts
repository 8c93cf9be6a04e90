/**
 * The match journal behind `--resume` (match-runner.md §3 items 6–7): a JSON-lines file next
 * to the PGN. Line 1 holds the match's identity (everything that decides which games are
 * played and how, including the seed); every later line is one finished game with the PGN's
 * size after that game was appended. The journal line is written after the PGN text, so on
 * resume the PGN is cut back to the last journaled size: the two always agree, and a game cut
 * off by a crash is simply played again. A match that ran to its end (every game, or an SPRT
 * decision) closes the journal with an end line; a journal without one is a match to resume,
 * and a new match refuses to overwrite it.
 */
import type { GameTimeUse } from './timeUse.js';

export interface JournalHeader {
  type: 'match';
  version: 1;
  /** The schedule-relevant configuration; a resume must present the same. */
  identity: Record<string, unknown>;
  seed: number;
  /** Size of the PGN file when the match started (it is appended to, as cutechess does). */
  pgnStart: number;
}

export interface JournalGame {
  type: 'game';
  number: number;
  result: string;
  reason: string;
  termination: string;
  /** The color and kind of a fault, for the per-player counters. */
  fault?: { color: number; kind: string };
  /** White's and Black's time use, for the report after a resume. */
  time?: [GameTimeUse, GameTimeUse];
  pgnBytes: number;
}

export interface JournalEnd {
  type: 'end';
  /** How the match ended (MatchOutcome.stopped). */
  stopped: string;
  games: number;
}

export interface Journal {
  header: JournalHeader;
  games: JournalGame[];
  /** Set when the match ran to its end. */
  end?: JournalEnd;
}

const RESULTS = ['1-0', '0-1', '1/2-1/2'];

/** One record as a journal line. */
export function journalLine(r: JournalHeader | JournalGame | JournalEnd): string {
  return JSON.stringify(r) + '\n';
}

/** Reads a journal; a torn last line (crash mid-write) is ignored, any other bad line is an error naming it. */
export function parseJournal(text: string, file: string): Journal {
  const lines = text.split('\n');
  const header = parseLine(lines[0] ?? '', file, 1);
  if (!header || header.type !== 'match') throw new Error(`${file}:1: not a tabiya match journal`);
  const count = (x: unknown, max = Number.MAX_SAFE_INTEGER): boolean => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= max;
  if (typeof header.identity !== 'object' || header.identity === null || !count(header.seed, 2 ** 32 - 1) || !count(header.pgnStart)) {
    throw new Error(`${file}:1: the match header lacks its identity, seed or PGN start`);
  }
  let pgnBytes = header.pgnStart as number;
  const games: JournalGame[] = [];
  let end: JournalEnd | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const rec = parseLine(line, file, i + 1, i === lines.length - 1);
    if (rec === undefined) continue;
    if (rec.type === 'end' && typeof rec.stopped === 'string') {
      end = rec as unknown as JournalEnd;
      continue;
    }
    if (rec.type !== 'game' || !count(rec.number) || rec.number === 0 || !count(rec.pgnBytes)) throw new Error(`${file}:${i + 1}: not a game record`);
    if (!RESULTS.includes(rec.result as string)) throw new Error(`${file}:${i + 1}: game ${rec.number} has no result (${JSON.stringify(rec.result)})`);
    // Games are journaled as their PGN text is appended: the PGN only grows.
    if ((rec.pgnBytes as number) < pgnBytes) throw new Error(`${file}:${i + 1}: game ${rec.number} ends at PGN byte ${rec.pgnBytes}, before the previous game's end (${pgnBytes})`);
    pgnBytes = rec.pgnBytes as number;
    games.push(rec as unknown as JournalGame);
  }
  const journal: Journal = { header: header as unknown as JournalHeader, games };
  if (end) journal.end = end;
  return journal;
}

function parseLine(line: string, file: string, lineNo: number, lastLine = false): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    if (lastLine) return undefined;
    throw new Error(`${file}:${lineNo}: unreadable journal line`);
  }
}

/**
 * A field one identity has and the other lacks, or undefined: the same match always writes the
 * same fields, so this is a damaged header (a flipped byte in a name) or another version's.
 */
export function identityFieldsDiff(journal: Record<string, unknown>, ours: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(journal)) if (!(k in ours)) return `it has a field "${k}" that a match never writes`;
  for (const k of Object.keys(ours)) if (!(k in journal)) return `it lacks the field "${k}"`;
  return undefined;
}

/**
 * The first field in which two identities differ, or undefined. The fields named in `unordered`
 * hold `key=value` lists (`--sprt elo0=0 elo1=5`) whose order on the command line means nothing:
 * they are compared as sets of pairs.
 */
export function identityDiff(a: Record<string, unknown>, b: Record<string, unknown>, unordered: readonly string[] = []): string | undefined {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const canonical = (k: string, v: unknown): string =>
    JSON.stringify(unordered.includes(k) && Array.isArray(v) ? v.map((pair) => JSON.stringify(pair)).sort() : v);
  for (const k of keys) {
    if (canonical(k, a[k]) !== canonical(k, b[k])) return k;
  }
  return undefined;
}
