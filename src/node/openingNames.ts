/**
 * The opening names `tabiya serve` and `tabiya book probe` show: read from the table of named
 * positions (data/openings-by-key.tsv) in a few milliseconds, where replaying the list it is
 * made from (data/openings/, 3,807 lines) takes a few hundred. scripts/gen-openings.ts writes
 * the table from the list; test/openings.test.ts fails when the two differ.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OpeningIndex } from '../serve/openings.js';

/** The CC0 list of lichess-org/chess-openings: a.tsv .. e.tsv (data/README.md). */
export const OPENINGS_DIR = fileURLToPath(new URL('../../../data/openings/', import.meta.url));
/** The list replayed: each named position's Polyglot key, ECO code and name. */
export const OPENINGS_TABLE = fileURLToPath(new URL('../../../data/openings-by-key.tsv', import.meta.url));

/** The opening names, from the table of named positions. */
export function loadOpenings(file = OPENINGS_TABLE): OpeningIndex {
  const index = new OpeningIndex();
  index.addTable(readFileSync(file, 'utf8'), file);
  return index;
}

/** The opening names made from the list itself, every line replayed (what the table is written from). */
export function replayOpenings(dir = OPENINGS_DIR): OpeningIndex {
  const index = new OpeningIndex();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.tsv')).sort()) index.addTsv(readFileSync(join(dir, f), 'utf8'), join(dir, f));
  return index;
}
