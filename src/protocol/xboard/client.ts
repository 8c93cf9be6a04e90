/**
 * Driving a CECP (xboard/winboard protocol 2) engine (match-runner.md §5b), sans-I/O like the UCI
 * client: `send` out, `received` in, `closed` when the process is gone.
 *
 * xboard engines play a colour rather than answer one search at a time, so the client keeps
 * count of the moves the engine already knows. The first search of a game leaves force mode
 * with `go`; later ones just pass the opponent's move (after `time`/`otim`), which makes the
 * engine think. The position is set with `setboard` when offered, otherwise with `edit` (after a
 * dummy move when Black is to move, as cutechess does); from the standard start position only
 * the moves are sent. The one timer here implements the protocol's own rule: without
 * `feature done=…` the GUI proceeds after a short wait (protocol-1 engines).
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
import { Position } from '../../core/position.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { makeSan } from '../../notation/san.js';
import { parseUci } from '../../notation/uci.js';
import { CASTLING, KIND_MASK } from '../../core/move.js';
import { PIECE_CHARS, WHITE, squareName } from '../../core/types.js';
import { levelCommand, parseClaim, parseFeatures, parseMoveLine, parseThinking, parseXboardOption, seconds } from './parse.js';

/** Features the client understands and accepts (the rest are rejected). */
const ACCEPTED = new Set([
  'ping', 'setboard', 'playother', 'san', 'usermove', 'time', 'draw', 'reuse', 'analyze', 'myname', 'variants', 'colors',
  'ics', 'name', 'pause', 'nps', 'debug', 'memory', 'smp', 'done', 'option', 'exclude', 'setscore', 'highlight',
]);

type State = 'new' | 'starting' | 'idle' | 'searching' | 'closed';

export interface XboardClientOptions {
  /** How long to wait for `feature done=…` after `protover 2` before treating the engine as protocol 1 (ms). */
  featureTimeoutMs?: number;
  /**
   * An engine without `ping` cannot say when it is done with the last game: a new game waits this
   * long (ms) instead, so that late output (a result claim) is not taken for the new game's (cutechess: 200).
   */
  settleMs?: number;
}

export class XboardClient implements EngineClient {
  readonly protocol = 'xboard' as const;
  engineName: string | undefined;
  readonly options = new Map<string, EngineOption>();
  /** Features as the engine announced them (values unquoted). */
  readonly features = new Map<string, string>();
  onNotice?: (notice: EngineNotice) => void;

  private state: State = 'new';
  private handshake: { resolve(): void; reject(e: Error): void } | undefined;
  private featureTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly pings = new Map<number, { resolve(): void; reject(e: Error): void }>();
  private pingCounter = 0;
  private search: { resolve(r: EngineReply): void; reject(e: Error): void } | undefined;
  private info: SearchInfo = {};
  /** A draw claim made during the current search: it holds only if the move that follows draws (cutechess). */
  private drawClaim: string | undefined;
  private closeReason = '';
  /** Root of the current game and how many of its moves the engine has been given or made. */
  private rootFen = STARTING_FEN;
  private known = 0;
  /** The current game is Chess960 (`variant fischerandom`): castling goes out as O-O / O-O-O. */
  private chess960 = false;
  /** The engine is out of force mode, playing the side it moved for. */
  private playing = false;
  /**
   * The engine began announcing features after the handshake's timer had run out (`feature
   * done=0` late): settled when its `done=1` comes. GNU Chess 6 writes its answer to `protover`
   * only once it reads a further command, so its features can arrive after `new`.
   */
  private lateFeatures: { promise: Promise<void>; resolve(): void; reject(e: Error): void } | undefined;
  private readonly featureTimeoutMs: number;
  private readonly settleMs: number;

  constructor(
    private readonly send: (line: string) => void,
    opts: XboardClientOptions = {},
  ) {
    this.featureTimeoutMs = opts.featureTimeoutMs ?? 8000;
    this.settleMs = opts.settleMs ?? 200;
  }

  get status(): State {
    return this.state;
  }

  /**
   * The engine's answer to an `sd` it does not take, when it gave one: Phalanx XXV answers
   * `Illegal move: sd 3` (it reads a command it does not know as a move), others
   * `Error (unknown command): sd`.
   */
  depthRefusal: string | undefined;

  /**
   * Sends `sd depth` and waits for the engine's `pong`, which comes after its answer to `sd`;
   * resolves to the engine's refusal, if it refused. `new` clears the limit again (CECP: "Remove
   * any search depth limit previously set by the sd command"). An engine without `ping` is not
   * asked: nothing would tell when its answer has come.
   */
  async probeDepth(depth: number): Promise<string | undefined> {
    if (this.feature('ping', '0') !== '1') return undefined;
    this.send(`sd ${depth}`);
    await this.isReady();
    return this.depthRefusal;
  }

