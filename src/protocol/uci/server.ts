/**
 * tabiya's side of UCI, sans-I/O: feed it every line the GUI writes (`receive`), give it a
 * `send` for what it answers, and an EngineHost that runs searches (on a worker thread when
 * `isready`, `stop` and `ponderhit` must be answered during a search).
 *
 *     const server = new UciServer((line) => process.stdout.write(line + '\n'), host);
 *     rl.on('line', (line) => server.receive(line));
 *
 * Commands: uci, debug, isready, setoption, register, ucinewgame, position, go (wtime btime winc
 * binc movestogo movetime depth nodes mate infinite ponder searchmoves), stop, ponderhit, quit,
 * plus `d` (show the position) and `eval` (static evaluation) for people at a terminal.
 * Option names are matched without regard to case or surrounding spaces. Bad input never
 * stops the engine: it is reported with `info string` and ignored.
 */
import { legalMoves } from '../../core/movegen.js';
import type { Position } from '../../core/position.js';
import { makeFen, positionFromFen, STARTING_FEN } from '../../notation/fen.js';
import { parseUci } from '../../notation/uci.js';
import type { LearnGame } from '../../engine/bookProbe.js';
import type { EngineConfig, EngineHost, WireBest, WireInfo, WireLimits } from '../../engine/host.js';
import { gameResult } from '../../engine/gameEnd.js';
import { DEFAULT_WDL, gamePhase, wdlPermille } from '../../engine/wdl.js';
import { POLICY_OPTIONS, defaultPolicy, policyOptionDefault, setPolicyOption, type PolicyOption } from '../../book/select/index.js';

export const ENGINE_NAME = 'tabiya 0.1.0';
export const ENGINE_AUTHOR = 'the tabiya authors';

interface OptionSpec {
  name: string;
  type: 'spin' | 'check' | 'string' | 'button' | 'combo';
  default?: string;
  min?: number;
  max?: number;
  vars?: string[];
  /** How a value changes the engine configuration (or, for 'show-wdl', the server's output). */
  apply: (value: string) => Partial<EngineConfig> | 'clear-hash' | 'show-wdl' | undefined;
  /** A book policy setting (src/book/select/options.ts): applied to the server's policy. */
  policy?: PolicyOption;
}

/** The book policy's settings as UCI options, from the table `tabiya book probe` uses too. */
const policyOption = (p: PolicyOption): OptionSpec => ({
  name: p.name,
  type: p.type,
  default: policyOptionDefault(p),
  ...(p.type === 'spin' ? { min: p.min!, max: p.max! } : {}),
  ...(p.values ? { vars: [...p.values] } : {}),
  apply: () => undefined,
  policy: p,
});

const spin = (name: string, def: number, min: number, max: number, key: keyof EngineConfig): OptionSpec => ({
  name,
  type: 'spin',
  default: String(def),
  min,
  max,
  apply: (v) => ({ [key]: Math.max(min, Math.min(max, parseInt(v, 10))) }),
});
const check = (name: string, def: boolean, key: keyof EngineConfig | undefined): OptionSpec => ({
  name,
  type: 'check',
  default: String(def),
  apply: (v) => (key ? { [key]: v.toLowerCase() === 'true' } : undefined),
});

export const OPTIONS: readonly OptionSpec[] = [
  spin('Hash', 16, 1, 8192, 'hashMB'),
  { name: 'Clear Hash', type: 'button', apply: () => 'clear-hash' },
  spin('Threads', 1, 1, 56, 'threads'),
  spin('MultiPV', 1, 1, 256, 'multiPV'),
  check('Ponder', false, undefined),
  spin('Move Overhead', 50, 0, 5000, 'moveOverhead'),
  check('OwnBook', false, 'ownBook'),
  { name: 'BookFile', type: 'string', default: '<empty>', apply: (v) => ({ bookFile: v === '<empty>' ? '' : v }) },
  ...POLICY_OPTIONS.map(policyOption),
  spin('BookDepth', 0, 0, 1000, 'bookDepth'),
  check('BookLearning', false, 'bookLearning'),
  check('BookAwareSearch', false, 'bookAwareSearch'),
  check('UCI_LimitStrength', false, 'limitStrength'),
  spin('UCI_Elo', 2800, 800, 2800, 'elo'),
  spin('Skill Level', 20, 0, 20, 'skillLevel'),
  check('UCI_Chess960', false, 'chess960'),
  check('UCI_AnalyseMode', false, undefined),
  { name: 'UCI_ShowWDL', type: 'check', default: 'false', apply: () => 'show-wdl' },
  { name: 'EvalParams', type: 'string', default: '<empty>', apply: (v) => ({ evalParams: v === '<empty>' ? '' : v }) },
];

function optionLine(o: OptionSpec): string {
  let s = `option name ${o.name} type ${o.type}`;
  if (o.default !== undefined) s += ` default ${o.default}`;
  if (o.min !== undefined) s += ` min ${o.min} max ${o.max}`;
  for (const v of o.vars ?? []) s += ` var ${v}`;
  return s;
}

