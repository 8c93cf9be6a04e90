/**
 * An EngineHost for protocol tests whose time passes only when the test says so (`tick`), as
 * a worker thread's would between two reads of the input: searches answer later, not inside
 * `go`, and `isready`/`ping` wait for the search thread. A search with a limit ends at the next
 * tick; `go infinite`, an unanswered `go ponder`, or a `go` without any limit end only after
 * `stop`. Its bestmove is the first legal move. Nothing is searched, so a test can run
 * thousands of command lines a second.
 */
import { legalMoves } from '../../src/core/movegen.js';
import { makeUci, parseUci } from '../../src/notation/uci.js';
import { positionFromFen } from '../../src/notation/fen.js';
import type { LearnGame } from '../../src/engine/bookProbe.js';
import type { EngineConfig, EngineHost, GoRequest, WireBest, WireInfo } from '../../src/engine/host.js';

interface Search {
  req: GoRequest;
  onBest: (b: WireBest) => void;
  stopped: boolean;
  pondering: boolean;
  /** The side to move has a clock, or there is a depth, node or time limit. */
  limited: boolean;
  best: string | null;
  /** The first legal reply to best, given with it when `ponderReplies` is on. */
  ponder: string | null;
}

export class ScriptedHost implements EngineHost {
  /** Every call, in order: 'go', 'stop', 'ponderhit', 'configure', 'newGame', … */
  readonly calls: string[] = [];
  readonly gos: GoRequest[] = [];
  readonly configs: Partial<EngineConfig>[] = [];
  readonly learned: LearnGame[] = [];
  closed = false;
  /** Answer each bestmove with a ponder move (the first legal reply), as a search does. */
  ponderReplies = false;
  private search: Search | undefined;
  private readyWaiters: (() => void)[] = [];

  /**
   * `goWhileSearching`: what a `go` during a search does. 'throw' (a UCI server must never
   * do it), or 'replace' (the old search ends unanswered, as the worker host does for xboard).
   */
  constructor(private readonly goWhileSearching: 'throw' | 'replace' = 'throw') {}

  get searching(): boolean {
    return this.search !== undefined;
  }

  configure(config: Partial<EngineConfig>): void {
    this.calls.push('configure');
    this.configs.push(config);
  }
  clearHash(): void {
    this.calls.push('clearHash');
  }
  newGame(): void {
    this.calls.push('newGame');
  }
  go(req: GoRequest, _onInfo: (i: WireInfo) => void, onBest: (b: WireBest) => void): void {
    this.calls.push('go');
    if (this.search && this.goWhileSearching === 'throw') throw new Error('go while a search runs');
    this.gos.push(req);
    const pos = positionFromFen(req.fen);
    let best: string | null = null;
    let ponder: string | null = null;
    let turn = 0;
    if (pos.ok) {
      for (const m of req.moves) {
        const r = parseUci(pos.value, m);
        if (!r.ok) throw new Error(`the server sent an illegal move: ${r.error.message}`);
        pos.value.play(r.value);
      }
      const moves = legalMoves(pos.value);
      best = moves.length > 0 ? makeUci(moves[0]!) : null;
      turn = pos.value.turn;
      if (moves.length > 0) {
        pos.value.play(moves[0]!);
        const replies = legalMoves(pos.value);
        ponder = replies.length > 0 ? makeUci(replies[0]!) : null;
      }
    }
    const l = req.limits;
    const clock = turn === 0 ? l.wtime : l.btime;
    const limited = l.depth !== undefined || l.nodes !== undefined || l.movetime !== undefined || clock !== undefined;
    this.search = { req, onBest, stopped: false, pondering: l.ponder === true, limited: limited && !l.infinite, best, ponder };
  }
  stop(): void {
    this.calls.push('stop');
    if (this.search) this.search.stopped = true;
  }
  ponderhit(): void {
    this.calls.push('ponderhit');
    if (this.search) this.search.pondering = false;
  }
  learn(game: LearnGame): void {
    this.learned.push(game);
  }
  close(): void {
    this.calls.push('close');
    this.closed = true;
  }
  whenReady(cb: () => void): void {
    if (this.search) cb();
    else this.readyWaiters.push(cb);
  }

  /** Answers the waiting isready/ping and nothing else (no search moves on). */
  answerReady(): void {
    for (const cb of this.readyWaiters.splice(0)) cb();
  }

  /** Lets time pass: waiting isready/ping are answered, a search that may end does. */
  tick(): void {
    for (const cb of this.readyWaiters.splice(0)) cb();
    const s = this.search;
    if (!s || !(s.stopped || (s.limited && !s.pondering))) return;
    this.search = undefined;
    s.onBest({ best: s.best, ponder: this.ponderReplies ? s.ponder : null, depth: 1, nodes: 1 });
  }
}
