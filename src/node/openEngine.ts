/**
 * A UCI engine for Node code, in the spirit of python-chess's `chess.engine.popen_uci`: the
 * engine runs as its own process (tabiya's own, `tabiya uci` on this Node, unless `cmd` names
 * another), every request is a promise, and mistakes are errors rather than lines an engine
 * may ignore: an option the engine does not offer, a value out of its range, a move that is not
 * legal in the position (checked here with tabiya's core before anything is sent).
 *
 *     const engine = await openEngine({ options: { Hash: 64 } });
 *     const { move, info } = await engine.go({ moves: ['e2e4'] }, { depth: 12 });
 *     await engine.quit();
 *
 * It is a thin owner of the match runner's pieces: the process transport (engineProcess.ts) and
 * the sans-I/O UCI client (protocol/uci/client.ts).
 */
import { fileURLToPath } from 'node:url';
import { Board } from '../board.js';
import { STARTING_FEN } from '../notation/fen.js';
import { UciClient } from '../protocol/uci/client.js';
import { checkOptionValue } from '../protocol/uci/parseInfo.js';
import type { EngineOption, GoLimits, SearchInfo } from '../protocol/engineClient.js';
import type { EngineTransport } from '../match/player.js';
import { INFINITE_TC } from '../match/tc.js';
import { spawnEngine } from './engineProcess.js';

export interface OpenEngineOptions {
  /** The engine's program; tabiya's own engine when left out. */
  cmd?: string;
  /** Its arguments (with `cmd`). */
  args?: string[];
  /** The directory it runs in. */
  cwd?: string;
  /** UCI options set after the handshake, by name (any case): `{ Hash: 64, Threads: 2 }`. */
  options?: Readonly<Record<string, string | number | boolean>>;
  /** How long the handshake (`uci` → `uciok`) may take, in ms (default 30,000). */
  startupMs?: number;
}

/** A position: a FEN (the start position if left out) and the moves played since, in UCI or SAN. */
export interface EnginePosition {
  fen?: string;
  moves?: readonly string[];
}

/** An engine's answer to `go`: its move (UCI), the move it expects in reply, and its last report. */
export interface EngineMove {
  move: string;
  ponder?: string;
  info: SearchInfo;
}

export interface UciEngine {
  /** What the engine calls itself (`id name`). */
  readonly name: string | undefined;
  /** The options it offers, by lower-case name. */
  readonly options: ReadonlyMap<string, EngineOption>;
  /** Sets options by name; rejects naming the first one the engine does not offer or accept (none is sent then). */
  setOptions(options: Readonly<Record<string, string | number | boolean>>): Promise<void>;
  /** Searches `position` within `limits` (depth, nodes, movetime, clocks; none: until `stop`). */
  go(position?: EnginePosition, limits?: GoLimits): Promise<EngineMove>;
  /** Asks a running search to answer now. */
  stop(): void;
  /** Tells the engine that the next position belongs to another game (`ucinewgame`). */
  newGame(): Promise<void>;
  /** Ends the engine: `quit`, then a kill if it has not exited within a second. */
  quit(): Promise<void>;
}

const TABIYA_CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** Starts a UCI engine and completes its handshake (and the options given). */
export async function openEngine(opts: OpenEngineOptions = {}): Promise<UciEngine> {
  const cmd = opts.cmd ?? process.execPath;
  const args = opts.cmd === undefined ? [TABIYA_CLI, 'uci'] : [...(opts.args ?? [])];
  let transport: EngineTransport;
  try {
    transport = await spawnEngine({ name: cmd, cmd, args, dir: opts.cwd, proto: 'uci', options: [], tc: INFINITE_TC, restart: 'off', initStrings: [] });
  } catch (e) {
    throw new Error(`cannot start the engine ${cmd}: ${(e as Error).message}`, { cause: e });
  }
  const engine = new ProcessEngine(transport);
  try {
    await engine.handshake(opts.startupMs ?? 30_000, cmd);
    if (opts.options !== undefined) await engine.setOptions(opts.options);
  } catch (e) {
    await engine.kill();
    throw e;
  }
  return engine;
}

class ProcessEngine implements UciEngine {
  private readonly client: UciClient;
  private exited: Promise<void>;
  private why = '';
  private chess960 = false;

  constructor(private readonly transport: EngineTransport) {
    this.client = new UciClient((line) => transport.send(line));
    let done!: () => void;
    this.exited = new Promise<void>((resolve) => (done = resolve));
    transport.onLine = (line) => this.client.received(line);
    transport.onExit = (why) => {
      const tail = transport.stderrTail();
      this.why = tail.length > 0 ? `${why}; its last words: ${tail.slice(-3).join(' | ')}` : why;
      this.client.closed(this.why);
      done();
    };
  }

  get name(): string | undefined {
    return this.client.engineName;
  }

  get options(): ReadonlyMap<string, EngineOption> {
    return this.client.options;
  }

  async handshake(ms: number, cmd: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the engine ${cmd} did not finish the UCI handshake (uciok) within ${ms} ms`)), ms);
    });
    try {
      await Promise.race([this.client.start(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async setOptions(options: Readonly<Record<string, string | number | boolean>>): Promise<void> {
    const pairs = Object.entries(options).map(([name, value]) => [name, String(value)] as const);
    // Checked before any is sent: all or none.
    for (const [name, value] of pairs) {
      const opt = this.client.options.get(name.toLowerCase());
      if (opt === undefined) throw new RangeError(`${this.name ?? 'the engine'} has no option "${name}" (it offers ${[...this.client.options.values()].map((o) => o.name).join(', ')})`);
      if (opt.type === 'button') continue;
      const v = checkOptionValue(opt, value);
      if (!v.ok) throw new RangeError(`${this.name ?? 'the engine'} option "${opt.name}": ${v.reason}`);
    }
    this.client.setOptions(pairs);
    await this.client.isReady();
  }

  async go(position: EnginePosition = {}, limits: GoLimits = {}): Promise<EngineMove> {
    const fen = position.fen ?? STARTING_FEN;
    const board = new Board(fen);
    // Moves are sent in UCI, after tabiya's core has checked each (SAN is read too).
    const moves = (position.moves ?? []).map((m, i) => {
      try {
        return board.uci(board.push(m));
      } catch (e) {
        throw new RangeError(`move ${i + 1}: ${(e as Error).message}`, { cause: e });
      }
    });
    // A Chess960 position (castling written by file) needs the engine told (UCI_Chess960).
    if (board.chess960 !== this.chess960 && this.client.options.has('uci_chess960')) {
      this.client.setOptions([['UCI_Chess960', String(board.chess960)]]);
      this.chess960 = board.chess960;
    }
    const reply = await this.client.go({ fen, moves, chess960: board.chess960 }, limits);
    if (reply.kind !== 'move') throw new Error(`the engine answered with ${reply.kind}, not a move`);
    return { move: reply.move, ...(reply.ponder !== undefined ? { ponder: reply.ponder } : {}), info: reply.info };
  }

  stop(): void {
    this.client.stop();
  }

  async newGame(): Promise<void> {
    await this.client.newGame({ fen: STARTING_FEN, chess960: false, limits: INFINITE_TC });
  }

  /** Ends the process at once; settles when it has exited. */
  async kill(): Promise<void> {
    this.transport.kill();
    await this.exited;
  }

  async quit(): Promise<void> {
    if (this.client.status === 'closed') return this.exited;
    this.client.quit();
    const timer = setTimeout(() => this.transport.kill(), 1000);
    await this.exited;
    clearTimeout(timer);
  }
}
