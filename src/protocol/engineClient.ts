/**
 * What a match runner (or any GUI) needs from an engine, whatever its protocol: one interface
 * over the UCI and CECP/xboard clients, in the spirit of python-chess's `Protocol`.
 *
 * Clients are sans-I/O state machines (STYLE.md rule 8): they never own a process. The owner
 * gives them a `send` function, feeds them every line the engine prints (`received`) and tells
 * them when the engine is gone (`closed`). Requests return promises that settle when the engine
 * answers; deadlines belong to the owner, which races the promise against its own timer and
 * kills the process when an engine stays silent. `go` writes its commands synchronously before
 * returning, so the owner can start its clock right after the call.
 */

export type EngineProtocol = 'uci' | 'xboard';

/** A search score from the engine's point of view (the side to move). `mate` counts moves, negative when being mated. */
export interface EngineScore {
  kind: 'cp' | 'mate';
  value: number;
  bound?: 'lower' | 'upper';
}

/** What the engine reported about its last search. */
export interface SearchInfo {
  depth?: number;
  seldepth?: number;
  /** Search time the engine reported, in ms. */
  timeMs?: number;
  nodes?: number;
  nps?: number;
  hashfull?: number;
  tbhits?: number;
  score?: EngineScore;
  pv?: string[];
}

/** Limits of one search. Clock values are in ms; omitted fields are not sent. */
export interface GoLimits {
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  movetime?: number;
  depth?: number;
  nodes?: number;
  infinite?: boolean;
}

/** A game position as the root FEN plus the moves played since, in UCI notation. */
export interface PositionSpec {
  fen: string;
  moves: readonly string[];
  chess960?: boolean;
}

/**
 * The time control of a game, for protocols that take it once per game (xboard `level`, `st`,
 * `sd`). Times in ms; `moves` 0 means the whole game; all zero and no limits means infinite.
 */
export interface GameLimits {
  moves: number;
  baseMs: number;
  incMs: number;
  movetimeMs: number;
  depth: number;
  nodes: number;
  infinite: boolean;
}

/** What an engine is told at the start of a game. */
export interface NewGame {
  fen: string;
  chess960: boolean;
  limits: GameLimits;
  /** The opponent's name, for engines that want it (UCI_Opponent, xboard `name`). */
  opponent?: string;
}

/** How a search ended. */
export type EngineReply =
  /** `drawClaim`: an xboard draw claim sent during the search, before this move (valid only if the move draws). */
  | { kind: 'move'; move: string; ponder?: string; info: SearchInfo; drawClaim?: string }
  | { kind: 'resign'; info: SearchInfo }
  /** An xboard result claim made instead of a move. */
  | { kind: 'claim'; result: string; comment: string; info: SearchInfo }
  /** The engine rejected a move we sent (xboard `Illegal move`). */
  | { kind: 'rejected'; message: string; info: SearchInfo };

/** An xboard claim or complaint that arrived while the engine was not searching. */
export interface EngineNotice {
  kind: 'claim' | 'resign' | 'rejected';
  result?: string;
  text: string;
}

/** An option the engine advertised. */
export interface EngineOption {
  name: string;
  type: 'check' | 'spin' | 'combo' | 'button' | 'string' | 'filename' | 'slider' | 'file' | 'path' | 'save' | 'reset';
  default?: string;
  min?: number;
  max?: number;
  vars?: string[];
}

/** The engine process went away while a request was pending. */
export class EngineClosedError extends Error {
  constructor(message = 'the engine closed its connection') {
    super(message);
    this.name = 'EngineClosedError';
  }
}

export interface EngineClient {
  readonly protocol: EngineProtocol;
  /** The name the engine gave (`id name`, `myname`). */
  readonly engineName: string | undefined;
  readonly options: ReadonlyMap<string, EngineOption>;
  /** A line the engine printed (without the line end). */
  received(line: string): void;
  /** The connection is gone: pending requests reject with EngineClosedError. */
  closed(reason?: string): void;
  /** Handshake: `uci` → `uciok`, or `xboard`/`protover 2` → features. */
  start(): Promise<void>;
  /** Sends configured options; returns warnings for those the engine does not offer or accept, naming `who` (default: the engine's own name). */
  setOptions(options: ReadonlyArray<readonly [string, string]>, who?: string): string[];
  /** Prepares a new game from `fen`; settles once the engine is ready. */
  newGame(game: NewGame): Promise<void>;
  /** Round trip that proves the engine is alive and has processed everything sent so far. */
  isReady(): Promise<void>;
  /** Starts a search of `pos`; settles with the engine's move or claim. */
  go(pos: PositionSpec, limits: GoLimits): Promise<EngineReply>;
  /** Asks a searching engine to move now. */
  stop(): void;
  /** Tells the engine the game is over. */
  gameOver(result: string, comment: string): void;
  /** Asks the engine to exit. */
  quit(): void;
  /** Claims and complaints that arrive outside a search. */
  onNotice?: (notice: EngineNotice) => void;
}

/** Splits a line into whitespace-separated tokens (any amount of blanks, trailing \r removed). */
export function tokenize(line: string): string[] {
  const t = line.trim();
  return t === '' ? [] : t.split(/\s+/);
}