  /** The engine asked to be restarted between games (`feature reuse=0`). */
  get wantsRestart(): boolean {
    return this.features.get('reuse') === '0';
  }

  private feature(name: string, dflt: string): string {
    return this.features.get(name) ?? dflt;
  }

  /** The engine plays this variant: it is in its `feature variants` (no such feature: every variant, as xboard assumes). */
  supportsVariant(name: string): boolean {
    const v = this.features.get('variants');
    return v === undefined || v.split(',').some((x) => x.trim() === name);
  }

  start(): Promise<void> {
    if (this.state !== 'new') return Promise.reject(new Error(`xboard handshake in state ${this.state}`));
    this.state = 'starting';
    return new Promise<void>((resolve, reject) => {
      this.handshake = { resolve, reject };
      this.send('xboard');
      this.send('protover 2');
      this.featureTimer = setTimeout(() => this.finishHandshake(), this.featureTimeoutMs);
    });
  }

  private finishHandshake(): void {
    if (this.featureTimer !== undefined) clearTimeout(this.featureTimer);
    this.featureTimer = undefined;
    if (this.state !== 'starting') return;
    this.state = 'idle';
    const h = this.handshake;
    this.handshake = undefined;
    h?.resolve();
  }

  received(raw: string): void {
    if (this.state === 'closed') return;
    const line = raw.trim();
    if (line === '') return;
    const tokens = tokenize(line);
    const head = tokens[0]!;
    if (head === 'feature') return this.takeFeatures(line);
    if (head === 'pong') {
      const n = parseInt(tokens[1] ?? '', 10);
      // A pong answers its ping and every earlier one.
      for (const [k, w] of [...this.pings]) {
        if (k <= n) {
          this.pings.delete(k);
          w.resolve();
        }
      }
      return;
    }
    const mv = parseMoveLine(tokens);
    if (mv !== undefined) {
      const r: EngineReply = { kind: 'move', move: mv, info: this.info };
      if (this.drawClaim !== undefined && this.state === 'searching') r.drawClaim = this.drawClaim;
      return this.reply(r);
    }
    if ((head === 'Illegal' || head === 'Error') && /:\s*sd\b/.test(line)) {
      this.depthRefusal ??= line;
      return;
    }
    if (head === 'resign') return this.reply({ kind: 'resign', info: this.info }, { kind: 'resign', text: line });
    if (head === 'Illegal' && tokens[1]?.startsWith('move')) {
      return this.reply({ kind: 'rejected', message: line, info: this.info }, { kind: 'rejected', text: line });
    }
    const claim = parseClaim(line);
    if (claim) {
      // A draw claim while thinking announces that the coming move draws (match-runner.md §5b):
      // wait for the move; the game loop checks the claim against the board after it.
      if (claim.result === '1/2-1/2' && this.state === 'searching') {
        this.drawClaim = line;
        return;
      }
      return this.reply({ kind: 'claim', result: claim.result, comment: claim.comment, info: this.info }, { kind: 'claim', result: claim.result, text: line });
    }
    if (this.state === 'searching') {
      const t = parseThinking(line);
      if (t) this.info = t;
    }
    // Error (…), tellusers, offer draw, '#' debug output and the rest: nothing to do.
  }

  private reply(r: EngineReply, notice?: EngineNotice): void {
    if (this.state !== 'searching') {
      if (notice) this.onNotice?.(notice);
      return;
    }
    this.state = 'idle';
    if (r.kind === 'move') this.known++;
    const s = this.search;
    this.search = undefined;
    s?.resolve(r);
  }

  private takeFeatures(line: string): void {
    for (const [k, v] of parseFeatures(line)) {
      const signal = (k === 'sigint' || k === 'sigterm') && v === '1';
      const ok = (ACCEPTED.has(k) || k === 'sigint' || k === 'sigterm') && !signal;
      this.send(`${ok ? 'accepted' : 'rejected'} ${k}`);
      if (!ok) continue;
      if (k === 'option') {
        const opt = parseXboardOption(v);
        if (opt) this.options.set(opt.name.toLowerCase(), opt);
        continue;
      }
      this.features.set(k, v);
      if (k === 'myname') this.engineName = v;
      if (k === 'done' && this.state !== 'starting') this.takeLateDone(v);
      if (k === 'done' && this.state === 'starting') {
        if (v === '1') this.finishHandshake();
        else if (this.featureTimer !== undefined) {
          // done=0: the engine needs time; only the owner's startup deadline applies now.
          clearTimeout(this.featureTimer);
          this.featureTimer = undefined;
        }
      }
    }
  }

