/**
 * `tabiya xboard`: the engine speaking the xboard protocol (CECP v2) on stdin/stdout, for
 * XBoard, WinBoard and match runners that drive xboard engines.
 */
import { openBookForReading } from '../../node/engineBook.js';
import { WorkerHost } from '../../node/workerHost.js';
import { XboardServer } from '../../protocol/xboard/server.js';
import { configureV8ForSearch } from '../../node/v8flags.js';
import { serveLines } from './engineLoop.js';

export async function xboardCommand(): Promise<void> {
  configureV8ForSearch();
  const host = new WorkerHost();
  const send = (line: string): void => {
    process.stdout.write(line + '\n');
  };
  host.onError = (message) => send(`telluser ${message}`);
  const server = new XboardServer(send, host, { openBook: openBookForReading });
  await serveLines(process.stdin, process.stdout, server, host, (message) => send(`tellusererror ${message}`));
}
