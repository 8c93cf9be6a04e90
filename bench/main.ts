/**
 * `npm run bench -- <name> [args]`: runs bench/<name>.bench.js. Every benchmark prints our
 * figure and the anchor's, measured in the same run, and their ratio.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .map((f) => f.slice(0, -'.bench.js'.length));
const name = process.argv[2];
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${available.join('|')}> [args]\n`);
  process.exitCode = 2;
} else {
  const file = join(here, `${name}.bench.js`);
  if (existsSync(file)) {
    const mod = (await import(pathToFileURL(file).href)) as { main(args: string[]): Promise<void> | void };
    await mod.main(process.argv.slice(3));
  }
}
