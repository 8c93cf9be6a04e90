/**
 * One running engine in a match: a transport (a child process in Node, anything line-based in
 * tests) joined to its protocol client, with the deadlines the clients leave to their owner.
 * Every wait has a deadline (match-runner.md §3 item 3); a player that misses one or loses its
 * connection is `dead` and is never reused: the runner starts a fresh one for the next game.
 */
import { EngineClosedError, type EngineClient, type EngineReply, type GoLimits, type NewGame, type PositionSpec } from '../protocol/engineClient.js';
import { UciClient } from '../protocol/uci/client.js';
import { XboardClient } from '../protocol/xboard/client.js';
import type { EngineSpec } from './engineSpec.js';
import { isTimed } from './tc.js';

/** A line-based connection to an engine. */
export interface EngineTransport {
  send(line: string): void;
  /** Set by the player before any output can arrive. */
  onLine: (line: string) => void;
  /** Called once when the engine is gone (exit, crash, failed write). */
  onExit: (why: string) => void;
  /** Ends the engine at once. */
  kill(): void;
  /** The last lines the engine wrote to stderr, for error reports. */
  stderrTail(): string[];
}

/** Starts an engine process for a definition; rejects when it cannot be started. */
export type SpawnEngine = (spec: EngineSpec) => Promise<EngineTransport>;

export interface Timeouts {
  /** Handshake (`uciok`, xboard features). */
  startupMs: number;
  /** `ucinewgame` + `isready`, xboard `new` + `ping`. */
  readyMs: number;
  /** After `stop` at the deadline, how long to wait for the move before the engine counts as stalled. */
  stopWaitMs: number;
  /** Added to the allowance before `stop` is sent. */
  graceMs: number;
  /** After `quit`, how long before the process is killed. */
  quitMs: number;
  /**
   * How long to wait for xboard's first `feature` line after `protover 2` before assuming
   * protocol 1. cutechess-cli waits 8 s: the 2 s of the protocol's text are too short for an
   * engine that loads for a while on a busy machine (a Node.js engine beside other work took
   * over 2 s), and taken for protocol 1 it was set up with `edit`, which a protocol-2 engine
   * need not know, and played from the wrong position.
   */
  featureMs: number;
  /** A search without a clock (depth= or nodes= only) still running after this is stopped: nothing else would end a hung one. */
  untimedMoveMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { startupMs: 10_000, readyMs: 60_000, stopWaitMs: 5_000, graceMs: 100, quitMs: 2_000, featureMs: 8_000, untimedMoveMs: 600_000 };

/** Why an engine failed outside a move: it died, or it stopped answering. */
export class EngineFault extends Error {
  constructor(
    /** `config`: the engine cannot play under the given settings (fatal for the match, not a game result). */
    readonly kind: 'disconnect' | 'stall' | 'config',
    message: string,
  ) {
    super(message);
    this.name = 'EngineFault';
  }
}

/** A promise that rejects with a stall fault after `ms` (and clears its timer either way). */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  if (!Number.isFinite(ms)) return p;
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new EngineFault('stall', `no answer to ${what} within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e instanceof EngineClosedError ? new EngineFault('disconnect', e.message) : e);
      },
    );
  });
}

const TAIL = 20;
/** Longest engine line quoted in a fault's reason (which goes into the PGN, the journal and messages). */
const QUOTED_LINE = 200;

/**
 * An engine's line as it is quoted: control characters (an ANSI colour, a bell, a NUL) written as
 * `\xHH`, as the PGN reader quotes input, and a long line cut, so the reason that closes a game's
 * last PGN comment stays printable text (PGN allows no other control characters than newline and
 * tab) and within the 255 characters a PGN line may have.
 */
export function quoteEngineLine(line: string): string {
  // eslint-disable-next-line no-control-regex
  const printable = line.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return printable.length > QUOTED_LINE ? `${printable.slice(0, QUOTED_LINE)}... (${printable.length} characters)` : printable;
}

export class EnginePlayer {
  readonly client: EngineClient;
  dead = false;
  deathReason = '';
  /** Games played by this process. */
  games = 0;
  /** Warnings from setting options, reported once. */
  warnings: string[] = [];
  private readonly tail: string[] = [];
  private exitWaiters: (() => void)[] = [];

  private constructor(
    readonly spec: EngineSpec,
    private readonly transport: EngineTransport,
    timeouts: Timeouts,
  ) {
    const send = (line: string): void => {
      if (!this.dead) transport.send(line);
    };
    this.client = spec.proto === 'uci' ? new UciClient(send) : new XboardClient(send, { featureTimeoutMs: timeouts.featureMs });
    transport.onLine = (line) => {
      if (this.tail.length >= TAIL) this.tail.shift();
      this.tail.push(line);
      this.client.received(line);
    };
    transport.onExit = (why) => {
      this.markDead(why);
      this.client.closed(why);
      for (const w of this.exitWaiters.splice(0)) w();
    };
  }

  /** Starts the engine and completes the handshake and option set-up, or throws an EngineFault. */
  static async launch(spec: EngineSpec, spawn: SpawnEngine, timeouts: Timeouts): Promise<EnginePlayer> {
    let transport: EngineTransport;
    try {
      transport = await spawn(spec);
    } catch (e) {
      throw new EngineFault('disconnect', `cannot start ${spec.cmd}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const p = new EnginePlayer(spec, transport, timeouts);
    try {
      for (const line of spec.initStrings) transport.send(line);
      await within(p.client.start(), timeouts.startupMs, spec.proto === 'uci' ? '"uci" (uciok)' : 'the xboard handshake');
      // Warnings name the engine as the match does: two builds of one engine share their id name.
      const id = p.client.engineName;
      p.warnings = p.client.setOptions(spec.options, id !== undefined && id !== spec.name ? `${spec.name} (${id})` : spec.name);
      if (p.client instanceof XboardClient && spec.tc.nodes > 0 && p.client.features.get('nps') !== '1') {
        throw new EngineFault('config', `nodes=${spec.tc.nodes} needs the xboard feature nps=1, which this engine does not offer`);
      }
      const depth = spec.tc.depth;
      if (p.client instanceof XboardClient && depth > 0) {
        // An engine that does not take `sd` would search each move until its clock (or, with
        // depth= its only limit, --move-ms: ten minutes a move) ends it: say so before the match.
        const refusal = await within(p.client.probeDepth(depth), timeouts.readyMs, '"sd"/"ping"');
        if (refusal !== undefined) {
          const said = quoteEngineLine(refusal);
          if (!isTimed(spec.tc) && spec.tc.nodes === 0) throw new EngineFault('config', `depth=${depth} needs the xboard command sd, which this engine refuses (${said}); give it tc= or st= instead`);
          p.warnings.push(`${spec.name} refuses "sd ${depth}" (${said}): depth=${depth} has no effect on it, its clock alone ends its searches`);
        }
      }
      await within(p.client.isReady(), timeouts.readyMs, spec.proto === 'uci' ? '"isready"' : '"ping"');
    } catch (e) {
      p.kill();
      const f = e instanceof EngineFault ? e : new EngineFault('disconnect', e instanceof Error ? e.message : String(e));
      throw new EngineFault(f.kind, `${spec.name}: ${f.message}${p.diagnostics()}`);
    }
    return p;
  }