const GO_NUMBERS = new Set(['wtime', 'btime', 'winc', 'binc', 'movestogo', 'movetime', 'depth', 'nodes', 'mate']);
const GO_WORDS = new Set([...GO_NUMBERS, 'infinite', 'ponder', 'searchmoves']);

/** Parses the words after `go`; unknown words are returned as errors. */
export function parseGo(words: readonly string[]): { limits: WireLimits; errors: string[] } {
  const limits: WireLimits = {};
  const errors: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (GO_NUMBERS.has(w)) {
      const v = Number(words[i + 1]);
      if (words[i + 1] === undefined || !Number.isFinite(v)) errors.push(`go ${w}: a number is required`);
      else (limits as Record<string, number>)[w] = v;
      i++;
    } else if (w === 'infinite') limits.infinite = true;
    else if (w === 'ponder') limits.ponder = true;
    else if (w === 'searchmoves') {
      const moves: string[] = [];
      while (i + 1 < words.length && !GO_WORDS.has(words[i + 1]!)) moves.push(words[++i]!);
      limits.searchmoves = moves;
    } else errors.push(`go: unknown parameter "${w}"`);
  }
  return { limits, errors };
}

export class UciServer {
  /** Called after `quit` (the transport closes then). */
  onQuit?: () => void;
  private fen = STARTING_FEN;
  private moves: string[] = [];
  private searching = false;
  /** UCI_ShowWDL: info lines carry the win/draw/loss chances of their score. */
  private showWdl = false;
  private searchId = 0;
  private debug = false;
  /** The last finished game, kept for learning at the next ucinewgame (or quit). */
  private finished: LearnGame | undefined;
  /** The colour the engine searched for last (-1: none yet), and its evaluations by ply. */
  private engineColor = -1;
  private evals: (number | null)[] = [];
  /** The book policy as set by the policy options (sent whole on every change). */
  private readonly policy = defaultPolicy();

  constructor(
    private readonly send: (line: string) => void,
    private readonly host: EngineHost,
  ) {}

  /** True while a search runs (between go and bestmove). */
  get busy(): boolean {
    return this.searching;
  }

  receive(raw: string): void {
    const line = raw.trim();
    if (line === '') return;
    const words = line.split(/\s+/);
    const cmd = words[0]!;
    switch (cmd) {
      case 'uci':
        this.send(`id name ${ENGINE_NAME}`);
        this.send(`id author ${ENGINE_AUTHOR}`);
        for (const o of OPTIONS) this.send(optionLine(o));
        this.send('uciok');
        return;
      case 'debug':
        this.debug = words[1] === 'on';
        return;
      case 'isready':
        // During a search at once; at start-up once the search thread has loaded.
        if (this.host.whenReady) this.host.whenReady(() => this.send('readyok'));
        else this.send('readyok');
        return;
      case 'register':
        return;
      case 'setoption':
        return this.setOption(line);
      case 'ucinewgame':
        this.learnFinished();
        this.engineColor = -1;
        this.evals = [];
        this.host.newGame();
        return;
      case 'position':
        return this.position(words);
      case 'go':
        return this.go(words.slice(1));
      case 'stop':
        if (this.searching) this.host.stop();
        return;
      case 'ponderhit':
        if (this.searching) this.host.ponderhit();
        return;
      case 'quit':
        if (this.searching) this.host.stop();
        this.learnFinished();
        this.host.close();
        this.onQuit?.();
        return;
      case 'd': {
        const pos = this.current();
        if (pos) this.send(`info string fen ${makeFen(pos)}`);
        return;
      }
      default:
        this.send(`info string unknown command: ${line}`);
    }
  }

  private setOption(line: string): void {
    const m = /^setoption\s+name\s+(.*?)(?:\s+value\s+(.*))?$/i.exec(line);
    if (!m) {
      this.send(`info string malformed setoption: ${line}`);
      return;
    }
    const name = m[1]!.trim().toLowerCase();
    const value = (m[2] ?? '').trim();
    const opt = OPTIONS.find((o) => o.name.toLowerCase() === name);
    if (!opt) {
      this.send(`info string unknown option: ${m[1]!.trim()}`);
      return;
    }
    if (opt.type === 'spin' && !/^-?\d+$/.test(value)) {
      this.send(`info string option ${opt.name}: "${value}" is not an integer`);
      return;
    }
    if (opt.type === 'check' && !/^(true|false)$/i.test(value)) {
      this.send(`info string option ${opt.name}: "${value}" is not true or false`);
      return;
    }
    if (opt.policy) {
      try {
        setPolicyOption(this.policy, opt.policy.name, value);
        this.host.configure({ bookPolicy: { ...this.policy } });
      } catch (e) {
        this.send(`info string option ${(e as Error).message}`);
      }
      return;
    }
    const change = opt.apply(value);
    if (change === 'show-wdl') this.showWdl = value.toLowerCase() === 'true';
    else if (change === 'clear-hash') this.host.clearHash();
    else if (change) this.host.configure(change);
    else if (opt.type === 'combo') this.send(`info string option ${opt.name}: "${value}" is not one of ${opt.vars!.join(', ')}`);
  }

