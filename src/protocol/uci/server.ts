/**
 * tabiya's side of UCI, sans-I/O: feed it every line the GUI writes (`receive`), say when the
 * input has ended (`endOfInput`), give it a `send` for what it answers, and an EngineHost that
 * runs searches (on a worker thread when `isready`, `stop` and `ponderhit` must be answered
 * during a search).
 *
 *     const server = new UciServer((line) => process.stdout.write(line + '\n'), host);
 *     server.onQuit = () => rl.close();
 *     rl.on('line', (line) => server.receive(line));
 *     rl.on('close', () => server.endOfInput());
 *
 * Commands: uci, debug, isready, setoption, register, ucinewgame, position, go (wtime btime winc
 * binc movestogo movetime depth nodes mate infinite ponder searchmoves), stop, ponderhit, quit,
 * plus `d` (show the position) for people at a terminal. Option names are matched without
 * regard to case or spacing. Bad input never stops the engine: it is reported with
 * `info string` and ignored (a bad `go` starts no search).
 *
 * Every command is carried out in the order it came, as by Stockfish, whose command loop waits
 * for a running search before the next `go`: a `go` or `ucinewgame` that arrives during a
 * search waits for its `bestmove`, and so does everything after it. Two commands jump that
 * queue, since only they can end the search it waits for: `stop` during a search that runs
 * until stopped (`go infinite`, `go ponder`, no limit), and `ponderhit` while pondering. `quit`
 * is carried out at once: the search is stopped, its `bestmove` printed, and what follows
 * `quit` is not read. At the end of the input, the commands before it are carried out; a search
 * with a limit ends by it, one without is stopped; then the engine quits.
 */
import { legalMoves } from '../../core/movegen.js';
import type { Position } from '../../core/position.js';
import { makeFen, positionFromFen, STARTING_FEN } from '../../notation/fen.js';
import { parseUci } from '../../notation/uci.js';
import type { LearnGame } from '../../engine/bookProbe.js';
import type { EngineHost, WireBest, WireInfo, WireLimits } from '../../engine/host.js';
import { gameResult } from '../../engine/gameEnd.js';
import { DEFAULT_WDL, gamePhase, wdlPermille } from '../../engine/wdl.js';
import { defaultPolicy, setPolicyOption } from '../../book/select/index.js';
import { isUnbounded, parseGo } from './go.js';
import { OPTIONS, TUNABLE_OPTIONS, findOption, optionLine, optionValueProblem, type OptionSpec } from './options.js';
import { OrderedOutput } from '../orderedOutput.js';

export const ENGINE_NAME = 'tabiya 0.1.0';
export const ENGINE_AUTHOR = 'the tabiya authors';

/** Commands that wait for a running search to end (and keep everything after them waiting). */
const WAIT_FOR_SEARCH = new Set(['go', 'ucinewgame']);

/** The search between `go` and its `bestmove`. */
interface RunningSearch {
  readonly limits: WireLimits;
  /** Side to move at the root (for the clock that bounds the search). */
  readonly us: number;
  /** Still waiting for ponderhit. */
  pondering: boolean;
  /** Stop was already sent (by `stop`, at the end of the input, or by quit). */
  stopSent: boolean;
}

const firstWord = (line: string): string => line.split(/\s+/, 1)[0]!;

/** Does the search go on until stop (or ponderhit)? After ponderhit, its own limits decide. */
const runsUntilStopped = (s: RunningSearch): boolean => s.pondering || isUnbounded({ ...s.limits, ponder: false }, s.us);

export class UciServer {
  /** Called once the engine has quit (after `quit`, or when the input has ended and all is done). */
  onQuit?: () => void;
  private fen = STARTING_FEN;
  private moves: string[] = [];
  private search: RunningSearch | undefined;
  /** Commands waiting for the running search to end, with the time they arrived. */
  private readonly backlog: { line: string; at: number }[] = [];
  private draining = false;
  /** isready answers still to come from the host. */
  private pendingReady = 0;
  private inputEnded = false;
  private quitting = false;
  private closed = false;
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

  /** The options `uci` advertises and `setoption` reads. */
  private readonly options: readonly OptionSpec[];

  /** `tunable`: the search parameters are options too (`tabiya uci --tunable`, for tuners). */
  constructor(
    sendLine: (line: string) => void,
    private readonly host: EngineHost,
    opts: { tunable?: boolean } = {},
  ) {
    this.options = opts.tunable ? [...OPTIONS, ...TUNABLE_OPTIONS] : OPTIONS;
    this.output = new OrderedOutput(sendLine);
  }

  /** Replies in the order of the commands: nothing overtakes a readyok still to come. */
  private readonly output: OrderedOutput;
  private send(line: string): void {
    this.output.send(line);
  }

  /** True while a search runs (between go and bestmove). */
  get busy(): boolean {
    return this.search !== undefined;
  }

  /** True once quit was read: nothing more is read, though a readyok may still be owed. */
  get quitRead(): boolean {
    return this.quitting;
  }

  /** True once the engine has quit: nothing more is read or written. */
  get ended(): boolean {
    return this.closed;
  }

