/**
 * Starting and stopping `tabiya serve`: opens the books, reads the opening list and the built
 * page (dist/web, made by `npm run build:web`), listens, and closes everything on request.
 */
import { randomBytes } from 'node:crypto';
import { defaultThreads } from '../book/node/makeBook.js';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, stopImport, type Asset } from './app.js';
import { ServedBook, bookIds } from './library.js';
import { isLoopback } from './loopback.js';
import { loadOpenings } from '../node/openingNames.js';

export { loadOpenings };

const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
const WASM_DIR = fileURLToPath(new URL('../../wasm/', import.meta.url));
/** The engine builds the page runs: one thread, and the shared build of several (Lazy SMP). */
const WASM_BUILDS = ['core.wasm', 'core-shared.wasm'];

/** How long a stop waits for requests under way before it ends their connections (ms). */
const CLOSE_GRACE_MS = 2000;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.map': 'application/json',
};

export interface ServeOptions {
  books: readonly string[];
  port: number;
  host: string;
  readOnly?: boolean;
  engineThreads?: number;
  /** Threads that replay a .tbk's games when an import adds to it (default: one per core, as `book add --threads auto`). */
  importThreads?: number;
  /** The fewest games a replay thread takes (book add's default; tests lower it). */
  replayThreadGames?: number;
  /** The write token (default: random at every start). */
  token?: string;
}

export interface RunningServer {
  /** The server's address (for the API). */
  url: string;
  /** The page's address with the write token (`?token=`): the one to open to edit; `url` when read-only. */
  pageUrl: string;
  /** The token writes must carry (X-Tabiya-Token). */
  token: string;
  app: FastifyInstance;
  books: ServedBook[];
  /** Stops the server; resolves with what to tell its operator of an import it cancelled. */
  close(): Promise<{ importCancelled?: string }>;
}

/** The built page's files, by name, read once (empty when the page was not built). */
export function loadAssets(dir = WEB_DIR): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type !== undefined) assets.set(name, { type, body: readFileSync(join(dir, name)) });
  }
  for (const name of WASM_BUILDS) {
    const file = join(WASM_DIR, name);
    if (existsSync(file)) assets.set(name, { type: TYPES['.wasm']!, body: readFileSync(file) });
  }
  return assets;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const ids = bookIds(opts.books);
  const books: ServedBook[] = [];
  try {
    for (let i = 0; i < opts.books.length; i++) books.push(await ServedBook.open(ids[i]!, opts.books[i]!));
  } catch (e) {
    for (const b of books) await b.close();
    throw e;
  }
  const token = opts.token ?? randomBytes(18).toString('base64url');
  const app = buildApp({
    books,
    openings: loadOpenings(),
    assets: loadAssets(),
    readOnly: opts.readOnly,
    engineThreads: opts.engineThreads,
    importThreads: opts.importThreads ?? defaultThreads(),
    replayThreadGames: opts.replayThreadGames,
    token,
    loopbackOnly: isLoopback(opts.host),
    // Elsewhere: IP addresses, and the names of this machine (a name of the user's own DNS: --host it).
    hostNames: [...new Set([hostname().toLowerCase(), `${hostname().toLowerCase()}.local`, ...(isIP(opts.host) === 0 ? [opts.host.toLowerCase()] : [])])],
  });
  // A browser opens connections ahead of need (preconnects) and may never send a request on
  // them. Node's server.close() ends idle keep-alive connections but waits for those, so a
  // stop would wait until the browser drops them (Chromium keeps an unused socket 10 s or
  // more): they are ended at once when the server closes.
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (req: IncomingMessage) => unused.delete(req.socket));
  try {
    await app.listen({ port: opts.port, host: opts.host });
  } catch (e) {
    for (const b of books) await b.close();
    throw e;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : opts.port;
  const url = `http://${addressToOpen(opts.host, hostname())}:${port}/`;
  return {
    url,
    pageUrl: opts.readOnly ? url : `${url}?token=${encodeURIComponent(token)}`,
    token,
    app,
    books,
    async close() {
      // First, while the page can still poll it: an import running is cancelled, and its job says so.
      const importCancelled = await stopImport(app);
      const closed = app.close();
      for (const socket of unused) socket.destroy();
      // Requests under way may finish; past the grace period their connections are cut.
      const cut = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      try {
        await closed;
      } finally {
        clearTimeout(cut);
      }
      for (const b of books) await b.close();
      return importCancelled === undefined ? {} : { importCancelled };
    },
  };
}

/**
 * The host part of the address to open. A wildcard (0.0.0.0, ::) is where the server listens,
 * not an address to open: another machine cannot reach it, and browsers are closing it to
 * pages (Chromium refuses 0.0.0.0 from public pages). It is named by the machine's name, as
 * Jupyter's server prints it, which the Host check accepts; an IPv6 literal is bracketed (RFC 3986 §3.2.2).
 */
export function addressToOpen(host: string, machine: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return machine.toLowerCase();
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
