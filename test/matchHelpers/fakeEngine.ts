/**
 * In-process UCI (or xboard) engines for unit tests of the game loop and the scheduler: the same
 * transport interface as a child process, with behaviour scripted per search, and answers
 * delivered asynchronously as a pipe would deliver them.
 */
import { generateLegal } from '../../src/core/movegen.js';
import type { Position } from '../../src/core/position.js';
import { unwrap } from '../../src/core/result.js';
import { positionFromFen, STARTING_FEN } from '../../src/notation/fen.js';
import { makeUci, parseUci } from '../../src/notation/uci.js';
import type { EngineSpec } from '../../src/match/engineSpec.js';
import type { EngineTransport, SpawnEngine } from '../../src/match/player.js';
import { INFINITE_TC, type TimeControl } from '../../src/match/tc.js';

/** What to do on the n-th search (1-based) of this process: a reply, or a misbehaviour. */
export type Act =
  | { do: 'move' }
  | { do: 'send'; move: string }
  | { do: 'score'; cp: number }
  | { do: 'crash' }
  | { do: 'hang' }
  | { do: 'late' }
  | { do: 'delay'; ms: number };

export interface FakeScript {
  /** Behaviour per search; default: a legal move at once. */
  go?(n: number, pos: Position): Act;
  /** UCI: each `go` line as the runner wrote it. */
  goLine?(line: string): void;
  /** Never answer `uci`. */
  mute?: boolean;
  /** Speak xboard (CECP v2 with ping, setboard, usermove) instead of UCI. */
  xboard?: boolean;
  /** xboard: lines said on `new`, before the pong that follows (late output of the last game). */
  onNew?: string[];
  /** xboard: on this search (1-based), claim a win for the side to move (a false claim) instead of moving. */
  claimOn?: number;
  /** xboard: the claim's text instead, given the side to move (0 White, 1 Black). */
  claimText?: (turn: number) => string;
  /** xboard: no `ping` feature (the runner cannot tell when the engine's output of a game has ended). */
  noPing?: boolean;
  /** xboard: lines said 20 ms after `result` (late output about the game just ended). */
  afterResult?: string[];
  /** xboard: make the move after the claim (a draw claimed before the move that makes it). */
  moveAfterClaim?: boolean;
  /** xboard: answer `sd N` as Phalanx does, `Illegal move: sd N` (it does not know the command). */
  noDepth?: boolean;
}

const BUF = new Uint16Array(256);

/** A deterministic legal move: captures first, then one picked by the ply. */
export function pickMove(pos: Position): number {
  const n = generateLegal(pos, BUF, 0);
  const caps: number[] = [];
  for (let i = 0; i < n; i++) if (pos.board[BUF[i]! & 63] !== 0 && (BUF[i]! & 0xc000) !== 0xc000) caps.push(BUF[i]!);
  if (caps.length > 0) return caps[(pos.ply * 7 + 3) % caps.length]!;
  return BUF[(pos.ply * 7 + 3) % n]!;
}

export class FakeTransport implements EngineTransport {
  onLine: (line: string) => void = () => {};
  onExit: (why: string) => void = () => {};
  sent: string[] = [];
  alive = true;
  private pos: Position = unwrap(positionFromFen(STARTING_FEN));
  private searches = 0;
  private pendingMove: string | undefined;

  constructor(private readonly script: FakeScript) {}

  private say(...lines: string[]): void {
    setImmediate(() => {
      if (!this.alive) return;
      for (const l of lines) this.onLine(l);
    });
  }

