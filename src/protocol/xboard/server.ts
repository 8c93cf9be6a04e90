/**
 * tabiya's side of the xboard protocol (CECP v2), sans-I/O like the UCI server: `receive`
 * each line, `send` the answers, an EngineHost runs the searches.
 *
 * Supported: feature negotiation (setboard, usermove, ping, reuse, analyze, memory, smp, colors=0,
 * sigint/sigterm off), new, variant fischerandom, force, go, playother, usermove (coordinate
 * notation, castling as e1g1, O-O or king-takes-rook), level/st/sd, time/otim, ?, ping, draw,
 * result (hands the finished game to book learning), setboard, undo, remove, hard/easy
 * (pondering), post/nopost, analyze/exit/., hint (the book move, else the reply the last search
 * expected), bk (the book moves with their statistics and chances), memory, cores, option,
 * quit. After its own move the engine claims the result when the rules end the game (mate,
 * stalemate, fifty moves, repetition, insufficient material).
 *
 * A numeric argument that is not a number of the kind the command takes (`sd abc`, `st -1`,
 * `level 40 x 0`, `memory 0`) is answered `Error (bad argument: …): COMMAND` and changes
 * nothing, and so is a bad option value. `quit` ends the engine at once; at the end of the
 * input (`endOfInput`) the commands before it are carried out, a search for a move is finished
 * and its move printed, analysis and pondering are ended, pings answered; then the engine quits.
 */
import { legalMoves } from '../../core/movegen.js';
import { CASTLING, KIND_MASK } from '../../core/move.js';
import type { Position } from '../../core/position.js';
import { unwrap } from '../../core/result.js';
import { makeFen, positionFromFen, STARTING_FEN } from '../../notation/fen.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import { gameResult, type GameResult } from '../../engine/gameEnd.js';
import type { BookSource } from '../../engine/bookProbe.js';
import { bookReport, formatBookReport } from '../../engine/bookReport.js';
import type { EngineConfig, EngineHost, WireBest, WireInfo, WireLimits } from '../../engine/host.js';
import { ENGINE_NAME } from '../uci/server.js';
import { findXboardPolicyOption } from '../uci/options.js';
import { POLICY_OPTIONS, defaultPolicy, policyOptionDefault, setPolicyOption, type PolicyOption } from '../../book/select/index.js';
import { numberProblem, readNumber, type NumberRule } from '../numberArg.js';
import { parseLevel } from './level.js';
import { OrderedOutput } from '../orderedOutput.js';
import { MAX_SHARED_HASH_MB } from '../../engine/wasm/smp.js';
import { MAX_THREADS } from '../../engine/signals.js';

type SearchKind = 'think' | 'ponder' | 'analyze';

/** What the numeric arguments accept (st 0 and sd 0 turn their limit off). */
const SECONDS: NumberRule = { min: 0, fraction: true };
const PLIES: NumberRule = { min: 0 };
const CLOCK: NumberRule = { min: -Number.MAX_SAFE_INTEGER };
const AT_LEAST_1: NumberRule = { min: 1 };

