/**
 * Driving a UCI engine (match-runner.md §5a), sans-I/O: the owner passes `send`, feeds every
 * line to `received` and reports `closed`. No timers live here; the owner races each promise
 * against its own deadline (startup, ping, move) and kills a silent engine.
 *
 *     const c = new UciClient((line) => child.stdin.write(line + '\n'));
 *     child.stdout.on('line', (l) => c.received(l));
 *     await c.start();                      // uci → uciok
 *     c.setOptions([['Hash', '16']]);
 *     await c.newGame({ chess960: false, limits });
 *     const reply = await c.go({ fen, moves }, { wtime: 10000, btime: 10000 });
 *
 * The full move list from the root is sent before every search (never incremental updates), and
 * the score a search reports is the last exact `score` of the principal line (`multipv` 1);
 * a bound is used only when no exact score came.
 */
import {
  EngineClosedError,
  tokenize,
  type EngineClient,
  type EngineNotice,
  type EngineOption,
  type EngineReply,
  type NewGame,
  type GoLimits,
  type PositionSpec,
  type SearchInfo,
} from '../engineClient.js';
import { STARTING_FEN } from '../../notation/fen.js';
import { checkOptionValue, parseInfo, parseOption } from './parseInfo.js';

type State = 'new' | 'starting' | 'idle' | 'searching' | 'closed';

interface Waiter {
  resolve(): void;
  reject(e: Error): void;
}

export class UciClient implements EngineClient {
  readonly protocol = 'uci' as const;
  engineName: string | undefined;
  author: string | undefined;
  readonly options = new Map<string, EngineOption>();
  onNotice?: (notice: EngineNotice) => void;

  private state: State = 'new';
  private chess960 = false;
  private handshake: Waiter | undefined;
  private readonly ready: Waiter[] = [];
  private search: { resolve(r: EngineReply): void; reject(e: Error): void } | undefined;
  private info: SearchInfo = {};
  private exactScore = false;
  private closeReason = '';

  constructor(private readonly send: (line: string) => void) {}

  /** The client's view of the engine: new, starting, idle, searching or closed. */
  get status(): State {
    return this.state;
  }

  start(): Promise<void> {
    if (this.state !== 'new') return Promise.reject(new Error(`UCI handshake in state ${this.state}`));
    this.state = 'starting';
    return new Promise<void>((resolve, reject) => {
      this.handshake = { resolve, reject };
      this.send('uci');
    });
  }

  received(raw: string): void {
    if (this.state === 'closed') return;
    const line = raw.trim();
    if (line === '') return;
    const tokens = tokenize(line);
    switch (tokens[0]) {
      case 'info':
        if (this.state === 'searching') this.takeInfo(tokens);
        return;
      case 'bestmove':
        return this.takeBestmove(tokens);
      case 'readyok': {
        const w = this.ready.shift();
        w?.resolve();
        return;
      }
      case 'uciok':
        if (this.state === 'starting') {
          this.state = 'idle';
          const h = this.handshake;
          this.handshake = undefined;
          h?.resolve();
        }
        return;
      case 'id':
        if (tokens[1] === 'name') this.engineName = line.replace(/^id\s+name\s*/, '');
        else if (tokens[1] === 'author') this.author = line.replace(/^id\s+author\s*/, '');
        return;
      case 'option': {
        const opt = parseOption(line);
        if (opt) this.options.set(opt.name.toLowerCase(), opt);
        return;
      }
      case 'registration':
        if (tokens[1] === 'error') this.send('register later');
        return;
      default:
        // copyprotection, unknown chatter: ignored, as the protocol asks.
        return;
    }
  }