  send(line: string): void {
    if (!this.alive) return;
    this.sent.push(line);
    if (this.script.xboard) return this.xboard(line);
    const t = line.split(' ');
    switch (t[0]) {
      case 'uci':
        if (!this.script.mute) this.say('id name Fake', 'option name Hash type spin default 16 min 1 max 64', 'uciok');
        return;
      case 'isready':
        if (!this.hung) this.say('readyok');
        return;
      case 'position': {
        const movesAt = t.indexOf('moves');
        const fen = t[1] === 'startpos' ? STARTING_FEN : t.slice(2, movesAt < 0 ? undefined : movesAt).join(' ');
        const p = positionFromFen(fen);
        if (!p.ok) throw p.error;
        this.pos = p.value;
        if (movesAt >= 0) for (const u of t.slice(movesAt + 1)) this.pos.play((parseUci(this.pos, u) as { value: number }).value);
        return;
      }
      case 'go': {
        this.script.goLine?.(line);
        const act = this.script.go?.(++this.searches, this.pos) ?? { do: 'move' };
        const mv = makeUci(pickMove(this.pos), false);
        switch (act.do) {
          case 'move':
            return this.say('info depth 1 score cp 0', `bestmove ${mv}`);
          case 'score':
            return this.say(`info depth 3 score cp ${act.cp}`, `bestmove ${mv}`);
          case 'send':
            return this.say(`bestmove ${act.move}`);
          case 'crash':
            setImmediate(() => this.exit('exited with code 3'));
            return;
          case 'hang':
            this.hung = true;
            return;
          case 'late':
            this.pendingMove = mv;
            return;
          case 'delay':
            setTimeout(() => this.say(`bestmove ${mv}`), act.ms);
            return;
        }
        return;
      }
      case 'stop':
        if (this.pendingMove !== undefined && !this.hung) {
          this.say(`bestmove ${this.pendingMove}`);
          this.pendingMove = undefined;
        }
        return;
      case 'quit':
        setImmediate(() => this.exit('exited with code 0'));
        return;
    }
  }

  private hung = false;
  private forced = true;

  /** The xboard subset the runner's client uses; the only misbehaviour is a false claim. */
  private xboard(line: string): void {
    const t = line.split(' ');
    const search = (): void => {
      if (++this.searches === this.script.claimOn) {
        this.say(this.script.claimText ? this.script.claimText(this.pos.turn) : this.pos.turn === 0 ? '1-0 {White mates}' : '0-1 {Black mates}');
        if (!this.script.moveAfterClaim) return;
      }
      const mv = makeUci(pickMove(this.pos), false);
      this.pos.play((parseUci(this.pos, mv) as { value: number }).value);
      this.say('1 0 1 1 ' + mv, `move ${mv}`);
    };
    switch (t[0]) {
      case 'protover':
        return this.say(`feature ping=${this.script.noPing ? 0 : 1} setboard=1 usermove=1 myname="FakeX" done=1`);
      case 'result': {
        const late = this.script.afterResult;
        if (late) setTimeout(() => this.alive && late.forEach((l) => this.onLine(l)), 20);
        return;
      }
      case 'ping':
        return this.say(`pong ${t[1]}`);
      case 'sd':
        if (this.script.noDepth) this.say(`Illegal move: ${line}`);
        return;
      case 'new':
        this.pos = unwrap(positionFromFen(STARTING_FEN));
        this.forced = false;
        if (this.script.onNew) this.say(...this.script.onNew);
        return;
      case 'force':
        this.forced = true;
        return;
      case 'setboard':
        this.pos = unwrap(positionFromFen(t.slice(1).join(' ')));
        return;
      case 'usermove':
        this.pos.play((parseUci(this.pos, t[1]!) as { value: number }).value);
        if (!this.forced) search();
        return;
      case 'go':
        this.forced = false;
        return search();
      case 'quit':
        setImmediate(() => this.exit('exited with code 0'));
        return;
    }
  }

  private exit(why: string): void {
    if (!this.alive) return;
    this.alive = false;
    this.onExit(why);
  }

  kill(): void {
    this.exit('killed');
  }

  stderrTail(): string[] {
    return [];
  }
}

/** A spawn function over scripted engines, keyed by engine name; it remembers every transport. */
export function fakeSpawner(scripts: Record<string, FakeScript | (() => FakeScript)>): SpawnEngine & { spawned: { name: string; t: FakeTransport }[] } {
  const spawned: { name: string; t: FakeTransport }[] = [];
  const fn = (async (spec: EngineSpec) => {
    const s = scripts[spec.name];
    const script = typeof s === 'function' ? s() : (s ?? {});
    const t = new FakeTransport(script);
    spawned.push({ name: spec.name, t });
    return t;
  }) as unknown as SpawnEngine & { spawned: { name: string; t: FakeTransport }[] };
  fn.spawned = spawned;
  return fn;
}

/** An engine definition for fakes. */
export function fakeSpec(name: string, tc: Partial<TimeControl> = {}, proto: 'uci' | 'xboard' = 'uci'): EngineSpec {
  return { name, cmd: 'fake', args: [], proto, options: [], tc: { ...INFINITE_TC, ...tc }, restart: 'auto', initStrings: [] };
}
