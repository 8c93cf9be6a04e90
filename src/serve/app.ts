/**
 * The HTTP side of `tabiya serve`: one page with its bundled assets, and a JSON API over the
 * books named on the command line (docs/serve.md). Built on fastify for its JSON-schema
 * validation of every query and body, its body limit (413) and its speed.
 *
 * Security: a request names a book by id and an asset by a fixed name, both looked up in maps
 * made at start-up, so no request path reaches the file system. Writes need the token the page
 * carries (a same-origin secret: another site can neither read the page nor send the header
 * without a CORS preflight, which is never granted) and a matching Origin when the browser
 * sends one; `--read-only` refuses them all. On a loopback address the Host header must name
 * loopback too, which stops DNS-rebinding pages from reading the API.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { fastify, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Position } from '../core/position.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import type { BookPolicyConfig } from '../book/select/index.js';
import { parseSan } from '../notation/san.js';
import { parseUci } from '../notation/uci.js';
import { PolicyError } from '../book/select/options.js';
import { POLICY_KINDS } from '../book/select/config.js';
import { explorerAnswer } from './explorer.js';
import { EditError, ImportCancelled, policyOf, type NotePatch, type ServedBook } from './library.js';
import type { Opening, OpeningIndex } from './openings.js';
import { hostIsLoopback } from './loopback.js';
import { ResponseCache } from './responseCache.js';
import { subtreeBin, subtreePgn, walkSubtree } from './subtree.js';
import { COMMENT_MAX, commentProblem, commentText } from '../book/rich/noteText.js';

/** A file the server hands out: its bytes and content type. */
export interface Asset {
  type: string;
  body: Buffer | string;
}

export interface AppOptions {
  books: readonly ServedBook[];
  openings: OpeningIndex;
  /** name → asset (index.html is the page; its `%TOKEN%` and `%CONFIG%` are filled in). */
  assets: ReadonlyMap<string, Asset>;
  readOnly?: boolean;
  /** Search threads of the page's engine (0: the page chooses from the browser's cores). */
  engineThreads?: number;
  /** Threads that replay a .tbk's games when an import adds to it (default 1; startServer: one per core). */
  importThreads?: number;
  /** The fewest games a replay thread takes (book add's default; tests lower it). */
  replayThreadGames?: number;
  /** Largest request body in bytes (default 64 KiB). */
  bodyLimit?: number;
  /** The longest a request may take to arrive, headers and body, in ms (default REQUEST_TIMEOUT_MS). */
  requestTimeout?: number;
  /**
   * The token writes must carry (default: random). The page carries it only when it is opened
   * with `?token=` (the address `tabiya serve` prints), as Jupyter's server does: another
   * account of the machine can open the page on 127.0.0.1 but not learn the token.
   */
  token?: string;
  /** Check that Host names a loopback address (true when bound to loopback). */
  loopbackOnly?: boolean;
  /**
   * Bound elsewhere: the host names a request may carry in Host besides IP addresses and
   * localhost (the machine's name). Any other name is refused: it is one another site can
   * point at this server (DNS rebinding), which could then read the page and its token.
   */
  hostNames?: readonly string[];
}

/** Request errors: a status and a message for `{error}`. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const FEN = { type: 'string', maxLength: 120 } as const;
const PLAY = { type: 'string', maxLength: 6000, pattern: '^[a-h1-8qrbnQRBN,]*$' } as const;
const BOOK = { type: 'string', maxLength: 200 } as const;
const MOVE = { type: 'string', minLength: 2, maxLength: 8 } as const;

/** Moves an exported subtree holds at most (a request stays bounded in time and size). */
const EXPORT_BUDGET = 20_000;

/** The largest PGN text an import takes (bigger collections: tabiya book make -o X.tbk). */
const IMPORT_LIMIT = 32 * 1024 * 1024;

/**
 * The longest a request may take to arrive, body included: Node's own default for
 * `server.requestTimeout` (5 minutes, nodejs.org/api/http.html#serverrequesttimeout), which
 * Fastify turns off (its `requestTimeout` defaults to 0, and its docs ask for a bound where no
 * proxy stands in front, as here). Without one, a client holding the token could keep a
 * connection by sending a body a byte at a time. Five minutes cut no real import: the largest
 * (IMPORT_LIMIT, 32 MiB) arrives in well under a second on loopback and within the bound over
 * any link faster than about 1 Mbit/s (--host); a JSON edit is at most 64 KiB.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/** A request that announces a body (Content-Length above 0, or chunked: RFC 9112 6.3). */