  closed(reason = 'the engine closed its connection'): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeReason = reason;
    const e = new EngineClosedError(reason);
    this.handshake?.reject(e);
    this.handshake = undefined;
    for (const w of this.ready.splice(0)) w.reject(e);
    const s = this.search;
    this.search = undefined;
    s?.reject(e);
  }

  /** Sends the options the engine has, with valid values; returns a warning for each other one, naming `who`. */
  setOptions(options: ReadonlyArray<readonly [string, string]>, who = this.engineName ?? 'engine'): string[] {
    const warnings: string[] = [];
    // Threads first: some engines size per-thread tables when Hash arrives.
    const ordered = [...options].sort((a, b) => Number(b[0].toLowerCase() === 'threads') - Number(a[0].toLowerCase() === 'threads'));
    for (const [name, value] of ordered) {
      const opt = this.options.get(name.toLowerCase());
      if (!opt) {
        warnings.push(`${who} has no option "${name}"`);
        continue;
      }
      if (opt.type === 'button') {
        if (value === '' || value.toLowerCase() === 'true') this.send(`setoption name ${opt.name}`);
        continue;
      }
      const v = checkOptionValue(opt, value);
      if (!v.ok) {
        warnings.push(`${who} option "${opt.name}": ${v.reason}`);
        continue;
      }
      if (opt.name.toLowerCase() === 'uci_chess960') this.chess960 = v.value === 'true';
      this.send(`setoption name ${opt.name} value ${v.value}`);
    }
    return warnings;
  }

  newGame(game: NewGame): Promise<void> {
    if (game.chess960 !== this.chess960 && this.options.has('uci_chess960')) {
      this.chess960 = game.chess960;
      this.send(`setoption name UCI_Chess960 value ${game.chess960}`);
    }
    if (game.opponent !== undefined && this.options.has('uci_opponent')) {
      this.send(`setoption name UCI_Opponent value none none computer ${game.opponent}`);
    }
    this.send('ucinewgame');
    return this.isReady();
  }

  isReady(): Promise<void> {
    if (this.state === 'closed') return Promise.reject(new EngineClosedError(this.closeReason));
    return new Promise<void>((resolve, reject) => {
      this.ready.push({ resolve, reject });
      this.send('isready');
    });
  }

  go(pos: PositionSpec, limits: GoLimits): Promise<EngineReply> {
    if (this.state === 'closed') return Promise.reject(new EngineClosedError(this.closeReason));
    if (this.state !== 'idle') return Promise.reject(new Error(`go while the engine is ${this.state}`));
    this.state = 'searching';
    this.info = {};
    this.exactScore = false;
    const promise = new Promise<EngineReply>((resolve, reject) => {
      this.search = { resolve, reject };
    });
    this.send(positionCommand(pos));
    this.send(goCommand(limits));
    return promise;
  }

  stop(): void {
    if (this.state === 'searching') this.send('stop');
  }

  gameOver(): void {
    // UCI has no game-end message; the next ucinewgame resets the engine.
  }

  quit(): void {
    if (this.state !== 'closed') this.send('quit');
  }

  private takeInfo(tokens: string[]): void {
    const info = parseInfo(tokens);
    if (info.multipv !== undefined && info.multipv !== 1) return;
    const cur = this.info;
    if (info.depth !== undefined) cur.depth = info.depth;
    if (info.seldepth !== undefined) cur.seldepth = info.seldepth;
    if (info.timeMs !== undefined) cur.timeMs = info.timeMs;
    if (info.nodes !== undefined) cur.nodes = info.nodes;
    if (info.nps !== undefined) cur.nps = info.nps;
    if (info.hashfull !== undefined) cur.hashfull = info.hashfull;
    if (info.tbhits !== undefined) cur.tbhits = info.tbhits;
    if (info.pv !== undefined && info.pv.length > 0) cur.pv = info.pv;
    if (info.score !== undefined) {
      const exact = info.score.bound === undefined;
      if (exact || !this.exactScore) {
        cur.score = info.score;
        this.exactScore ||= exact;
      }
    }
  }

  private takeBestmove(tokens: string[]): void {
    if (this.state !== 'searching') return;
    this.state = 'idle';
    const s = this.search;
    this.search = undefined;
    const reply: EngineReply = { kind: 'move', move: tokens[1] ?? '', info: this.info };
    if (tokens[2] === 'ponder' && tokens[3] !== undefined) reply.ponder = tokens[3];
    s?.resolve(reply);
  }
}

/** `position startpos|fen <FEN> [moves …]`. */
export function positionCommand(pos: PositionSpec): string {
  const root = pos.fen === STARTING_FEN && !pos.chess960 ? 'position startpos' : `position fen ${pos.fen}`;
  return pos.moves.length > 0 ? `${root} moves ${pos.moves.join(' ')}` : root;
}

/** `go …` with limits first (as fastchess does), then clocks; `go infinite` when nothing bounds the search. */
export function goCommand(l: GoLimits): string {
  const parts = ['go'];
  if (l.depth !== undefined) parts.push('depth', String(l.depth));
  if (l.nodes !== undefined) parts.push('nodes', String(l.nodes));
  if (l.movetime !== undefined) parts.push('movetime', String(Math.max(0, Math.round(l.movetime))));
  if (l.wtime !== undefined && l.btime !== undefined) {
    parts.push('wtime', String(Math.max(0, Math.round(l.wtime))), 'btime', String(Math.max(0, Math.round(l.btime))));
    if (l.winc) parts.push('winc', String(Math.round(l.winc)));
    if (l.binc) parts.push('binc', String(Math.round(l.binc)));
    if (l.movestogo) parts.push('movestogo', String(l.movestogo));
  }
  if (l.infinite || parts.length === 1) parts.push('infinite');
  return parts.join(' ');
}
