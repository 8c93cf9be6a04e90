/**
 * `tabiya analyse --fen F [--moves "e4 e5 Nf3"] [--depth N | --movetime MS | --nodes N]
 * [--multipv K]`: searches one position and prints the engine's lines as they improve (text),
 * or the final lines (--json), each with its score's win/draw/loss chances (src/engine/wdl.ts).
 */
import { wasmCoreModule } from '../../node/wasmCore.js';
import { Engine, type SearchInfo } from '../../engine/engine.js';
import { isMateScore, mateInMoves } from '../../engine/score.js';
import { DEFAULT_WDL, gamePhase, wdlPermille } from '../../engine/wdl.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { playMoveList } from '../../notation/moveList.js';
import { makeSan } from '../../notation/san.js';
import { makeUci } from '../../notation/uci.js';
import type { Position } from '../../core/position.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { configureV8ForSearch } from '../../node/v8flags.js';

export interface AnalyseOptions {
  fen?: string;
  moves?: string[];
  depth?: string;
  movetime?: string;
  nodes?: string;
  multipv?: string;
  hash?: string;
  json?: boolean;
}

function sanLine(pos: Position, pv: number[]): string[] {
  const p = pos.clone();
  const out: string[] = [];
  for (const m of pv) {
    out.push(makeSan(p, m));
    p.play(m);
  }
  return out;
}

const scoreText = (s: number): string => (isMateScore(s) ? `#${mateInMoves(s)}` : `${s >= 0 ? '+' : ''}${(s / 100).toFixed(2)}`);

export function analyseCommand(opts: AnalyseOptions): void {
  configureV8ForSearch();
  const depth = intOption('--depth', opts.depth, 1, 120);
  const movetime = intOption('--movetime', opts.movetime, 1);
  const nodes = intOption('--nodes', opts.nodes, 1);
  const multipv = intOption('--multipv', opts.multipv ?? '1', 1, 256)!;
  const hash = intOption('--hash', opts.hash ?? '64', 1, 8192)!;
  const engine = new Engine({ hashMB: hash, wasm: wasmCoreModule() });
  engine.settings.multiPV = multipv;
  // --moves as book probe reads it: one argument of UCI or SAN moves (the old form, one
  // argument per UCI move, gives the same list once joined).
  const start = positionFromFen(opts.fen ?? STARTING_FEN);
  if (!start.ok) throw new CliError(`--fen: ${start.error.message}`, 2);
  const chess960 = start.value.chess960;
  const played = playMoveList(start.value, (opts.moves ?? []).join(' '));
  if (!played.ok) throw new CliError(`--moves: ${played.error.message}`, 2);
  try {
    engine.setPosition(opts.fen ?? STARTING_FEN, played.value.map((m) => makeUci(m, chess960)));
  } catch (e) {
    throw new CliError((e as Error).message, 2);
  }
  const pos = engine.pos.clone();
  const phase = gamePhase(pos);
  const wdl = (s: number): [number, number, number] =>
    isMateScore(s) ? wdlPermille(DEFAULT_WDL, undefined, mateInMoves(s), phase) : wdlPermille(DEFAULT_WDL, s, undefined, phase);
  const limits = depth === undefined && movetime === undefined && nodes === undefined ? { depth: 14 } : { depth, movetime, nodes };
  const last = new Map<number, SearchInfo>();
  const r = engine.go(limits, (info) => {
    last.set(info.multipv, info);
    if (!opts.json) {
      const b = info.bound ? (info.bound === 'lower' ? ' ++' : ' --') : '';
      const [w, d, l] = wdl(info.score).map((x) => Math.round(x / 10));
      const chances = `${w}/${d}/${l}`.padStart(8);
      process.stdout.write(`${String(info.depth).padStart(2)}/${String(info.seldepth).padEnd(2)} ${info.multipv > 1 ? `[${info.multipv}] ` : ''}${scoreText(info.score).padStart(7)}${b} ${chances}  ${sanLine(pos, info.pv).join(' ')}\n`);
    }
  });
  const lines = [...last.values()].sort((a, b) => a.multipv - b.multipv).map((i) => ({
    multipv: i.multipv,
    depth: i.depth,
    score: isMateScore(i.score) ? { mate: mateInMoves(i.score) } : { cp: i.score },
    wdl: wdl(i.score),
    pv: i.pv.map((m) => makeUci(m, pos.chess960)),
    san: sanLine(pos, i.pv),
  }));
  const best = r.bestMove !== 0 ? makeUci(r.bestMove, pos.chess960) : null;
  // No move: the game is over on the board; say how (Board's Termination words).
  const over = best === null ? { termination: pos.inCheck() ? 'checkmate' : 'stalemate' } : {};
  report(opts.json, { fen: opts.fen ?? STARTING_FEN, moves: played.value.map((m) => makeUci(m, chess960)), bestmove: best, ...over, depth: r.depth, nodes: r.nodes, time: r.time, lines }, () =>
    best === null
      ? `no move: ${over.termination} (${pos.inCheck() ? (pos.turn === 0 ? '0-1' : '1-0') : '1/2-1/2'})`
      : `bestmove ${makeSan(pos, r.bestMove)} depth ${r.depth} nodes ${r.nodes} time ${r.time} ms`,
  );
}
