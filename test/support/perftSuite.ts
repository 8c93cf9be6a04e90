/** Reads a perft suite of ../shared/data/suites: each position with its published counts by depth. */
import { readFileSync } from 'node:fs';
import { unwrap } from '../../src/core/result.js';
import { parseEpd, perftExpectations } from '../../src/notation/epd.js';

export function perftSuite(name: string): { fen: string; counts: Map<number, number> }[] {
  return readFileSync(new URL(`../../../../shared/data/suites/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const rec = unwrap(parseEpd(l));
      return { fen: rec.fen, counts: perftExpectations(rec) };
    });
}