const hasBody = (req: FastifyRequest): boolean => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

/**
 * An answer sent before the request's body has arrived (refused by the token check, a Host, a
 * Content-Type or a name, or a GET that carries a body) closes the connection after it. Node
 * would otherwise read the rest of the body to keep the connection for another request, and a
 * client trickling a body nobody reads, a byte now and then, held the connection for as long as
 * it liked; a refused client gains nothing by keeping it. (Fastify does the same for a 413.)
 */
const closeIfBodyUnread = (req: FastifyRequest, reply: FastifyReply): void => {
  if (hasBody(req) && !req.raw.complete) void reply.header('connection', 'close');
};

const INT = { type: 'integer' } as const;
const INT_OR_NULL = { type: ['integer', 'null'] } as const;
/** A player of a game: a book keeps the rating only (name is always null, as Lichess gives it for an anonymous player). */
const PLAYER = { type: 'object', properties: { name: { type: 'null' }, rating: INT_OR_NULL } } as const;
const EXPLORER_RESPONSE = {
  type: 'object',
  properties: {
    white: INT,
    draws: INT,
    black: INT,
    moves: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          uci: { type: 'string' },
          san: { type: 'string' },
          white: INT,
          draws: INT,
          black: INT,
          averageRating: INT_OR_NULL,
          averageOpponentRating: INT_OR_NULL,
          performance: INT_OR_NULL,
          game: {
            type: ['object', 'null'],
            properties: {
              id: { type: 'string' },
              winner: { type: ['string', 'null'] },
              result: { type: 'string' },
              speed: { type: ['string', 'null'] },
              white: PLAYER,
              black: PLAYER,
              year: INT_OR_NULL,
              month: { type: ['string', 'null'] },
            },
          },
          weight: INT,
          probability: { type: 'number' },
          userValue: INT_OR_NULL,
          nag: INT_OR_NULL,
          comment: { type: ['string', 'null'] },
          forbidden: { type: 'boolean' },
          byHand: { type: 'boolean' },
          repeats: INT_OR_NULL,
          audit: {
            type: ['object', 'null'],
            properties: { loss: INT, best: { type: ['string', 'null'] }, depth: INT, refutation: { type: 'array', items: { type: 'string' } } },
          },
          learned: { type: ['object', 'null'], additionalProperties: true },
        },
      },
    },
    topGames: { type: 'array' },
    recentGames: { type: 'array' },
    opening: { type: ['object', 'null'], properties: { eco: { type: 'string' }, name: { type: 'string' } } },
    book: { type: 'string' },
    format: { type: 'string' },
    fen: { type: 'string' },
    editable: { type: 'boolean' },
  },
} as const;

const JSON_TYPE = 'application/json; charset=utf-8';
/** Sent with every answer: no MIME sniffing, no referrer, no reading from other origins. */
const SAFETY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cross-origin-resource-policy': 'same-origin' };
const EXPLORER_PREFIX = '/api/explorer';

/** A Host header (name or address, port optional) that names this server: an IP address, localhost or one of `names`. */
function hostAllowed(header: string, names: readonly string[]): boolean {
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::\d+)?$/i.exec(header);
  if (m === null) return false;
  if (m[1] !== undefined) return isIP(m[1]) === 6;
  const host = m[2]!.toLowerCase().replace(/\.$/, '');
  return isIP(host) === 4 || host === 'localhost' || names.includes(host);
}

/**
 * A request Node's HTTP parser refuses before any route sees it (a request line and headers
 * over its 16 KB, a malformed request): answered as every other error, `{"error": "..."}`,
 * instead of Fastify's default body with extra fields.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'the request line and headers are over 16 KB (a FEN or move list that long is not a position: check the query)']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request took too long to arrive']
        : [400, `malformed HTTP request (${err.code ?? err.message})`];
  const body = JSON.stringify({ error: message });
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  socket.destroy(err);
}

/** Each app's way to cancel its running import (stopImport). */
const stoppers = new WeakMap<FastifyInstance, () => Promise<string | undefined>>();

/**
 * Cancels the app's running import, if any, as the server stops: its book job is terminated,
 * its temporary files removed and the book left as it was, and the job says so to a page still
 * polling it. Resolves with what to tell the server's operator (undefined: no import ran).
 */