  private position(words: string[]): void {
    let fen: string;
    let i: number;
    if (words[1] === 'startpos') {
      fen = STARTING_FEN;
      i = 2;
    } else if (words[1] === 'fen') {
      const end = words.indexOf('moves');
      fen = words.slice(2, end < 0 ? undefined : end).join(' ');
      i = end < 0 ? words.length : end;
    } else {
      this.send('info string position: expected "startpos" or "fen"');
      return;
    }
    const moves = words[i] === 'moves' ? words.slice(i + 1) : [];
    // Check now, so that a bad position is reported once and the last good one is kept.
    const r = positionFromFen(fen);
    if (!r.ok) {
      this.send(`info string position: ${r.error.message}`);
      return;
    }
    for (const mv of moves) {
      const m = parseUci(r.value, mv);
      if (!m.ok) {
        this.send(`info string position: ${m.error.message}`);
        return;
      }
      r.value.play(m.value);
    }
    this.fen = fen;
    this.moves = moves;
    // A game the engine played that the opponent's move ended (mate, stalemate, a draw by
    // rule): the GUI shows it with a position command and no go follows.
    const result = this.engineColor >= 0 ? gameResult(r.value, legalMoves(r.value).length) : undefined;
    if (result) this.finished = this.learnGame(fen, moves, result);
  }

  /** The game as book learning takes it, with the evaluations the engine found. */
  private learnGame(startFen: string, moves: string[], result: NonNullable<ReturnType<typeof gameResult>>): LearnGame {
    return { startFen, moves, result, engineColor: this.engineColor, evals: this.evals.slice(0, moves.length) };
  }

  /** Hands the finished game (if any) to book learning, once. */
  private learnFinished(): void {
    if (this.finished) this.host.learn(this.finished);
    this.finished = undefined;
  }

  private current(): Position | undefined {
    const r = positionFromFen(this.fen);
    if (!r.ok) return undefined;
    for (const mv of this.moves) {
      const m = parseUci(r.value, mv);
      if (!m.ok) return undefined;
      r.value.play(m.value);
    }
    return r.value;
  }

  private go(words: string[]): void {
    if (this.searching) {
      this.send('info string go ignored: a search is running (send stop first)');
      return;
    }
    const { limits, errors } = parseGo(words);
    for (const e of errors) this.send(`info string ${e}`);
    limits.startTime = Date.now();
    this.searching = true;
    const id = ++this.searchId;
    const fen = this.fen;
    const moves = this.moves.slice();
    // The WDL model reads the root's phase; the root is known here.
    const root = this.showWdl ? this.current() : undefined;
    const phase = root ? gamePhase(root) : -1;
    this.host.go(
      { fen, moves, limits },
      (info) => {
        if (id === this.searchId) this.send(formatInfo(info, phase));
      },
      (best) => {
        if (id !== this.searchId) return;
        this.searching = false;
        this.bestmove(best, fen, moves);
      },
    );
  }

  private bestmove(b: WireBest, fen: string, moves: string[]): void {
    if (b.error) this.send(`info string ${b.error}`);
    if (b.best === null) {
      this.send('bestmove (none)');
      return;
    }
    this.send(b.ponder ? `bestmove ${b.best} ponder ${b.ponder}` : `bestmove ${b.best}`);
    // Remember the game if our move ended it (UCI has no result command).
    const r = positionFromFen(fen);
    if (!r.ok) return;
    const engineColor = (() => {
      for (const mv of moves) {
        const m = parseUci(r.value, mv);
        if (!m.ok) return -1;
        r.value.play(m.value);
      }
      return r.value.turn;
    })();
    if (engineColor < 0) return;
    this.engineColor = engineColor;
    // The engine's view after its move: what the book's PostBook keeps (book moves have none).
    if (b.depth > 0) this.evals[moves.length] = b.mate !== undefined ? Math.sign(b.mate) * (20000 - Math.abs(b.mate)) : (b.cp ?? null);
    const m = parseUci(r.value, b.best);
    if (!m.ok) return;
    r.value.play(m.value);
    const result = gameResult(r.value, legalMoves(r.value).length);
    if (result) this.finished = this.learnGame(fen, [...moves, b.best], result);
    if (this.debug) this.send(`info string game ${result ?? 'continues'}`);
  }
}

/** An info line in UCI syntax; with a root phase (0..24, UCI_ShowWDL on) the score's `wdl`. */
export function formatInfo(i: WireInfo, wdlPhase = -1): string {
  let s = `info depth ${i.depth} seldepth ${i.seldepth} multipv ${i.multipv} score `;
  s += i.mate !== undefined ? `mate ${i.mate}` : `cp ${i.cp ?? 0}`;
  if (i.bound === 'lower') s += ' lowerbound';
  else if (i.bound === 'upper') s += ' upperbound';
  if (wdlPhase >= 0) s += ` wdl ${wdlPermille(DEFAULT_WDL, i.cp, i.mate, wdlPhase).join(' ')}`;
  s += ` nodes ${i.nodes} nps ${i.nps} hashfull ${i.hashfull} time ${i.time}`;
  if (i.pv.length > 0) s += ` pv ${i.pv.join(' ')}`;
  return s;
}
