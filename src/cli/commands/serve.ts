/**
 * `tabiya serve [book ...]`: the web opening explorer and book editor (docs/serve.md). Without
 * a book it serves the bundled one (data/tabiya.bin), building it first when it is missing.
 * Runs until Ctrl-C (SIGINT), SIGTERM or SIGHUP, then closes the server and the books.
 */
import { existsSync } from 'node:fs';
import { DEFAULT_BOOK, DEFAULT_BOOK_OPTIONS, DEFAULT_GAMES } from '../../book/node/defaultBook.js';
import { MAX_THREADS } from '../../engine/signals.js';
import { isLoopback } from '../../serve/loopback.js';
import { startServer } from '../../serve/server.js';
import { CliError, intOption } from '../errors.js';
import { onStopSignals, sayOnStderr, signalExitCode } from '../../node/stopSignals.js';
import { runBookMake } from './bookMake.js';

export interface ServeCliOptions {
  port?: string;
  host?: string;
  engineThreads?: string;
  importThreads?: string;
  readOnly?: boolean;
  quiet?: boolean;
}

export async function serveCommand(files: string[], opts: ServeCliOptions): Promise<void> {
  const port = intOption('--port', opts.port ?? '8080', 0, 65535)!;
  // 0: the page chooses (half the browser's logical cores, src/web/engineClient.ts).
  const engineThreads = opts.engineThreads === undefined || opts.engineThreads === 'auto' ? 0 : intOption('--engine-threads', opts.engineThreads, 1, MAX_THREADS)!;
  const importThreads = opts.importThreads === undefined || opts.importThreads === 'auto' ? undefined : intOption('--import-threads', opts.importThreads, 1, 64)!;
  const host = opts.host ?? '127.0.0.1';
  let books = files;
  if (books.length === 0) {
    if (!existsSync(DEFAULT_BOOK)) {
      // Once, on the first start: say why the page is not up yet, and what was built.
      const say = (line: string): void => void (opts.quiet || process.stderr.write(`tabiya serve: ${line}\n`));
      say(`no book named; building the bundled book ${DEFAULT_BOOK} from ${DEFAULT_GAMES} (once)`);
      const { summary: s } = await runBookMake([DEFAULT_GAMES], { output: DEFAULT_BOOK, maxPly: String(DEFAULT_BOOK_OPTIONS.maxPly), minGames: String(DEFAULT_BOOK_OPTIONS.minGame), threads: '1', quiet: opts.quiet, errors: '5' }, 'building the default book');
      say(`built ${s.output}: ${s.gamesUsed} games, ${s.entriesKept} entries, ${s.bytesWritten} bytes in ${s.seconds.toFixed(1)} s`);
    }
    books = [DEFAULT_BOOK];
  }
  for (const b of books) if (!/\.(bin|tbk)$/i.test(b)) throw new CliError(`${b}: not a book (.bin or .tbk)`, 2);
  let server;
  try {
    // TABIYA_SERVE_TOKEN sets the write token (a script that drives the API chooses it, as
    // JUPYTER_TOKEN does); never an option, which other accounts could read in the process list.
    const token = process.env.TABIYA_SERVE_TOKEN === undefined || process.env.TABIYA_SERVE_TOKEN === '' ? undefined : process.env.TABIYA_SERVE_TOKEN;
    server = await startServer({ books, port, host, readOnly: opts.readOnly, engineThreads, importThreads, token });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new CliError(`--port ${port}: the port is in use (choose another, or 0 for any free one)`, 1);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') throw new CliError(`--host ${host}: cannot listen there (${err.message})`, 1);
    throw e instanceof Error && typeof err.code === 'string' ? new CliError(err.message, 1) : e;
  }
  // Elsewhere than loopback the page travels in clear text (HTTP): whoever sees the address with its token can write.
  if (!isLoopback(host)) process.stderr.write(`warning: listening on ${host}: other machines can read the books${opts.readOnly ? '' : ', and change them with the address printed below, whose token travels unencrypted (HTTP)'}; requests must name the server by IP address or host name\n`);
  // Ctrl-C and SIGTERM are the way to stop a server: exit 0. SIGHUP (its terminal closed, its
  // ssh session dropped) closes it as cleanly, but it was not asked to stop: exit 129.
  let stoppedBy: NodeJS.Signals | undefined;
  const stopped = new Promise<void>((resolve) => {
    const stop = (sig: NodeJS.Signals): void => {
      stoppedBy = sig;
      offSignals();
      server.close().then((r) => {
        // Said even with --quiet: the operator must know the games were not counted.
        if (r.importCancelled !== undefined) sayOnStderr(`tabiya serve: ${r.importCancelled}\n`);
        resolve();
      }, (e: unknown) => {
        sayOnStderr(`tabiya serve: closing: ${(e as Error).message}\n`);
        resolve();
      });
    };
    const offSignals = onStopSignals(stop);
  });
  // The URL only once the signals are ours: a script that stops the server as soon as it reads
  // the URL would otherwise kill it by the signal's default action (exit by signal, not 0).
  process.stdout.write(`tabiya serve: ${server.pageUrl} (${server.books.map((b) => b.id).join(', ')}${opts.readOnly ? ', read-only' : ''}); Ctrl-C stops it\n`);
  await stopped;
  const hangup = stoppedBy === 'SIGHUP';
  if (!opts.quiet) sayOnStderr(`tabiya serve: stopped${hangup ? ' (SIGHUP: its terminal or session closed)' : ''}\n`);
  if (hangup) process.exitCode = signalExitCode('SIGHUP');
}
