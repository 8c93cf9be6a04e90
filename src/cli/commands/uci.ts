/**
 * `tabiya uci`: the engine speaking UCI on stdin/stdout (what GUIs, match runners and
 * `tabiya match` start). The search runs on a worker thread; this loop only reads commands.
 * `--tunable` adds the search parameters as spin options (for `tabiya tune spsa`).
 */
import { WorkerHost } from '../../node/workerHost.js';
import { UciServer } from '../../protocol/uci/server.js';
import { configureV8ForSearch } from '../../node/v8flags.js';
import { serveLines } from './engineLoop.js';

export async function uciCommand(opts: { tunable?: boolean } = {}): Promise<void> {
  configureV8ForSearch();
  const host = new WorkerHost();
  const send = (line: string): void => {
    process.stdout.write(line + '\n');
  };
  const tell = (message: string): void => send(`info string ${message}`);
  host.onError = tell;
  await serveLines(process.stdin, process.stdout, new UciServer(send, host, { tunable: opts.tunable === true }), host, tell);
}
