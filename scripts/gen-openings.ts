/**
 * Writes data/openings-by-key.tsv, the table of named positions `tabiya serve` and `tabiya book
 * probe` read, from the opening list of data/openings/ (every line replayed). Run it after the
 * list changes; test/openings.test.ts fails while the committed table is out of date.
 *
 *   npm run gen:openings
 */
import { writeFileSync } from 'node:fs';
import { OPENINGS_DIR, OPENINGS_TABLE, replayOpenings } from '../src/node/openingNames.js';

const index = replayOpenings();
if (index.problems.length > 0) {
  process.stderr.write(`${OPENINGS_DIR}: lines that do not replay:\n${index.problems.join('\n')}\n`);
  process.exit(1);
}
writeFileSync(OPENINGS_TABLE, index.toTable());
process.stdout.write(`${OPENINGS_TABLE}: ${index.size} named positions\n`);