  /** `feature done=0` after the handshake opens a wait for the engine's `done=1`, which ends it. */
  private takeLateDone(v: string): void {
    if (v === '1') {
      this.lateFeatures?.resolve();
      this.lateFeatures = undefined;
    } else if (this.lateFeatures === undefined) {
      let resolve!: () => void;
      let reject!: (e: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Nothing may be waiting yet; a rejection on close must not go unhandled.
      promise.catch(() => undefined);
      this.lateFeatures = { promise, resolve, reject };
    }
  }

  closed(reason = 'the engine closed its connection'): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closeReason = reason;
    if (this.featureTimer !== undefined) clearTimeout(this.featureTimer);
    const e = new EngineClosedError(reason);
    this.lateFeatures?.reject(e);
    this.lateFeatures = undefined;
    this.handshake?.reject(e);
    this.handshake = undefined;
    for (const w of this.pings.values()) w.reject(e);
    this.pings.clear();
    const s = this.search;
    this.search = undefined;
    s?.reject(e);
  }

  /** Sends the options (memory/cores as commands); returns a warning for each one the engine lacks or refuses, naming `who`. */
  setOptions(options: ReadonlyArray<readonly [string, string]>, who = this.engineName ?? 'engine'): string[] {
    const warnings: string[] = [];
    for (const [name, value] of options) {
      const lower = name.toLowerCase();
      if ((lower === 'memory' || lower === 'hash') && this.feature('memory', '0') === '1') this.send(`memory ${value}`);
      else if ((lower === 'cores' || lower === 'threads') && this.feature('smp', '0') === '1') this.send(`cores ${value}`);
      else if (lower === 'egtpath') this.send(`egtpath ${value}`);
      else {
        const opt = this.options.get(lower);
        if (!opt) warnings.push(`${who} has no option "${name}"`);
        else if (opt.type === 'button' || opt.type === 'save' || opt.type === 'reset') this.send(`option ${opt.name}`);
        else if (opt.type === 'check' && !/^(0|1|true|false)$/i.test(value)) warnings.push(`${who} option "${opt.name}": "${value}" is not 0 or 1`);
        else this.send(`option ${opt.name}=${opt.type === 'check' ? (/^(1|true)$/i.test(value) ? 1 : 0) : value}`);
      }
    }
    return warnings;
  }

  newGame(game: NewGame): Promise<void> {
    if (this.state === 'closed') return Promise.reject(new EngineClosedError(this.closeReason));
    this.rootFen = game.fen;
    this.known = 0;
    this.playing = false;
    this.send('new');
    this.chess960 = game.chess960;
    if (game.chess960) this.send('variant fischerandom');
    this.send('force');
    this.setRoot(this.rootFen);
    const l = game.limits;
    if (l.movetimeMs > 0) this.send(`st ${seconds(l.movetimeMs)}`);
    else if (l.baseMs > 0 || l.incMs > 0) this.send(levelCommand(l.moves, l.baseMs, l.incMs));
    else this.send('st 86400');
    if (l.depth > 0) this.send(`sd ${l.depth}`);
    if (l.nodes > 0 && this.feature('nps', '0') === '1') {
      this.send('st 1');
      this.send(`nps ${l.nodes}`);
    }
    this.send('post');
    this.send('easy');
    if (game.opponent !== undefined && this.feature('name', '0') === '1') {
      this.send('computer');
      this.send(`name ${game.opponent}`);
    }
    return this.settle();
  }

  /**
   * The end of a new game's set-up: a `pong` (or, without `ping`, a short wait), and, when the
   * engine is announcing its features late, its `done=1` (CECP: after `done=0` the GUI waits for
   * `done=1`). A search started before would run on the engine's clock while it still writes
   * them (GNU Chess 6 takes about 3 s over its 19 feature lines) and before `usermove` or `ping`
   * are known.
   */
  private async settle(): Promise<void> {
    if (this.feature('ping', '0') === '1') await this.isReady();
    else await new Promise((resolve) => setTimeout(resolve, this.settleMs));
    const late = this.lateFeatures;
    if (late === undefined) return;
    await late.promise;
    if (this.feature('ping', '0') === '1') await this.isReady();
  }