  /** Recent stdout and stderr lines, formatted for an error message. */
  diagnostics(): string {
    const err = this.transport.stderrTail();
    const parts: string[] = [];
    if (this.tail.length > 0) parts.push(`last output: ${this.tail.slice(-5).map(quoteEngineLine).join(' | ')}`);
    if (err.length > 0) parts.push(`stderr: ${err.slice(-5).map(quoteEngineLine).join(' | ')}`);
    return parts.length > 0 ? ` (${parts.join('; ')})` : '';
  }

  private markDead(why: string): void {
    if (this.dead) return;
    this.dead = true;
    this.deathReason = why;
  }

  newGame(game: NewGame, timeouts: Timeouts): Promise<void> {
    return within(this.client.newGame(game), timeouts.readyMs, this.spec.proto === 'uci' ? '"ucinewgame"/"isready"' : '"new"/"ping"');
  }

  go(pos: PositionSpec, limits: GoLimits): Promise<EngineReply> {
    return this.client.go(pos, limits);
  }

  /** Whether the next game needs a fresh process. */
  get needsRestart(): boolean {
    if (this.dead) return true;
    if (this.spec.restart === 'on') return true;
    if (this.spec.restart === 'auto' && this.client instanceof XboardClient) return this.client.wantsRestart;
    return false;
  }

  /** Ends the process now and marks the player dead. */
  kill(why = 'killed by the runner'): void {
    this.markDead(why);
    this.transport.kill();
  }

  /** Asks the engine to quit, and kills it if it has not exited after `quitMs`. */
  async quit(timeouts: Timeouts): Promise<void> {
    if (this.dead) {
      this.transport.kill();
      return;
    }
    const exited = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
    this.client.quit();
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), timeouts.quitMs).unref?.());
    const r = await Promise.race([exited.then(() => 'ok' as const), timer]);
    this.markDead('quit');
    if (r === 'late') this.transport.kill();
  }
}
