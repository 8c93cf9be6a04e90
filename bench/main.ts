/**
 * `npm run bench -- <name> [args]`: runs bench/<name>.bench.js. Every benchmark prints our
 * figure and the anchor's, measured in the same run, and their ratio. `npm run bench -- <name>
 * --help` lists its options; a bad one stops it before it starts, with exit status 2
 * (bench/args.ts).
 *
 * Every run also prints the machine's load average before and after it (standard error), and a
 * warning when the machine was not idle: wall-clock figures and the ratios between two programs
 * then depend on what else ran, and are not to be quoted as the program's.
 */
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from './args.js';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .map((f) => f.slice(0, -'.bench.js'.length));
const name = process.argv[2];
/** A one-minute load average at or above this at the start is a busy machine. */
const BUSY = 1;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

if (!name || !available.includes(name)) {
  if (name && name !== '--help' && name !== '-h') process.stderr.write(`bench: no benchmark named "${name}"\n`);
  process.stderr.write(`usage: npm run bench -- <${available.join('|')}> [args]\n`);
  process.exitCode = 2;
} else {
  const file = join(here, `${name}.bench.js`);
  if (existsSync(file)) {
    const before = loadavg()[0]!;
    process.stderr.write(`bench ${name}: load average at the start ${load()} on ${availableParallelism()} cores\n`);
    const mod = (await import(pathToFileURL(file).href)) as { main(args: string[]): Promise<void> | void };
    try {
      await mod.main(process.argv.slice(3));
    } catch (e) {
      if (e instanceof UsageError) {
        // A bad command line (bench/args.ts), before any work: the message and the usage, or the help.
        (e.exitCode === 0 ? process.stdout : process.stderr).write(e.text);
        process.exitCode = e.exitCode;
      } else {
        const code = e instanceof Error && 'code' in e ? (e as { code: unknown }).code : undefined;
        if (code === 'ENOENT') {
          // Most often the project's test data, which the default inputs read from beside the clone.
          process.stderr.write(
            `bench ${name}: ${(e as Error).message}\n` +
              `bench ${name}: the default inputs are read from ../shared/data beside the clone (README.md), or name an input of your own (the usage at the top of bench/${name}.bench.ts)\n`,
          );
        } else {
          process.stderr.write(`bench ${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
        }
        process.exitCode = 1;
      }
    }
    const after = loadavg()[0]!;
    process.stderr.write(`bench ${name}: load average at the end ${load()}\n`);
    // The start decides: at the end the benchmark's own processes are in the average too.
    if (before >= BUSY && process.exitCode === undefined) {
      process.stderr.write(
        `bench ${name}: warning: the machine was busy (load average ${before.toFixed(2)} at the start, ${after.toFixed(2)} at the end): ` +
          `wall-clock figures, and the ratios between programs, depend on the load; quote figures from an idle machine\n`,
      );
    }
  }
}