  private setRoot(fen: string): void {
    if (fen === STARTING_FEN) return;
    if (this.feature('setboard', '0') === '1') {
      this.send(`setboard ${fen}`);
      return;
    }
    const r = positionFromFen(fen);
    if (!r.ok) throw r.error;
    const pos = r.value;
    // Edit mode cannot say who is to move: a dummy move from the start position hands the move to Black.
    if (pos.turn !== WHITE) this.sendMove('b2b3', undefined);
    this.send('edit');
    this.send('#');
    for (const color of [0, 1]) {
      if (color === 1) this.send('c');
      for (let sq = 0; sq < 64; sq++) {
        const p = pos.board[sq]!;
        if (p !== 0 && p >> 3 === color) this.send(PIECE_CHARS[p]!.toUpperCase() + squareName(sq));
      }
    }
    this.send('.');
  }

  isReady(): Promise<void> {
    if (this.state === 'closed') return Promise.reject(new EngineClosedError(this.closeReason));
    if (this.feature('ping', '0') !== '1') return Promise.resolve();
    const n = ++this.pingCounter;
    return new Promise<void>((resolve, reject) => {
      this.pings.set(n, { resolve, reject });
      this.send(`ping ${n}`);
    });
  }

  go(pos: PositionSpec, limits: GoLimits): Promise<EngineReply> {
    if (this.state === 'closed') return Promise.reject(new EngineClosedError(this.closeReason));
    if (this.state !== 'idle') return Promise.reject(new Error(`go while the engine is ${this.state}`));
    if (pos.fen !== this.rootFen || pos.moves.length < this.known) {
      return Promise.reject(new Error('xboard go: the position does not continue the current game'));
    }
    this.state = 'searching';
    this.info = {};
    this.drawClaim = undefined;
    const promise = new Promise<EngineReply>((resolve, reject) => {
      this.search = { resolve, reject };
    });
    const toMove = (sideAtRoot(pos.fen) + pos.moves.length) & 1;
    const sendClocks = (): void => {
      if (limits.wtime === undefined || limits.btime === undefined || this.feature('time', '1') !== '1') return;
      const own = toMove === WHITE ? limits.wtime : limits.btime;
      const opp = toMove === WHITE ? limits.btime : limits.wtime;
      this.send(`time ${Math.max(0, Math.round(own / 10))}`);
      this.send(`otim ${Math.max(0, Math.round(opp / 10))}`);
    };
    if (this.playing && pos.moves.length === this.known + 1) {
      sendClocks();
      this.sendMove(pos.moves[this.known]!, pos);
      this.known++;
    } else {
      if (this.playing) this.send('force');
      for (let i = this.known; i < pos.moves.length; i++) this.sendMove(pos.moves[i]!, pos, i);
      this.known = pos.moves.length;
      sendClocks();
      this.send('go');
      this.playing = true;
    }
    return promise;
  }

  /** Sends one move (UCI in), as SAN when the engine asked for `san=1`, with `usermove` when asked. */
  private sendMove(uci: string, pos: PositionSpec | undefined, index = pos ? pos.moves.length - 1 : 0): void {
    let text = uci;
    if (pos && (this.chess960 || this.feature('san', '0') === '1')) {
      const p = replay(pos.fen, pos.moves, index);
      const m = p ? parseUci(p, uci) : undefined;
      if (p && m?.ok) {
        if (this.feature('san', '0') === '1') text = makeSan(p, m.value);
        // CECP: in variant fischerandom castling is sent as O-O / O-O-O, not as a king move.
        else if ((m.value & KIND_MASK) === CASTLING) text = (m.value & 63) > ((m.value >>> 6) & 63) ? 'O-O' : 'O-O-O';
      }
    }
    this.send(this.feature('usermove', '0') === '1' ? `usermove ${text}` : text);
  }

  stop(): void {
    if (this.state === 'searching') this.send('?');
  }

  gameOver(result: string, comment: string): void {
    if (this.state === 'closed') return;
    this.send('force');
    this.playing = false;
    this.send(`result ${result} {${comment}}`);
  }

  quit(): void {
    if (this.state !== 'closed') this.send('quit');
  }
}

function sideAtRoot(fen: string): number {
  return fen.split(/\s+/)[1] === 'b' ? 1 : 0;
}

/** The position after the first `count` moves, or undefined when the list does not replay. */
function replay(fen: string, moves: readonly string[], count: number): Position | undefined {
  const r = positionFromFen(fen);
  if (!r.ok) return undefined;
  const p = r.value;
  for (let i = 0; i < count; i++) {
    const m = parseUci(p, moves[i]!);
    if (!m.ok) return undefined;
    p.play(m.value);
  }
  return p;
}