const RESULT_TEXT: Record<GameResult, string> = { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' };

export interface XboardServerOptions {
  /**
   * Opens the book file for `bk` and `hint` (the search thread has its own copy; this one is
   * opened per question, so it shows what learning wrote since). Without it `bk` has no book.
   */
  openBook?: (path: string) => { source: BookSource; close(): void };
}

export class XboardServer {
  onQuit?: () => void;
  private startFen = STARTING_FEN;
  private moves: string[] = [];
  private pos: Position;
  /** Colour the engine plays (0 White, 1 Black), -1 in force mode. */
  private engineColor = 1;
  private chess960 = false;
  private post = true;
  private ponderOn = false;
  private analyzing = false;
  /** level: moves per session (0: all), base and increment in ms; st: fixed ms per move; sd: depth. */
  private mps = 0;
  private baseMs = 300000;
  private incMs = 0;
  private stMs = 0;
  private sdDepth = 0;
  private engineClock = 300000;
  private otherClock = 300000;
  private search: { id: number; kind: SearchKind; ponderMove?: string; startedAt: number } | undefined;
  private searchId = 0;
  /** Pings that came while the engine thought about its move: answered after the move. */
  private pongsAfterMove: string[] = [];
  /** quit was read: nothing more is, and the engine quits once the pings before it are answered. */
  private quitting = false;
  /** The colour the engine last moved for (-1: none this game), and its evaluations by ply. */
  private playedColor = -1;
  private evals: (number | null)[] = [];
  /** The book policy as set by the policy options (sent whole on every change). */
  private readonly policy = defaultPolicy();
  private bookFile = '';
  /** The reply the last search expected, and the game (start and moves) it belongs after. */
  private expected: { move: string; game: string } | undefined;
  /** Why the last setboard was refused: no move is played or searched until a position is set. */
  private positionError: string | undefined;
  /** Replies (pongs, feature done=1) waiting for the search thread. */
  private pendingPongs = 0;
  private inputEnded = false;
  private closed = false;

  constructor(
    sendLine: (line: string) => void,
    private readonly host: EngineHost,
    private readonly opts: XboardServerOptions = {},
  ) {
    this.pos = unwrap(positionFromFen(STARTING_FEN));
    this.output = new OrderedOutput(sendLine);
  }

  /** Replies in the order of the commands: nothing overtakes a pong still to come. */
  private readonly output: OrderedOutput;
  private send(line: string): void {
    this.output.send(line);
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
    if (line === '' || this.closed || this.quitting) return;
    const sp = line.indexOf(' ');
    const cmd = sp < 0 ? line : line.slice(0, sp);
    const arg = sp < 0 ? '' : line.slice(sp + 1).trim();
    /** Reads the argument as a number by `rule`, or answers the error and gives undefined. */
    const num = (rule: NumberRule, unit: string): number | undefined => {
      const token = arg === '' ? undefined : arg;
      const v = readNumber(token, rule);
      if (v === undefined) this.badArgument(numberProblem(token, rule, unit), line);
      return v;
    };
    switch (cmd) {
      case 'xboard':
      case 'accepted':
      case 'rejected':
      case 'random':
      case 'computer':
      case 'name':
      case 'rating':
      case 'ics':
      case 'draw':
      case '.':
      case 'white':
      case 'black':
        return;
      case 'protover':
        // An engine whose search threads are still starting says done=0 first and done=1 once
        // it can search, so that the GUI does not start the clock before (CECP: feature done).
        if (this.host.whenReady) this.send('feature done=0');
        this.send(
          `feature myname="${ENGINE_NAME}" setboard=1 usermove=1 ping=1 playother=1 sigint=0 sigterm=0 reuse=1 analyze=1 ` +
            'colors=0 san=0 time=1 draw=0 memory=1 smp=1 name=0 nps=0 debug=1 variants="normal,fischerandom" ' +
            'option="OwnBook -check 0" option="BookFile -file " option="Skill Level -spin 20 0 20" ' +
            'option="Move Overhead -spin 10 0 5000" option="BookAwareSearch -check 0" ' +
            'option="BookReturn -check 0" option="BookReturnMargin -spin 30 0 1000" option="BookReturnPlies -spin 4 1 8" ' +
            'option="BookDepth -spin 0 0 1000" option="BookLearning -check 0" ' +
            POLICY_OPTIONS.map(xboardOption).join(' ') +
            (this.host.whenReady ? '' : ' done=1'),
        );
        if (this.host.whenReady) this.sendWhenReady('feature done=1');
        return;
      case 'new':
        this.stopSearch();
        this.chess960 = false;
        this.host.configure({ chess960: false });
        this.setPosition(STARTING_FEN);
        // CECP "new": the time control stays (level or st) and the clocks go back to its start;
        // only the depth limit of sd is removed.
        this.sdDepth = 0;
        this.engineClock = this.baseMs;
        this.otherClock = this.baseMs;
        this.playedColor = -1;
        this.evals = [];
        this.host.newGame();
        // In analyze mode new resets the position and the analysis goes on (CECP, "Analyze Mode").
        this.engineColor = this.analyzing ? -1 : 1;
        if (this.analyzing) this.analyze();
        return;
      case 'variant':
        this.chess960 = arg === 'fischerandom';
        this.host.configure({ chess960: this.chess960 });
        if (arg !== 'normal' && arg !== 'fischerandom') this.send(`Error (unsupported variant): ${arg}`);
        return;
      case 'force':
        this.stopSearch();
        this.engineColor = -1;
        return;
      case 'go':
        this.stopSearch();
        this.engineColor = this.pos.turn;
        this.think();
        return;
      case 'playother':
        this.stopSearch();
        this.engineColor = this.pos.turn ^ 1;
        return;
      case 'level':
        return this.level(arg, line);
      case 'st': {
        // st 0 turns the fixed time off (the clock of `level` counts again).
        const sec = num(SECONDS, 'seconds');
        if (sec !== undefined) this.stMs = Math.round(sec * 1000);
        return;
      }
      case 'sd': {
        const depth = num(PLIES, 'plies');
        if (depth !== undefined) this.sdDepth = depth;
        return;
      }
      case 'time':
      case 'otim': {
        // XBoard lets a clock run below zero when it does not flag the loss itself.
        const cs = num(CLOCK, 'centiseconds');
        if (cs !== undefined) {
          if (cmd === 'time') this.engineClock = cs * 10;
          else this.otherClock = cs * 10;
        }
        return;
      }
      case 'nps':
        // Not supported (feature nps=0). A GUI that sends it anyway must be told, or it takes
        // the engine to count time in nodes while it keeps to the wall clock (CECP, "nps").
        this.send('Error (unknown command): nps');
        return;
      case 'usermove':
        return this.usermove(arg);
      case '?':
        if (this.search?.kind === 'think') this.host.stop();
        return;
      case 'ping':
        if (this.search?.kind === 'think') this.pongsAfterMove.push(arg);
        else this.sendWhenReady(`pong ${arg}`);
        return;
      case 'result':
        return this.result(arg);
      case 'setboard':
        this.stopSearch();
        this.setPosition(arg);
        if (this.analyzing) this.analyze();
        return;
      case 'undo':
      case 'remove':
        this.stopSearch();
        this.takeBack(cmd === 'undo' ? 1 : 2);
        if (this.analyzing) this.analyze();
        return;
      case 'hard':
        this.ponderOn = true;
        return;
      case 'easy':
        this.ponderOn = false;
        if (this.search?.kind === 'ponder') this.stopSearch();
        return;
      case 'post':
        this.post = true;
        return;
      case 'nopost':
        this.post = false;
        return;
      case 'analyze':
        this.stopSearch();
        this.analyzing = true;
        this.engineColor = -1;
        this.analyze();
        return;
      case 'exit':
        if (this.analyzing) {
          this.analyzing = false;
          this.stopSearch();
        }
        return;
      case 'hint':
        return this.hint();
      case 'bk':
        return this.bookMoves();
      case 'memory': {
        // The protocol gives the most the engine may use: more than the hash table's largest
        // size is not an error, the table just stops there, and nothing is said (a `telluser`
        // would pop up in the GUI, which sends `memory` before every game).
        const mb = num(AT_LEAST_1, 'megabytes');
        if (mb !== undefined) this.host.configure({ hashMB: Math.min(MAX_SHARED_HASH_MB, mb) });
        return;
      }
      case 'cores': {
        // CECP: the most CPU cores the engine may use, read as its number of search threads
        // (Lazy SMP helpers, as the UCI option Threads), at most the engine's largest number.
        const n = num(AT_LEAST_1, 'cores');
        if (n !== undefined) this.host.configure({ threads: Math.min(MAX_THREADS, n) });
        return;
      }
      case 'option':
        return this.option(arg, line);
      case 'quit':
        // What follows is not read; a ping sent before quit is answered first.
        this.quitting = true;
        this.stopSearch();
        this.settle();
        return;
      default:
        // A bare move is a user move too (protocol 1 style).
        if (/^[a-h][1-8][a-h][1-8][nbrq]?$/.test(cmd) || /^O-O(-O)?$/.test(cmd)) return this.usermove(cmd);
        this.send(`Error (unknown command): ${cmd}`);
    }
  }

  private setPosition(fen: string): void {
    const r = positionFromFen(fen);
    if (!r.ok) {
      this.send(`tellusererror Illegal position: ${r.error.message}`);
      // CECP, setboard: until the next new or setboard there is no position to play on; the
      // one before must not be played on in its place.
      this.positionError = r.error.message;
      return;
    }
    this.positionError = undefined;
    this.startFen = fen;
    this.moves = [];
    this.evals = [];
    this.pos = r.value;
    if (this.chess960) this.pos.chess960 = true;
  }

  private level(arg: string, line: string): void {
    const r = parseLevel(arg);
    if (typeof r === 'string') {
      this.badArgument(r, line);
      return;
    }
    this.mps = r.mps;
    this.baseMs = r.baseMs;
    this.incMs = r.incMs;
    // level and st are two kinds of time control: the last one given counts.
    this.stMs = 0;
    this.engineClock = this.baseMs;
    this.otherClock = this.baseMs;
  }

  /** CECP's answer to a command it cannot carry out: `Error (TYPE): COMMAND`. */
  private badArgument(problem: string, line: string): void {
    this.send(`Error (bad argument: ${problem}): ${line}`);
  }

  /** The input has ended: carry out what came before it, end the searches, then quit. */
  endOfInput(): void {
    this.inputEnded = true;
    this.settle();
  }

  /**
   * Sends `line` once the search thread can search (at once for a host without threads), in
   * its place among the replies; quit waits for it.
   */
  private sendWhenReady(line: string): void {
    if (!this.host.whenReady) return this.send(line);
    this.pendingPongs++;
    const hold = this.output.hold();
    this.host.whenReady(() => {
      this.pendingPongs--;
      if (this.closed) return;
      hold(line);
      this.settle();
    });
  }

  /**
   * After the end of the input: analysis and pondering (which never end by themselves) are
   * stopped, a search for a move is let finish; once no search or ping is left, quit.
   */
  private settle(): void {
    if (!(this.inputEnded || this.quitting) || this.closed) return;
    if (this.search && this.search.kind !== 'think') {
      this.analyzing = false;
      this.stopSearch();
    }
    if (this.search || this.pendingPongs > 0) return;
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.host.close();
    this.onQuit?.();
  }

  private option(arg: string, line: string): void {
    const eq = arg.indexOf('=');
    const name = (eq < 0 ? arg : arg.slice(0, eq)).trim();
    const value = eq < 0 ? '' : arg.slice(eq + 1).trim();
    /** A check option's 0/1 (true/false accepted too), or undefined after the error. */
    const check = (): boolean | undefined => {
      if (/^(1|true)$/i.test(value)) return true;
      if (/^(0|false)$/i.test(value)) return false;
      this.badArgument(`option ${name}: "${value}" is not 0 or 1`, line);
      return undefined;
    };
    /** A spin option's value in range, or undefined after the error. */
    const spin = (min: number, max: number): number | undefined => {
      const rule = { min, max };
      const v = readNumber(value, rule);
      if (v === undefined) this.badArgument(`option ${name}: ${numberProblem(value === '' ? undefined : value, rule)}`, line);
      return v;
    };
    const set = <K extends keyof EngineConfig>(key: K, v: EngineConfig[K] | undefined): void => {
      if (v !== undefined) this.host.configure({ [key]: v });
    };
    switch (name) {
      case 'OwnBook':
        return set('ownBook', check());
      case 'BookFile':
        this.bookFile = value;
        this.host.configure({ bookFile: value });
        return;
      case 'Skill Level':
        return set('skillLevel', spin(0, 20));
      case 'Move Overhead':
        return set('moveOverhead', spin(0, 5000));
      case 'BookAwareSearch':
        return set('bookAwareSearch', check());
      case 'BookReturn':
        return set('bookReturn', check());
      case 'BookReturnMargin':
        return set('bookReturnMargin', spin(0, 1000));
      case 'BookReturnPlies':
        return set('bookReturnPlies', spin(1, 8));
      case 'BookDepth':
        return set('bookDepth', spin(0, 1000));
      case 'BookLearning':
        return set('bookLearning', check());
      default: {
        const policy = findXboardPolicyOption(name);
        if (policy) {
          try {
            setPolicyOption(this.policy, policy.name, value);
            this.host.configure({ bookPolicy: { ...this.policy } });
          } catch (e) {
            this.badArgument(`option ${(e as Error).message}`, line);
          }
          return;
        }
        this.send(`Error (unknown option): ${name}`);
      }
    }
  }

  /** Parses an xboard move: coordinates, O-O / O-O-O, or king-takes-rook castling. */
  private parseMove(text: string): number | undefined {
    let s = text;
    if (s === 'O-O' || s === 'O-O-O' || s === '0-0' || s === '0-0-0') {
      const m = legalMoves(this.pos).find((x) => (x & KIND_MASK) === CASTLING && ((x & 63) > ((x >>> 6) & 63)) === (s.length === 3));
      return m;
    }
    if (s.length === 5 && s[4] === s[4]!.toUpperCase()) s = s.slice(0, 4) + s[4]!.toLowerCase();
    const r = parseUci(this.pos, s);
    return r.ok ? r.value : undefined;
  }

  private usermove(text: string): void {
    if (this.positionError !== undefined) {
      this.send(`Illegal move (no position: the last setboard was refused): ${text}`);
      return;
    }
    const m = this.parseMove(text);
    if (m === undefined) {
      this.send(`Illegal move: ${text}`);
      return;
    }
    const uci = makeUci(m, this.chess960 || this.pos.chess960);
    const s = this.search;
    if (s?.kind === 'ponder' && s.ponderMove === uci) {
      // Ponder hit: the search already on the board continues as our move's search.
      this.playMove(m, uci);
      s.kind = 'think';
      // The engine's clock runs from here, not from the start of pondering.
      s.startedAt = Date.now();
      this.host.ponderhit();
      return;
    }
    this.stopSearch();
    this.playMove(m, uci);
    if (this.analyzing) this.analyze();
    else if (this.pos.turn === this.engineColor) this.think();
  }

  private playMove(m: number, uci: string): void {
    this.pos.play(m);
    this.moves.push(uci);
  }

  private takeBack(n: number): void {
    if (this.positionError !== undefined) return;
    const keep = this.moves.slice(0, Math.max(0, this.moves.length - n));
    // The engine's evaluations of the moves kept stay theirs (book learning reads them).
    const evals = this.evals.slice(0, keep.length);
    const fen = this.startFen;
    this.setPosition(fen);
    for (const mv of keep) {
      const m = parseUci(this.pos, mv);
      if (m.ok) this.playMove(m.value, mv);
    }
    this.evals = evals;
  }

  /**
   * The limits of the engine's search for its move. `ahead`: for the move after the expected
   * reply (pondering), with the engine's clock as it will be then and that reply counted.
   */
  private limits(ahead?: { clock: number }): WireLimits {
    if (this.sdDepth > 0 && this.stMs === 0 && this.baseMs <= 0) return { depth: this.sdDepth };
    const l: WireLimits = {};
    if (this.sdDepth > 0) l.depth = this.sdDepth;
    if (this.stMs > 0) {
      l.movetime = this.stMs;
      return l;
    }
    const us = this.engineColor === -1 ? this.pos.turn : this.engineColor;
    const mine = Math.max(1, ahead?.clock ?? this.engineClock);
    const theirs = Math.max(1, this.otherClock);
    l.wtime = us === 0 ? mine : theirs;
    l.btime = us === 0 ? theirs : mine;
    l.winc = this.incMs;
    l.binc = this.incMs;
    if (this.mps > 0) {
      // The period counts the moves of this game, as XBoard and cutechess count them: from the
      // position of \`new\` or \`setboard\`, whatever move number its FEN gives. The side to move
      // has made half the plies since then, rounded down (it moved first when they are even).
      const played = Math.floor((this.moves.length + (ahead ? 1 : 0)) / 2) % this.mps;
      l.movestogo = this.mps - played;
    }
    return l;
  }

  private think(): void {
    if (this.positionError !== undefined) {
      this.send(`Error (no position: ${this.positionError}): go`);
      return;
    }
    const over = gameResult(this.pos, legalMoves(this.pos).length);
    if (over) {
      this.claim(over);
      return;
    }
    this.start('think', this.limits());
  }

  private analyze(): void {
    if (this.positionError !== undefined) return;
    if (legalMoves(this.pos).length === 0) return;
    this.start('analyze', { infinite: true });
  }

  private start(kind: SearchKind, limits: WireLimits, extraMove?: string): void {
    const id = ++this.searchId;
    limits.startTime = Date.now();
    this.search = { id, kind, ponderMove: extraMove, startedAt: limits.startTime };
    const moves = extraMove ? [...this.moves, extraMove] : this.moves.slice();
    this.host.go(
      { fen: this.startFen, moves, limits },
      (info) => {
        const s = this.search;
        if (s?.id === id && (this.post || s.kind === 'analyze')) this.send(formatThinking(info, s.kind === 'ponder' ? s.ponderMove : undefined));
      },
      (best) => {
        this.done(id, best);
        this.settle();
      },
    );
  }

  private done(id: number, best: WireBest): void {
    const s = this.search;
    if (!s || s.id !== id) return;
    this.search = undefined;
    if (s.kind !== 'think') return;
    if (best.best === null) {
      this.flushPongs();
      return;
    }
    const m = parseUci(this.pos, best.best);
    if (!m.ok) {
      this.send(`tellusererror internal error: engine move ${best.best} not legal`);
      this.flushPongs();
      return;
    }
    // xboard has no info string: a line starting with # is a comment GUIs show in the debug log.
    if (best.note) this.send(`# ${best.note}`);
    this.send(`move ${best.best}`);
    this.playedColor = this.pos.turn;
    // The engine's view after its move, for the book's PostBook (book moves have none).
    // A book move (depth 0) has none; null also clears one left from a line taken back.
    this.evals[this.moves.length] = best.depth === 0 ? null : best.mate !== undefined ? Math.sign(best.mate) * (20000 - Math.abs(best.mate)) : (best.cp ?? null);
    this.playMove(m.value, best.best);
    this.expected = best.ponder ? { move: best.ponder, game: this.gameLine() } : undefined;
    this.flushPongs();
    const over = gameResult(this.pos, legalMoves(this.pos).length);
    if (over) {
      this.claim(over);
      return;
    }
    if (this.ponderOn && best.ponder && !this.analyzing && !this.inputEnded) {
      this.start('ponder', { ...this.limitsForPonder(Date.now() - s.startedAt), ponder: true }, best.ponder);
    }
  }

  /**
   * The limits of the search started on the expected reply: the engine's next move, planned at
   * once, before XBoard's `time` for that move (sent only with the reply) and kept at the
   * ponder hit, when the clock starts. So it is planned as a UCI GUI plans `go ponder`: on the
   * engine's clock after the move just made (`thinkMs` off, the increment on, and the next
   * period's time at the end of a `level` period, as XBoard adds them), the reply counted.
   * The clock of the last `time` (before that move) overstated what is left by the move's
   * thinking time, which a search that used half of it could then use up.
   */
  private limitsForPonder(thinkMs: number): WireLimits {
    let clock = this.engineClock - thinkMs + this.incMs;
    // The move just made (the last of this.moves) ended a period: its time comes again.
    if (this.mps > 0 && Math.floor((this.moves.length - 1) / 2) % this.mps === this.mps - 1) clock += this.baseMs;
    return this.limits({ clock });
  }

  private claim(result: GameResult): void {
    let why = RESULT_TEXT[result];
    const n = legalMoves(this.pos).length;
    if (n === 0) why = this.pos.inCheck() ? (result === '1-0' ? 'White mates' : 'Black mates') : 'Stalemate';
    else if (this.pos.halfmoves >= 100) why = 'Draw by fifty-move rule';
    else if (this.pos.isInsufficientMaterial()) why = 'Draw by insufficient material';
    else why = 'Draw by repetition';
    this.send(`${result} {${why}}`);
  }

  private flushPongs(): void {
    for (const p of this.pongsAfterMove) this.send(`pong ${p}`);
    this.pongsAfterMove = [];
  }

  private stopSearch(): void {
    if (this.search) {
      this.host.stop();
      this.search = undefined;
    }
    this.flushPongs();
  }

  private result(arg: string): void {
    this.stopSearch();
    const r = arg.split(/\s+/)[0] as GameResult | '*';
    if (r !== '1-0' && r !== '0-1' && r !== '1/2-1/2' && r !== '*') {
      this.badArgument(`"${r}" is not a result (1-0, 0-1, 1/2-1/2 or *)`, `result ${arg}`);
    }
    if (r === '1-0' || r === '0-1' || r === '1/2-1/2') {
      // GUIs often send force before result: then the colour the engine last played counts.
      const engineColor = this.engineColor >= 0 ? this.engineColor : this.playedColor;
      const evals = this.evals.slice(0, this.moves.length);
      this.host.learn({ startFen: this.startFen, moves: this.moves.slice(), result: r, evals, ...(engineColor >= 0 ? { engineColor } : {}) });
    }
    this.engineColor = -1;
  }

  /** Runs `fn` on the book file, if there is one; errors come back as text. */
  private withBook<T>(fn: (source: BookSource) => T): { value?: T; error?: string } {
    if (this.bookFile === '' || !this.opts.openBook) return { error: 'no book file (option BookFile)' };
    try {
      const book = this.opts.openBook(this.bookFile);
      try {
        return { value: fn(book.source) };
      } finally {
        book.close();
      }
    } catch (e) {
      return { error: (e as Error).message };
    }
  }

  /** `bk`: lines starting with a space, ended by an empty line (the protocol's form). */
  private bookMoves(): void {
    const r: { value?: string[]; error?: string } =
      this.positionError !== undefined ? { error: `no position: ${this.positionError}` } : this.withBook((source) => formatBookReport(bookReport(source, this.policy, this.pos)));
    const lines = r.error !== undefined ? [r.error] : r.value!.length > 0 ? r.value! : ['no book moves in this position'];
    for (const l of lines) this.send(` ${l}`);
    this.send('');
  }

  /** `hint`: the book's choice, else the reply the engine's last search expected here. */
  private hint(): void {
    if (this.positionError !== undefined) return;
    const r = this.withBook((source) => bookReport(source, this.policy, this.pos));
    const rows = r.value ?? [];
    let move: string | undefined;
    if (rows.length > 0 && rows[0]!.probability > 0) move = makeUci(rows[0]!.move, this.chess960 || this.pos.chess960);
    else if (this.expected && this.expected.game === this.gameLine()) move = this.expected.move;
    if (move !== undefined) this.send(`Hint: ${move}`);
  }

  private gameLine(): string {
    return `${this.startFen} moves ${this.moves.join(' ')}`;
  }

  /** The current position as FEN (for tests and diagnostics). */
  get fen(): string {
    return makeFen(this.pos);
  }
}

/** A policy setting as an xboard `option` feature (checks 0/1, the combo's default starred). */
function xboardOption(p: PolicyOption): string {
  const def = policyOptionDefault(p);
  if (p.type === 'check') return `option="${p.name} -check ${def === 'true' ? 1 : 0}"`;
  if (p.type === 'combo') return `option="${p.name} -combo ${p.values!.map((v) => (v === def ? `*${v}` : v)).join(' /// ')}"`;
  return `option="${p.name} -spin ${def} ${p.min} ${p.max}"`;
}

/**
 * A thinking line: ply, score (cp; mates as ±100000 + moves), time (cs), nodes, pv. While
 * pondering, the search's line starts after the reply it expects, which the GUI has not seen:
 * it goes first, in parentheses as PolyGlot shows it (CECP allows leaving it out only after a
 * `Hint:` line), so that the line reads from the position on the GUI's board.
 */
export function formatThinking(i: WireInfo, ponderMove?: string): string {
  const score = i.mate !== undefined ? (i.mate > 0 ? 100000 + i.mate : -100000 + i.mate) : (i.cp ?? 0);
  const pv = ponderMove !== undefined ? [`(${ponderMove})`, ...i.pv] : i.pv;
  return `${i.depth} ${score} ${Math.round(i.time / 10)} ${i.nodes} ${pv.join(' ')}`;
}
