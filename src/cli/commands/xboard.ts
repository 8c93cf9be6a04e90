/**
 * `tabiya xboard`: the engine speaking the xboard protocol (CECP v2) on stdin/stdout, for
 * XBoard, WinBoard and match runners that drive xboard engines.
 */
import { createInterface } from 'node:readline';
import { openBookForReading } from '../../node/engineBook.js';
import { WorkerHost } from '../../node/workerHost.js';
import { XboardServer } from '../../protocol/xboard/server.js';
import { configureV8ForSearch } from '../../node/v8flags.js';

export async function xboardCommand(): Promise<void> {
  configureV8ForSearch();
  const host = new WorkerHost();
  const send = (line: string): void => {
    process.stdout.write(line + '\n');
  };
  host.onError = (message) => send(`telluser ${message}`);
  const server = new XboardServer(send, host, { openBook: openBookForReading });
  const rl = createInterface({ input: process.stdin, terminal: false });
  await new Promise<void>((resolve) => {
    let closed = false;
    const finish = (): void => {
      if (closed) return;
      closed = true;
      host.close();
      rl.close();
      // After quit, stdin must not keep the process alive.
      process.stdin.destroy();
      resolve();
    };
    server.onQuit = finish;
    rl.on('line', (line) => server.receive(line));
    rl.on('close', finish);
  });
}
