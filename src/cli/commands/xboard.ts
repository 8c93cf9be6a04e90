/**
 * `tabiya xboard`: the engine speaking the xboard protocol (CECP v2) on stdin/stdout, for
 * XBoard, WinBoard and match runners that drive xboard engines.
 */
import { WorkerHost } from '../../node/workerHost.js';
import { configureV8ForSearch } from '../../node/v8flags.js';
import type { LineServer } from './engineLoop.js';
import { protocolCode } from './uci.js';

type OpenBook = typeof import('../../node/engineBook.js').openBookForReading;

export async function xboardCommand(): Promise<void> {
  configureV8ForSearch();
  // The search thread starts first (as in uci.ts): `feature done=1` comes sooner.
  const host = new WorkerHost();
  const { XboardServer, serveLines } = await protocolCode(host, async () => ({ ...(await import('../../protocol/xboard/server.js')), ...(await import('./engineLoop.js')) }));
  const send = (line: string): void => {
    process.stdout.write(line + '\n');
  };
  host.onError = (message) => send(`telluser ${message}`);
  let openBook: OpenBook | undefined;
  const server = new XboardServer(send, host, { openBook: (path) => openBook!(path) });
  const loadBookReader = async (): Promise<void> => {
    try {
      openBook = (await import('../../node/engineBook.js')).openBookForReading;
    } catch (e) {
      // bk and hint answer with the reason, as for a book that cannot be read.
      openBook = () => {
        throw e;
      };
    }
  };
  await serveLines(process.stdin, process.stdout, holdUntilLoaded(server, (line) => openBook === undefined && /^(bk|hint)$/.test(line.trim().split(/\s/, 1)[0]!), loadBookReader), host, (message) => send(`tellusererror ${message}`));
}

/**
 * `server`, except that a line for which `needs` is true waits for `load` (which must not fail),
 * and the lines after it wait with it, so that they are all answered in order. The book reader
 * of `bk` and `hint` (the .tbk and Polyglot readers, with zlib and the PGN parser) is loaded this
 * way, when first asked for, not before the engine answers `protover`.
 */
export function holdUntilLoaded(server: LineServer, needs: (line: string) => boolean, load: () => Promise<void>): LineServer {
  let held: string[] | undefined;
  let ended = false;
  const front: LineServer = {
    receive(line: string): void {
      if (held) held.push(line);
      else if (!needs(line)) server.receive(line);
      else {
        const lines = (held = [line]);
        void load().then(() => {
          held = undefined;
          for (const l of lines) server.receive(l);
          if (ended) server.endOfInput();
        });
      }
    },
    endOfInput(): void {
      if (held) ended = true;
      else server.endOfInput();
    },
  };
  Object.defineProperty(front, 'onQuit', { get: () => server.onQuit, set: (f: () => void) => (server.onQuit = f) });
  return front;
}
