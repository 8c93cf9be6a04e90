/**
 * Where the browser tests save their screenshots, to be looked at: `TABIYA_SHOTS=DIR` keeps them
 * there (for example `TABIYA_SHOTS=/tmp/serve-shots node --test dist/test/serve-browser.test.js`);
 * without it they go to a temporary directory removed when the test file ends, so that a run of
 * the suite leaves nothing behind.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

let dir: string | undefined;

/** The screenshots' directory, made on first use. */
export function shotsDir(): string {
  if (dir !== undefined) return dir;
  const kept = process.env.TABIYA_SHOTS;
  if (kept !== undefined && kept !== '') {
    mkdirSync(kept, { recursive: true });
    dir = kept;
  } else {
    const made = mkdtempSync(`${tmpdir()}/tabiya-shots-`);
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    dir = made;
  }
  return dir;
}
