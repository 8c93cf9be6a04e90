/**
 * The signals that stop a long-running command (`match`, `serve`, `book audit`, `tune spsa`,
 * `tune verify`) cleanly, and what is said and returned when one does.
 *
 * - SIGHUP is one of them, as SIGINT and SIGTERM are: a terminal window closed or an ssh session
 *   dropped sends it (to the terminal's foreground process group, and the shell sends it on to
 *   its jobs: bash(1), SIGNALS). By its default action the command died at once with no report
 *   and no word on how to go on; handled, it stops as on Ctrl-C.
 * - The exit status is 128 + the signal's number (130 SIGINT, 143 SIGTERM, 129 SIGHUP): what a
 *   shell reports for a process killed by that signal, so a script sees which one it was.
 * - After a hangup the terminal is gone: a write to it fails with EIO (or EPIPE for a pipe whose
 *   reader went with it). Such a failure must not turn a clean stop into a crash, so what is said
 *   on the way out goes through `sayOnStderr`, and the CLI keeps a listener on stderr's errors
 *   (`keepStderrErrorsQuiet`): a stream error without a listener is thrown as an uncaught
 *   exception.
 * - Node 20 restores the terminal's settings as it exits, and on a terminal that is gone that
 *   fails with EIO and Node aborts (SIGABRT, status 134, and a core dump where they are kept;
 *   SIGSEGV, 139, was seen too: nodejs/node#51519, fixed in later Node by nodejs/node#58200):
 *   after a hangup, and also at the end of a job that outlived its terminal without being sent
 *   SIGHUP (`cmd &` and a logout without huponexit, `disown`), its work done. Node skips a
 *   standard descriptor that is closed, so at exit (`closeVanishedTerminalsAtExit`) those that
 *   were a terminal at start and are one no longer (a hung-up terminal answers no terminal
 *   request) are closed: nothing could be written to them any more anyway, and a write after
 *   that fails as quietly as before.
 */
import { closeSync } from 'node:fs';
import { constants } from 'node:os';
import { isatty } from 'node:tty';

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit status of a command stopped by `sig`: 128 + its number (130, 143, 129). */
export function signalExitCode(sig: NodeJS.Signals): number {
  return 128 + (constants.signals[sig] ?? 2);
}

/** Listens to every stop signal with `fn`; returns what removes the listeners again. */
export function onStopSignals(fn: (sig: StopSignal) => void): () => void {
  for (const s of STOP_SIGNALS) process.on(s, fn);
  return () => {
    for (const s of STOP_SIGNALS) process.off(s, fn);
  };
}

let quiet = false;

/**
 * Standard error that cannot be written any more (a closed terminal: EIO; a reader gone: EPIPE)
 * has nobody left to tell: its errors are dropped instead of ending the process as an uncaught
 * exception. Called once by the CLI at start.
 */
export function keepStderrErrorsQuiet(): void {
  if (quiet) return;
  quiet = true;
  process.stderr.on('error', () => {
    // Nowhere left to say it.
  });
}

/** Writes `text` to stderr; a stderr that is gone (EIO, EPIPE, closed) is not an error here. */
export function sayOnStderr(text: string): void {
  keepStderrErrorsQuiet();
  try {
    process.stderr.write(text);
  } catch {
    // A write that throws at once (a destroyed stream): nobody to tell.
  }
}

/** Ends the process after it was stopped by `sig` and has cleaned up and reported: exit(128 + n). */
export function exitAfterSignal(sig: NodeJS.Signals): never {
  process.exit(signalExitCode(sig));
}

const STDIO = [0, 1, 2];
let terminalsAtStart: boolean[] | undefined;

/**
 * Closes, as the process exits, the standard descriptors that were a terminal when it started
 * and are one no longer (see above). Called once by the CLI at start: it records which were.
 */
export function closeVanishedTerminalsAtExit(): void {
  if (terminalsAtStart !== undefined) return;
  terminalsAtStart = STDIO.map((fd) => isatty(fd));
  process.on('exit', closeVanishedTerminals);
}

function closeVanishedTerminals(): void {
  for (const fd of STDIO) {
    if (!terminalsAtStart?.[fd] || isatty(fd)) continue;
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  }
}
