/**
 * The input loop `tabiya uci` and `tabiya xboard` share: every line read goes to the protocol
 * server in order, and the end of the input is handed to it too, so that commands piped in
 * (`printf 'uci\nisready\ngo depth 10\n' | tabiya uci`) are all answered, searches included,
 * before the process ends. The loop ends when the server has quit.
 *
 * A failed search thread is an internal error: the server could never answer again, so the
 * loop ends with exit code 70 rather than leave a GUI or script waiting for ever (exit code 1
 * when the thread found no memory under an address-space limit). Output that
 * cannot be written (the GUI closed its end of the pipe) ends the loop with exit code 1 and a
 * one-line message, not a stack trace.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { CliError } from '../errors.js';
import { ioReason } from '../../book/node/atomicWrite.js';
import { wasmMemoryAdvice } from '../../node/addressSpace.js';

/** What the loop needs from a protocol server (UciServer, XboardServer). */
export interface LineServer {
  receive(line: string): void;
  endOfInput(): void;
  onQuit?: () => void;
}

/** What the loop needs from the engine host (WorkerHost). */
export interface LoopHost {
  close(): void;
  onFatal?: (message: string) => void;
}

/**
 * Feeds `input` to `server` line by line until it quits. `output` is where the server writes
 * (watched for errors); `tell` writes a message in the protocol's form (UCI `info string`,
 * xboard `tellusererror`).
 */
export function serveLines(input: Readable, output: Writable, server: LineServer, host: LoopHost, tell: (message: string) => void): Promise<void> {
  const rl = createInterface({ input, terminal: false });
  return new Promise<void>((resolve, reject) => {
    let over = false;
    const finish = (error?: Error): void => {
      if (over) return;
      over = true;
      host.close();
      rl.close();
      // After quit, the input must not keep the process alive.
      input.destroy();
      if (error) reject(error);
      else resolve();
    };
    server.onQuit = () => finish();
    host.onFatal = (message) => {
      // No memory for the WebAssembly engine under an address-space limit: the machine's
      // setting, said with what to do (addressSpace.ts), not an internal error.
      const advice = wasmMemoryAdvice(message);
      tell(advice ?? message);
      finish(advice !== undefined ? new CliError(`${advice}; the engine cannot go on`, 1) : new CliError(`${message}; the engine cannot go on (internal error)`, 70));
    };
    output.on('error', (e: Error) => finish(new CliError(`cannot write to the GUI: ${ioReason(e)}; the engine stops`, 1)));
    rl.on('line', (line) => server.receive(line));
    rl.on('close', () => {
      if (!over) server.endOfInput();
    });
  });
}
