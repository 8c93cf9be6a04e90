#!/usr/bin/env node
/**
 * The `tabiya` command. Subcommands are declared here in one table and loaded lazily, so
 * `--help` and small commands start fast. This is the only place that exits the process.
 */
import { Command, CommanderError } from 'commander';
import { CliError } from './errors.js';
import { registerCommands } from './registry.js';
import { ioReason } from '../book/node/atomicWrite.js';
import { wasmMemoryAdvice } from '../node/addressSpace.js';
import { closeVanishedTerminalsAtExit, keepStderrErrorsQuiet } from '../node/stopSignals.js';

export function buildProgram(): Command {
  const program = new Command('tabiya')
    .description('Chess engine and opening-book toolkit')
    .version('0.1.0')
    .showHelpAfterError()
    // Wrap descriptions even beside long command names (`book`'s list), not only past 40 columns.
    .configureHelp({ minWidthToWrap: 20 })
    .exitOverride();
  registerCommands(program);
  return program;
}

// A reader that goes away (`tabiya ... | head`) closes stdout: say so once and exit 1, rather
// than die with a stack trace or, when the error arrives late, exit 0. A command that watches
// stdout itself (the engine loop, which tells the GUI's side in its own words) says it instead.
// A command stopped by a signal keeps its 128 + n: after a hangup the terminal is gone, and the
// report written to it fails too (EIO), which is not what ended the command.
let stdoutFailed = false;
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (!stdoutFailed && process.stdout.listenerCount('error') === 1) process.stderr.write(`tabiya: standard output: cannot write: ${ioReason(e)}\n`);
  stdoutFailed = true;
  if (!(Number(process.exitCode ?? 0) > 128)) process.exitCode = 1;
});
// Nor does a standard error that is gone (a closed terminal, a reader that went away) end a
// command with an uncaught exception: there is nobody left to tell; nor a terminal gone by the
// time the process exits, which Node 20 aborts on (src/node/stopSignals.ts).
keepStderrErrorsQuiet();
closeVanishedTerminalsAtExit();

/** Prints an error; a failed standard output is reported once, whichever side saw it first. */
function sayError(message: string): void {
  if (message.startsWith('standard output: cannot write')) {
    if (stdoutFailed) return;
    stdoutFailed = true;
  }
  process.stderr.write(`tabiya: ${message}\n`);
}

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof CliError) {
      sayError(e.message);
      return e.exitCode;
    }
    if (e instanceof Error && 'code' in e && typeof (e as { code: unknown }).code === 'string' && /^(ERR_|E[A-Z]+$)/.test((e as { code: string }).code)) {
      // Parse errors and file-system errors carry a code and a message that names the input.
      sayError(e.message);
      return 1;
    }
    // The engine's memory refused by an address-space limit is the machine's setting, not a bug.
    const advice = e instanceof Error ? wasmMemoryAdvice(e.message) : undefined;
    if (advice !== undefined) {
      sayError(advice);
      return 1;
    }
    process.stderr.write(`tabiya: internal error, please report it with the command line:\n${e instanceof Error ? e.stack : String(e)}\n`);
    return 70;
  }
}

const code = await main(process.argv);
// Let pending stdout writes drain before exiting.
process.exitCode = code === 0 && stdoutFailed ? 1 : code;
