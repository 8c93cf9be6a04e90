/**
 * `tabiya uci`: the engine speaking UCI on stdin/stdout (what GUIs, match runners and
 * `tabiya match` start). The search runs on a worker thread; this loop only reads commands.
 */
import { createInterface } from 'node:readline';
import { WorkerHost } from '../../node/workerHost.js';
import { UciServer } from '../../protocol/uci/server.js';
import { configureV8ForSearch } from '../../node/v8flags.js';

export async function uciCommand(): Promise<void> {
  configureV8ForSearch();
  const host = new WorkerHost();
  const send = (line: string): void => {
    process.stdout.write(line + '\n');
  };
  host.onError = (message) => send(`info string ${message}`);
  const server = new UciServer(send, host);
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
