/**
 * `tabiya uci`: the engine speaking UCI on stdin/stdout (what GUIs, match runners and
 * `tabiya match` start). The search runs on a worker thread; this loop only reads commands.
 * `--tunable` adds the search parameters as spin options (for `tabiya tune spsa`).
 */
import { WorkerHost } from '../../node/workerHost.js';
import { configureV8ForSearch } from '../../node/v8flags.js';

export async function uciCommand(opts: { tunable?: boolean } = {}): Promise<void> {
  configureV8ForSearch();
  // The search thread starts first, so that it starts up (Node, the engine's modules, the
  // WebAssembly core) while this thread loads the protocol's code: `readyok` comes sooner.
  const host = new WorkerHost();
  const { UciServer, serveLines } = await protocolCode(host, async () => ({ ...(await import('../../protocol/uci/server.js')), ...(await import('./engineLoop.js')) }));
  const send = (line: string): void => {
    process.stdout.write(line + '\n');
  };
  const tell = (message: string): void => send(`info string ${message}`);
  host.onError = tell;
  await serveLines(process.stdin, process.stdout, new UciServer(send, host, { tunable: opts.tunable === true }), host, tell);
}

/** The protocol's modules; the search thread is ended if they cannot be loaded, or it would keep the process alive. */
export async function protocolCode<T>(host: WorkerHost, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    host.close();
    throw e;
  }
}