export function stopImport(app: FastifyInstance): Promise<string | undefined> {
  return stoppers.get(app)?.() ?? Promise.resolve(undefined);
}

export function buildApp(opts: AppOptions): FastifyInstance {
  const token = opts.token ?? randomBytes(18).toString('base64url');
  const tokenBytes = Buffer.from(token);
  /** Is `given` the token? Compared in constant time, so that timing tells nothing of it. */
  const isToken = (given: string | string[] | null | undefined): boolean => {
    if (typeof given !== 'string') return false;
    const b = Buffer.from(given);
    return b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
  };
  /** Does a request's `?token=` give the token? */
  const tokenGiven = (url: string): boolean => {
    const q = url.indexOf('?');
    return isToken(q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get('token'));
  };
  // Which start of the server a page's stored token belongs to (public: it tells nothing of the token).
  const serverId = randomBytes(9).toString('base64url');
  const byId = new Map(opts.books.map((b) => [b.id, b]));
  const positions: Position[] = [];
  const starts = new StartPositions();
  const answers = new ResponseCache();
  // A policy is parsed once per name (the route's schema allows only the known names).
  const policies = new Map<string | undefined, BookPolicyConfig>();
  const policyNamed = (name: string | undefined): BookPolicyConfig => {
    let p = policies.get(name);
    if (p === undefined) {
      try {
        p = policyOf(name);
      } catch (e) {
        if (e instanceof PolicyError) throw new HttpError(400, `policy: ${e.message}`);
        throw e;
      }
      policies.set(name, p);
    }
    return p;
  };
  // Fastify's validator drops unknown fields by default (Ajv's removeAdditional): a misspelt
  // field ("usrValue") would then be ignored while the rest is saved. Refuse it instead.
  const requestTimeout = opts.requestTimeout ?? REQUEST_TIMEOUT_MS;
  const app = fastify({
    bodyLimit: opts.bodyLimit ?? 64 * 1024,
    requestTimeout,
    // Node looks at the connections every connectionsCheckingInterval (30 s by default) for a
    // request past its time, and the headers may take at most headersTimeout (60 s by default).
    http: { connectionsCheckingInterval: Math.max(1, Math.min(30_000, Math.floor(requestTimeout / 4))), headersTimeout: Math.min(60_000, requestTimeout) },
    logger: false,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false } },
    clientErrorHandler: answerClientError,
    // A path the router cannot decode (a % not followed by two hex digits, bytes that are not
    // UTF-8) or with a part over 100 characters: answered as every other error, instead of
    // Fastify's default body (error, code, message, statusCode) without the safety headers.
    frameworkErrors: (e, _req, reply: FastifyReply) => {
      const status = e.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : e.code === 'FST_ERR_BAD_URL' ? 400 : 500;
      void reply.headers(SAFETY_HEADERS).code(status).send({ error: e.code === 'FST_ERR_BAD_URL' ? `malformed path: ${e.message} (a % must start an escape of two hex digits, of UTF-8 bytes)` : e.message });
    },
  });

  /** Refuses what no route may see (a Host or a write it must not take); undefined: go on. */
  const refusal = (req: FastifyRequest): HttpError | undefined => {
    if (opts.loopbackOnly && !hostIsLoopback(req.headers.host ?? '')) return new HttpError(403, `Host "${req.headers.host ?? ''}" is not a loopback address`);
    if (!opts.loopbackOnly && !hostAllowed(req.headers.host ?? '', opts.hostNames ?? [])) {
      const names = (opts.hostNames ?? []).map((n) => `"${n}"`).join(' or ');
      return new HttpError(403, `Host "${(req.headers.host ?? '').slice(0, 100)}" is not this server's address: open the page by IP address${names === '' ? '' : ` or as ${names}`} (another name could be a page pointing its own name here, DNS rebinding)`);
    }
    if (req.method === 'GET' || req.method === 'HEAD') return undefined;
    if (opts.readOnly) return new HttpError(403, 'the server is read-only (--read-only): no change is accepted');
    if (!isToken(req.headers['x-tabiya-token'])) return new HttpError(403, 'missing or wrong X-Tabiya-Token header (writes come from a page opened with the address tabiya serve printed, with its ?token=; after a restart of the server, open the new address it printed)');
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) return new HttpError(403, `Origin ${origin} is not this server`);
    return undefined;
  };
  /** An explorer answer kept for this very URL is sent; false: the request goes on to its route. */
  const sendKept = (req: FastifyRequest, reply: FastifyReply): boolean => {
    const kept = answers.get(req.url);
    if (kept === undefined) return false;
    reply.type(JSON_TYPE).send(kept);
    return true;
  };
  // A callback hook, not an async one: every request passes here, and most need no promise.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(SAFETY_HEADERS);
    const refused = refusal(req);
    if (refused !== undefined) return done(refused);
    // No GET route reads a body: the answer goes before it arrives.
    if ((req.method === 'GET' || req.method === 'HEAD') && hasBody(req)) void reply.header('connection', 'close');
    // An explorer answer kept for this very URL: sent before the query is even parsed (the
    // URL was validated when the answer was made), unless another process changed a book.
    if (req.method !== 'GET' || !req.url.startsWith(EXPLORER_PREFIX)) return done();
    const now = Date.now();
    let reopening: Promise<void>[] | undefined;
    for (const b of opts.books) {
      const r = b.refresh(now);
      if (r !== undefined) (reopening ??= []).push(r);
    }
    if (reopening === undefined) {
      if (!sendKept(req, reply)) done();
      return;
    }
    Promise.all(reopening).then(
      () => {
        if (!sendKept(req, reply)) done();
      },
      (e: Error) => done(e),
    );
  });

  app.setErrorHandler((e: Error & { statusCode?: number; validation?: unknown; code?: string }, req, reply) => {
    closeIfBodyUnread(req, reply);
    if (e instanceof HttpError || e instanceof EditError) return reply.code(e.status).send({ error: e.message });
    if (e.statusCode === 413 || e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Say the bound, and for a PGN what to do instead.
      const importing = req.url.startsWith('/api/import');
      return reply.code(413).send({ error: importing ? `the PGN is over ${IMPORT_LIMIT / 1024 / 1024} MiB, the most an import through the page takes: add it with tabiya book make -o <book.tbk> <file.pgn>` : `request body too large (over ${(opts.bodyLimit ?? 64 * 1024) / 1024} KiB)` });
    }
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const importing = req.url.startsWith('/api/import');
      return reply.code(415).send({ error: `unsupported Content-Type "${String(req.headers['content-type'] ?? '').slice(0, 100)}": send ${importing ? 'the PGN as text/plain or application/x-chess-pgn' : 'JSON (Content-Type: application/json)'}` });
    }
    if (e.validation !== undefined) {
      // Ajv says "must NOT have additional properties" without naming the field.
      const extra = (e.validation as { keyword?: string; params?: { additionalProperty?: string } }[]).find((v) => v.keyword === 'additionalProperties')?.params?.additionalProperty;
      return reply.code(400).send({ error: extra === undefined ? e.message : `${e.message}: unknown field "${extra}"` });
    }
    if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) return reply.code(e.statusCode).send({ error: e.message });
    // Book errors (a lock held by another process, a damaged file) say what and where.
    if (e.code === 'ERR_BOOK_LOCK') return reply.code(503).send({ error: e.message });
    return reply.code(500).send({ error: e.message });
  });
  // The methods each route takes, to tell a method a path does not take (405 with Allow, RFC
  // 9110 15.5.6: `PUT /api/move`) from a path that does not exist (404).
  const routeMethods: { path: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    const path = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}$`);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = routeMethods.find((r) => r.path.source === path.source);
    if (known === undefined) routeMethods.push({ path, methods: [...methods] });
    else known.methods.push(...methods);
  });
  app.setNotFoundHandler((req, reply) => {
    closeIfBodyUnread(req, reply);
    const path = req.url.replace(/\?.*$/s, '');
    const allow = routeMethods.find((r) => r.path.test(path))?.methods;
    if (allow !== undefined) return reply.code(405).header('Allow', [...new Set(allow)].sort().join(', ')).send({ error: `${req.method} is not a method of ${path.slice(0, 200)}: it takes ${[...new Set(allow)].sort().join(', ')}` });
    return reply.code(404).send({ error: `no such page: ${req.method} ${req.url.slice(0, 200)}` });
  });

  // --- the page and its assets -------------------------------------------------------------
  const config = JSON.stringify({
    books: opts.books.map((b) => ({ id: b.id, format: b.format, editable: b.editable && !opts.readOnly })),
    readOnly: opts.readOnly === true,
    engineThreads: opts.engineThreads ?? 0,
    policies: POLICY_KINDS,
    serverId,
  });
  const page = (withToken: boolean): Asset | undefined => {
    const a = opts.assets.get('index.html');
    if (a === undefined) return undefined;
    return { type: a.type, body: String(a.body).replace('%TOKEN%', withToken ? token : '').replace('%CONFIG%', config.replace(/</g, '\\u003c').replace(/"/g, '&quot;')) };
  };
  const pages = { withToken: page(true), without: page(false) };
  const sendPage = (reply: FastifyReply, withToken: boolean): FastifyReply => {
    const index = withToken ? pages.withToken : pages.without;
    if (index === undefined) return reply.code(503).send({ error: 'the page is not built: run npm run build' });
    // The engine's worker shares memory with the page (stop signals): that needs isolation.
    return reply
      .header('Cross-Origin-Opener-Policy', 'same-origin')
      .header('Cross-Origin-Embedder-Policy', 'require-corp')
      .header('Content-Security-Policy', "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
      .header('Cache-Control', 'no-store')
      .type(index.type)
      .send(index.body);
  };
  app.get('/', async (req, reply) => sendPage(reply, tokenGiven(req.url)));
  app.get('/assets/:name', { schema: { params: { type: 'object', properties: { name: { type: 'string', maxLength: 64 } } } } }, async (req, reply) => {
    const name = (req.params as { name: string }).name;
    const a = name === 'index.html' ? undefined : opts.assets.get(name);
    if (a === undefined) throw new HttpError(404, `no such asset: ${name.slice(0, 64)}`);
    return reply
      .header('Cross-Origin-Embedder-Policy', 'require-corp')
      .header('Cache-Control', 'no-cache')
      .type(a.type)
      .send(a.body);
  });

  // --- the API -------------------------------------------------------------------------------
  const bookOf = (id: string | undefined): ServedBook => {
    if (id === undefined || id === '') {
      if (opts.books.length === 1) return opts.books[0]!;
      throw new HttpError(400, `book: name one of ${[...byId.keys()].join(', ')}`);
    }
    const b = byId.get(id);
    if (b === undefined) throw new HttpError(404, `book: no book "${id.slice(0, 100)}" is served (served: ${[...byId.keys()].join(', ')})`);
    return b;
  };

  app.get('/api/books', async () => ({
    books: opts.books.map((b) => ({ id: b.id, format: b.format, version: b.version || null, editable: b.editable && !opts.readOnly })),
    readOnly: opts.readOnly === true,
  }));

  app.get(
    '/api/explorer',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { book: BOOK, fen: FEN, play: PLAY, policy: { type: 'string', enum: [...POLICY_KINDS] } },
        },
        // Compiled into a serialiser (fast-json-stringify) that the handler calls once per answer kept.
        response: { 200: EXPLORER_RESPONSE },
      },
    },
    async (req: FastifyRequest, reply: FastifyReply) => {
      const q = req.query as { book?: string; fen?: string; play?: string; policy?: string };
      const book = bookOf(q.book);
      const revision = book.revision;
      const policy = policyNamed(q.policy);
      // Positions are large (their undo stack): the hot route borrows one instead of making one.
      const spare = positions.pop() ?? new Position();
      try {
        const { pos, opening } = positionOf(opts.openings, q.fen, q.play, spare, starts);
        const answer = explorerAnswer(pos, await book.moves(pos, policy), opening, { id: book.id, format: book.format, editable: book.editable && !opts.readOnly });
        // Serialised once (the compiled schema serialiser), kept, and sent as bytes.
        const body = Buffer.from(reply.getSerializationFunction('200')!(answer as unknown as Record<string, unknown>));
        // Kept under the URL as it came (another spelling of the same query is another entry);
        // a change that came while this answer was made leaves it unkept.
        answers.set(req.url, book, revision, body);
        return reply.type(JSON_TYPE).send(body);
      } finally {
        positions.push(spare);
      }
    },
  );

  // A game of the book whole, and where it stands in the position given (the page follows it from there).
  app.get(
    '/api/game',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['id'],
          properties: { book: BOOK, id: { type: 'integer', minimum: 1 }, fen: FEN, play: PLAY },
        },
      },
    },
    async (req) => {
      const q = req.query as { book?: string; id: number; fen?: string; play?: string };
      const book = bookOf(q.book);
      await book.refresh();
      const { pos } = positionOf(opts.openings, q.fen, q.play);
      const game = book.game(q.id, pos);
      if (game === undefined) throw new HttpError(404, `id: book ${book.id} keeps no game ${q.id}${book.format === 'bin' ? ' (a Polyglot .bin keeps no games)' : ''}`);
      return game;
    },
  );

  app.get(
    '/api/export',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['format'],
          properties: { book: BOOK, fen: FEN, play: PLAY, format: { type: 'string', enum: ['bin', 'pgn'] }, depth: { type: 'integer', minimum: 1, maximum: 40 }, whole: { type: 'boolean' }, side: { type: 'string', enum: ['white', 'black'] } },
        },
      },
    },
    async (req, reply) => {
      const q = req.query as { book?: string; fen?: string; play?: string; format: 'bin' | 'pgn'; depth?: number; whole?: boolean; side?: 'white' | 'black' };
      const book = bookOf(q.book);
      await book.refresh();
      const stem = book.id.replace(/\.[^.]*$/, '');
      if (q.format === 'bin' && q.whole === true) {
        return reply
          .type('application/octet-stream')
          .header('Content-Disposition', `attachment; filename="${stem}.bin"`)
          .send(Buffer.from(await book.polyglotBytes()));
      }
      const { pos, opening } = positionOf(opts.openings, q.fen, q.play);
      const policy = policyOf(undefined);
      const side = q.side === undefined ? undefined : q.side === 'white' ? 0 : 1;
      const tree = await walkSubtree((p, c) => book.moves(p, c), pos, policy, q.depth ?? 12, EXPORT_BUDGET, side);
      if (q.format === 'bin') {
        return reply.type('application/octet-stream').header('Content-Disposition', `attachment; filename="${stem}-${q.side === undefined ? 'subtree' : `${q.side}-repertoire`}.bin"`).send(Buffer.from(subtreeBin(tree)));
      }
      return reply.type('application/x-chess-pgn; charset=utf-8').header('Content-Disposition', `attachment; filename="${stem}-${q.side === undefined ? 'subtree' : `${q.side}-repertoire`}.pgn"`).send(subtreePgn(tree, pos, book.id, { index: opts.openings, atRoot: opening }));
    },
  );

  // One import at a time; the page polls its progress.
  let job: { id: number; book: string; done: number; total: number; games: number; writing?: { done: number; total: number }; finished: boolean; cancelled?: boolean; result?: unknown; error?: string } | undefined;
  let jobs = 0;
  /** The running import's cancellation and its end, for stopImport. */
  let running: { name: string; cancel: AbortController; ended: Promise<void>; written?: boolean } | undefined;
  stoppers.set(app, async () => {
    const r = running;
    if (r === undefined || job === undefined || job.finished) return undefined;
    const j = job;
    r.cancel.abort();
    await r.ended;
    if (j.cancelled === true) return `the import of ${r.name} into ${j.book} was cancelled: the server stopped before it finished; nothing was written to the book`;
    return j.error === undefined || r.written === true ? `the import of ${r.name} into ${j.book} had finished as the server stopped: the book holds its games` : `the import of ${r.name} into ${j.book} failed as the server stopped: ${j.error}`;
  });
  // The page sends the file's bytes as they are (Windows-1252 names, a .pgn.gz, a UTF-16 export
  // it must refuse): the same reader as the command line then decides, by content, what they are.
  app.addContentTypeParser(['application/x-chess-pgn'], { parseAs: 'buffer', bodyLimit: IMPORT_LIMIT }, (_req, body, done) => done(null, body));
  app.post(
    '/api/import',
    {
      bodyLimit: IMPORT_LIMIT,
      schema: { querystring: { type: 'object', properties: { book: BOOK, name: { type: 'string', maxLength: 200 } } } },
      // Before the body is read (up to 32 MiB): the name is written into the book's history and
      // said on the server's terminal (a cancelled import), where a line break or an escape
      // sequence (ESC, any of Unicode's category Cc) would forge lines or recolour it.
      onRequest: (req, _reply, done) => {
        const name = (req.query as { name?: unknown }).name;
        const control = typeof name === 'string' ? /\p{Cc}/u.exec(name) : null;
        if (control === null || typeof name !== 'string') return done();
        const code = control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
        done(new HttpError(400, `name: a file name cannot hold control characters (U+${code} at character ${[...name.slice(0, control.index)].length + 1}: line breaks, tabs, escapes)`));
      },
    },
    async (req, reply) => {
      const query = req.query as { book?: string; name?: string };
      const book = bookOf(query.book);
      const body = req.body;
      const blank = typeof body === 'string' ? body.trim() === '' : !Buffer.isBuffer(body) || body.every((b) => b === 0x20 || (b >= 0x09 && b <= 0x0d));
      if (blank) throw new HttpError(400, 'send the PGN text as the body (Content-Type: text/plain or application/x-chess-pgn)');
      const pgn = body as string | Buffer;
      if (!book.editable) throw new EditError(409, `book ${book.id} cannot take games: only a version 2 .tbk can`);
      if (job !== undefined && !job.finished) throw new HttpError(409, `an import into ${job.book} is running: wait for it`);
      // A book whose file is gone is said now, not as the error of a job.
      book.mustEdit();
      const j: NonNullable<typeof job> = (job = { id: ++jobs, book: book.id, done: 0, total: Buffer.byteLength(pgn), games: 0, finished: false });
      const name = query.name ?? 'the PGN sent';
      const cancel = new AbortController();
      const ended = book
        .importPgn(
          pgn,
          name,
          (done, total, games) => Object.assign(j, { done, total, games }),
          (done, total) => (j.writing = { done, total }),
          cancel.signal,
          { threads: opts.importThreads ?? 1, replayThreadGames: opts.replayThreadGames },
        )
        .then(
          // The games of the last report can miss the last game (read at the end of the file).
          (r) => void Object.assign(j, { finished: true, result: r, done: j.total, games: r.gamesUsed }),
          (e: Error) => {
            if (e instanceof ImportCancelled && running?.cancel === cancel) running.written = e.written;
            Object.assign(
              j,
              e instanceof ImportCancelled
                ? { finished: true, cancelled: !e.written, error: e.written ? `the server was stopped as the import of ${name} finished: ${j.book} holds its games` : `cancelled: the server was stopped before the import of ${name} finished; nothing was written to ${j.book}` }
                : { finished: true, error: e.message },
            );
          },
        )
        .finally(() => {
          if (running?.cancel === cancel) running = undefined;
        });
      running = { name, cancel, ended };
      return reply.code(202).send({ job: j.id });
    },
  );
  app.get('/api/import', async () => job ?? { finished: true, none: true });
  // An import holds the book's lock for its whole run: an edit would wait for it (blocking).
  const importing = (id: string): void => {
    if (job !== undefined && !job.finished && job.book === id) throw new HttpError(409, `an import into ${id} is running: edit it when it has finished`);
  };

  const editBody = {
    type: 'object',
    required: ['move'],
    additionalProperties: false,
    properties: {
      book: BOOK,
      fen: FEN,
      play: PLAY,
      move: MOVE,
      userValue: { type: ['integer', 'null'], minimum: 0, maximum: 100 },
      nag: { type: ['integer', 'null'], minimum: 0, maximum: 255 },
      comment: { type: ['string', 'null'], maxLength: COMMENT_MAX },
      forbidden: { type: 'boolean' },
    },
  } as const;
  app.post('/api/move', { schema: { body: editBody }, preValidation: [jsonOnly, exactTypes(editBody.properties)] }, async (req) => {
    const body = req.body as NotePatch & { book?: string; fen?: string; play?: string; move: string };
    const book = bookOf(body.book);
    const { pos } = positionOf(opts.openings, body.fen, body.play);
    const move = moveOf(pos, body.move);
    const patch: NotePatch = {};
    if (body.userValue !== undefined) patch.userValue = body.userValue;
    if (body.nag !== undefined) patch.nag = body.nag;
    // A comment the book's PGN export could not carry back unchanged is refused (noteText.ts).
    const problem = typeof body.comment === 'string' ? commentProblem(body.comment) : undefined;
    if (problem !== undefined) throw new HttpError(400, `comment: ${problem}`);
    if (body.comment !== undefined) patch.comment = body.comment === null ? null : commentText(body.comment);
    if (body.forbidden !== undefined) patch.forbidden = body.forbidden;
    if (Object.keys(patch).length === 0) throw new HttpError(400, 'nothing to change: give userValue, nag, comment or forbidden');
    importing(book.id);
    const r = book.editMove(pos, move, patch);
    return { ok: true, added: r.added };
  });
  const removeProperties = { book: BOOK, fen: FEN, play: PLAY, move: MOVE };
  app.post('/api/move/remove', { schema: { body: { ...editBody, properties: removeProperties } }, preValidation: [jsonOnly, exactTypes(removeProperties)] }, async (req) => {
    const body = req.body as { book?: string; fen?: string; play?: string; move: string };
    const book = bookOf(body.book);
    const { pos } = positionOf(opts.openings, body.fen, body.play);
    importing(book.id);
    book.removeMove(pos, moveOf(pos, body.move));
    return { ok: true };
  });

  return app;
}

/**
 * A preValidation hook that refuses a JSON body field of another type than its schema says.
 * Fastify's validator coerces types (Ajv's coerceTypes, which the query strings need): in a
 * body, `"userValue": ""` became null and cleared the value, `"nag": false` cleared the NAG,
 * `"comment": true` was saved as "true" and `"forbidden": 1` marked the move forbidden.
 */
/**
 * An edit's body is JSON. Fastify also parses text/plain (the import's type) into a string, which
 * the schema would refuse as "body must be object": the type is what is wrong, so 415 says so.
 */
function jsonOnly(req: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void): void {
  if (typeof req.body !== 'string' && !Buffer.isBuffer(req.body)) return done();
  done(new HttpError(415, `unsupported Content-Type "${String(req.headers['content-type'] ?? '').slice(0, 100)}": send JSON (Content-Type: application/json)`));
}

function exactTypes(properties: Record<string, { type: string | readonly string[] }>) {
  const is = (v: unknown, t: string): boolean =>
    t === 'null' ? v === null : t === 'integer' ? Number.isInteger(v) : t === 'array' ? Array.isArray(v) : t === 'object' ? v !== null && typeof v === 'object' && !Array.isArray(v) : typeof v === t;
  return (req: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void): void => {
    const body = req.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return done();
    for (const [name, value] of Object.entries(body)) {
      const schema = properties[name];
      if (schema === undefined) continue;
      const types: readonly string[] = typeof schema.type === 'string' ? [schema.type] : schema.type;
      if (!types.some((t) => is(value, t))) return done(new HttpError(400, `body/${name} must be ${types.join(',')}`));
    }
    done();
  };
}

/**
 * Start positions by FEN, parsed once: every request of the page names its start FEN (the
 * initial position, mostly), and copying a parsed position costs a tenth of parsing it.
 * Bounded: emptied when full.
 */
class StartPositions {
  private readonly byFen = new Map<string, Position>();

  /** Sets `into` to the position of `fen`, or says what is wrong with the FEN. */
  set(into: Position, fen: string): string | undefined {
    let start = this.byFen.get(fen);
    if (start === undefined) {
      const r = positionFromFen(fen);
      if (!r.ok) return r.error.message;
      start = r.value;
      if (this.byFen.size >= 256) this.byFen.clear();
      this.byFen.set(fen, start);
    }
    into.copyFrom(start);
    return undefined;
  }
}

/** The position of fen + play, and the opening of its deepest named position on the way. */
function positionOf(openings: OpeningIndex, fen: string | undefined, play: string | undefined, into = new Position(), starts = new StartPositions()): { pos: Position; opening: Opening | undefined } {
  const bad = starts.set(into, fen === undefined || fen === '' ? STARTING_FEN : fen);
  if (bad !== undefined) throw new HttpError(400, `fen: ${bad}`);
  const pos = into;
  let opening = openings.of(pos);
  const words = play === undefined || play === '' ? [] : play.split(',');
  for (let i = 0; i < words.length; i++) {
    const m = parseUci(pos, words[i]!);
    if (!m.ok) throw new HttpError(400, `play: move ${i + 1} (${words[i]!.slice(0, 10)}): ${m.error.message}`);
    pos.play(m.value);
    opening = openings.of(pos) ?? opening;
  }
  return { pos, opening };
}

/** A move given as UCI or SAN, legal in `pos`. */
function moveOf(pos: Position, text: string): number {
  const u = parseUci(pos, text);
  if (u.ok) return u.value;
  const s = parseSan(pos, text);
  if (s.ok) return s.value;
  // Say what is wrong in the notation the move was written in.
  const uciLike = /^[a-h][1-8][a-h][1-8][a-z]?$/i.test(text);
  throw new HttpError(400, `move: ${(uciLike ? u.error : s.error).message}`);
}