  receive(raw: string): void {
    // One line at a time: a transport that hands over several must not have them read as one.
    if (/[\r\n]/.test(raw)) {
      for (const part of raw.split(/\r\n|\r|\n/)) this.receive(part);
      return;
    }
    const line = raw.trim();
    if (line === '' || this.quitting || this.closed) return;
    const cmd = firstWord(line);
    if (cmd === 'quit') return this.quit();
    const s = this.search;
    const queued = this.backlog.length > 0 || (s !== undefined && WAIT_FOR_SEARCH.has(cmd));
    // A search already told to stop is ended: a stop or ponderhit after it belongs to the go
    // waiting in the backlog, and waits with it (else that search would never be stopped).
    const endsWaitedSearch = s !== undefined && !s.stopSent && ((cmd === 'stop' && runsUntilStopped(s)) || (cmd === 'ponderhit' && s.pondering));
    if (queued && !endsWaitedSearch) {
      this.backlog.push({ line, at: Date.now() });
      return;
    }
    this.handle(line, Date.now());
  }

  /** The input has ended: carry out what came before it, end the searches, then quit. */
  endOfInput(): void {
    this.inputEnded = true;
    this.settle();
  }

  private handle(line: string, at: number): void {
    const words = line.split(/\s+/);
    const cmd = words[0]!;
    switch (cmd) {
      case 'uci':
        this.send(`id name ${ENGINE_NAME}`);
        this.send(`id author ${ENGINE_AUTHOR}`);
        for (const o of this.options) this.send(optionLine(o));
        this.send('uciok');
        return;
      case 'debug':
        if (words[1] === 'on' || words[1] === 'off') this.debug = words[1] === 'on';
        else this.send(`info string debug: expected "on" or "off", got ${words[1] === undefined ? 'nothing' : `"${words[1]}"`}`);
        return;
      case 'isready':
        return this.isready();
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
        return this.go(words.slice(1), at);
      case 'stop':
        if (this.search) {
          this.search.stopSent = true;
          this.host.stop();
        }
        return;
      case 'ponderhit':
        if (this.search?.pondering) {
          this.search.pondering = false;
          this.host.ponderhit();
          this.settle();
        }
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

  /** isready: readyok once the host has done what came before (at once during a search). */
  private isready(): void {
    if (!this.host.whenReady) {
      this.send('readyok');
      return;
    }
    this.pendingReady++;
    const readyok = this.output.hold();
    this.host.whenReady(() => {
      this.pendingReady--;
      if (this.closed) return;
      readyok('readyok');
      this.settle();
    });
  }

  /** quit: what follows is not read; a running search is stopped and answers first. */
  private quit(): void {
    this.quitting = true;
    // What waited for the search is dropped, but an isready among it is still answered.
    const readies = this.backlog.filter((b) => firstWord(b.line) === 'isready').length;
    this.backlog.length = 0;
    for (let i = 0; i < readies; i++) this.isready();
    this.stopSearch();
    this.settle();
  }

  private stopSearch(): void {
    const s = this.search;
    if (s && !s.stopSent) {
      s.stopSent = true;
      this.host.stop();
    }
  }

  /**
   * Moves towards the end once the input has ended or quit came: stops a search that would
   * not end by itself, and quits when no search, queued command or readyok is left.
   */
  private settle(): void {
    if (this.closed || (!this.inputEnded && !this.quitting)) return;
    const s = this.search;
    if (s) {
      if (this.quitting || runsUntilStopped(s)) this.stopSearch();
      return;
    }
    // An isready sent before quit is answered first (Stockfish answers it before reading quit).
    if (this.pendingReady > 0 || (!this.quitting && this.backlog.length > 0)) return;
    this.closed = true;
    this.learnFinished();
    this.host.close();
    this.onQuit?.();
  }

  /** Carries out the commands that waited for the search that just ended, up to one that must wait again. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    while (this.backlog.length > 0 && !this.closed) {
      const next = this.backlog[0]!;
      if (this.search && WAIT_FOR_SEARCH.has(firstWord(next.line))) break;
      this.backlog.shift();
      this.handle(next.line, next.at);
    }
    this.draining = false;
  }

  private setOption(line: string): void {
    const m = /^setoption\s+name\s+(.*?)(?:\s+value(?:\s+(.*))?)?$/i.exec(line);
    if (!m) {
      this.send(`info string setoption: expected "setoption name <name> [value <value>]", got: ${line}`);
      return;
    }
    const value = (m[2] ?? '').trim();
    const opt = findOption(m[1]!, this.options);
    if (!opt) {
      this.send(`info string unknown option: ${m[1]!.trim()}`);
      return;
    }
    const problem = optionValueProblem(opt, value);
    if (problem !== undefined) {
      this.send(`info string option ${opt.name}: ${problem}; not changed`);
      return;
    }
    if (opt.policy) {
      try {
        setPolicyOption(this.policy, opt.policy.name, value);
        this.host.configure({ bookPolicy: { ...this.policy } });
      } catch (e) {
        this.send(`info string option ${(e as Error).message}; not changed`);
      }
      return;
    }
    const change = opt.apply(value);
    if (change === 'show-wdl') this.showWdl = value.toLowerCase() === 'true';
    else if (change === 'clear-hash') this.host.clearHash();
    else if (change) this.host.configure(change);
  }

  /**
   * position startpos|fen F [moves M…]. A bad FEN leaves the current position as it is. An
   * illegal move ends the list there: the position is the one after the moves before it, as
   * Stockfish makes it (it stops reading the moves at the first one that is not legal).
   */
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
    if (i < words.length && words[i] !== 'moves') {
      this.send(`info string position: expected "moves" after startpos, got "${words[i]}"; the words after startpos are ignored`);
    }
    const listed = words[i] === 'moves' ? words.slice(i + 1) : [];
    // Check now, so that a bad position is reported once and the last good one is kept.
    const r = positionFromFen(fen);
    if (!r.ok) {
      this.send(`info string position: ${r.error.message}; the position stays as it was`);
      return;
    }
    let moves = listed;
    for (const [k, mv] of listed.entries()) {
      const m = parseUci(r.value, mv);
      if (!m.ok) {
        const kept = k === 0 ? 'the one the command starts from' : `the one after the ${k} move${k === 1 ? '' : 's'} before it`;
        this.send(`info string position: move ${k + 1} of ${listed.length}, ${m.error.message}; the position is ${kept}`);
        moves = listed.slice(0, k);
        break;
      }
      r.value.play(m.value);
    }
    // Another game, or a takeback: a finished game is learned now (the UCI protocol lets a GUI
    // never send ucinewgame, and the next finished game would replace it), and the engine's
    // evaluations are kept only along the line the two share.
    const shared = fen === this.fen ? sharedPrefix(this.moves, moves) : 0;
    if (this.finished !== undefined && (fen !== this.finished.startFen || sharedPrefix(this.finished.moves, moves) < this.finished.moves.length)) this.learnFinished();
    if (this.evals.length > shared) this.evals.length = shared;
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

  private go(words: string[], at: number): void {
    const root = this.current();
    if (!root) {
      this.send('info string go: the position cannot be set up; no search started');
      return;
    }
    const { limits, errors, ignored } = parseGo(words, root);
    if (ignored.length > 0) this.send(`info string go: ignored words that are not go parameters: ${ignored.map((w) => `"${w}"`).join(' ')}`);
    if (errors.length > 0) {
      for (const e of errors) this.send(`info string ${e}`);
      this.send('info string go: no search started');
      return;
    }
    limits.startTime = at;
    const id = ++this.searchId;
    const search: RunningSearch = { limits, us: root.turn, pondering: limits.ponder === true, stopSent: false };
    this.search = search;
    const fen = this.fen;
    const moves = this.moves.slice();
    // The WDL model reads the root's phase; the root is known here.
    const phase = this.showWdl ? gamePhase(root) : -1;
    this.host.go(
      { fen, moves, limits },
      (info) => {
        if (id === this.searchId && !this.closed) this.send(formatInfo(info, phase));
      },
      (best) => {
        if (id !== this.searchId || this.search !== search) return;
        this.search = undefined;
        this.bestmove(best, fen, moves);
        this.drain();
        this.settle();
      },
    );
    // A search started after the end of the input (or by a same-thread host, already over).
    if (this.search === search) this.settle();
  }

  private bestmove(b: WireBest, fen: string, moves: string[]): void {
    if (b.error) this.send(`info string ${b.error}`);
    if (b.note) this.send(`info string ${b.note}`);
    if (b.best === null) {
      // No legal move: say which end it is, as Stockfish does (mate 0: mated; cp 0: stalemate).
      this.send(`info depth 0 score ${playedOut(fen, moves)?.inCheck() ? 'mate 0' : 'cp 0'}`);
      this.send('bestmove (none)');
      return;
    }
    this.send(b.ponder ? `bestmove ${b.best} ponder ${b.ponder}` : `bestmove ${b.best}`);
    // Remember the game if our move ended it (UCI has no result command).
    const pos = playedOut(fen, moves);
    if (pos === undefined) return;
    this.engineColor = pos.turn;
    // The engine's view after its move: what the book's PostBook keeps (book moves have none).
    // A book move (depth 0) has none; null also clears one left from a line taken back.
    this.evals[moves.length] = b.depth === 0 ? null : b.mate !== undefined ? Math.sign(b.mate) * (20000 - Math.abs(b.mate)) : (b.cp ?? null);
    const m = parseUci(pos, b.best);
    if (!m.ok) return;
    pos.play(m.value);
    const result = gameResult(pos, legalMoves(pos).length);
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

/** The position after `moves` from `fen`, or undefined if either cannot be read. */
function playedOut(fen: string, moves: readonly string[]): Position | undefined {
  const r = positionFromFen(fen);
  if (!r.ok) return undefined;
  for (const mv of moves) {
    const m = parseUci(r.value, mv);
    if (!m.ok) return undefined;
    r.value.play(m.value);
  }
  return r.value;
}

/** How many moves two lines share from their start. */
function sharedPrefix(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}
