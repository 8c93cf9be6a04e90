/**
 * Reading what a CECP (xboard/winboard protocol 2) engine prints: `feature` lines, thinking
 * output, moves in both the current (`move e2e4`) and the old (`1. ... e2e4`) form, result
 * claims, and the `option` feature's control descriptions.
 */
import type { EngineOption, EngineScore, SearchInfo } from '../engineClient.js';

/** `feature k=v k="quoted v" …` as an ordered list of pairs. */
export function parseFeatures(line: string): [string, string][] {
  const out: [string, string][] = [];
  const re = /(\w+)\s*=\s*("([^"]*)"|\S+)/g;
  const body = line.replace(/^\s*feature\s+/, '');
  for (let m = re.exec(body); m !== null; m = re.exec(body)) out.push([m[1]!, m[3] ?? m[2]!]);
  return out;
}

/** An engine-defined option from `feature option="Name -type …"`. */
export function parseXboardOption(desc: string): EngineOption | undefined {
  const m = /^(.*?)\s+-(check|spin|combo|button|save|reset|string|file|path|slider)\b\s*(.*)$/.exec(desc.trim());
  if (!m) return undefined;
  const name = m[1]!;
  const type = m[2] as EngineOption['type'];
  const rest = m[3]!.trim();
  const opt: EngineOption = { name, type };
  if (type === 'spin' || type === 'slider') {
    const [d, min, max] = rest.split(/\s+/).map((x) => parseInt(x, 10));
    if (d !== undefined && !Number.isNaN(d)) opt.default = String(d);
    if (min !== undefined && !Number.isNaN(min)) opt.min = min;
    if (max !== undefined && !Number.isNaN(max)) opt.max = max;
  } else if (type === 'combo') {
    const vars = rest.split('///').map((v) => v.trim());
    const def = vars.find((v) => v.startsWith('*'));
    opt.vars = vars.map((v) => v.replace(/^\*/, ''));
    opt.default = (def ?? vars[0] ?? '').replace(/^\*/, '');
  } else if (rest !== '') {
    opt.default = rest;
  }
  return opt;
}

/**
 * An xboard engine's score as a centipawn or a mate score. The protocol's own mate scores are
 * ±(100000 + moves). Older engines give mate as a large score just short of a round thousand,
 * less the plies to mate: HoiChess ±(100000 − plies), Crafty-style ±(32000 − plies). As
 * cutechess-cli reads them (XboardEngine::adaptScore), a score above 9900 that lies less than
 * 100 below a multiple of 1000 is a mate in the plies it lacks; else a +999.93 in a PGN is a
 * mate in 4.
 */
export function xboardScore(score: number): EngineScore {
  const abs = Math.abs(score);
  if (abs >= 100000) return { kind: 'mate', value: score > 0 ? score - 100000 : score + 100000 };
  const plies = 1000 - (abs % 1000);
  if (abs > 9900 && plies < 100) {
    const moves = Math.ceil(plies / 2);
    return { kind: 'mate', value: score > 0 ? moves : -moves };
  }
  return { kind: 'cp', value: score };
}

/**
 * Thinking output `ply score time nodes pv…`: score in centipawns from the engine's side, time in
 * centiseconds; mate scores as `xboardScore` reads them.
 */
export function parseThinking(line: string): SearchInfo | undefined {
  const m = /^\s*(\d+)[.&?!]*\s+(-?\d+)\s+(\d+)\s+(\d+)\s*(.*)$/.exec(line);
  if (!m) return undefined;
  const info: SearchInfo = {
    depth: parseInt(m[1]!, 10),
    timeMs: parseInt(m[3]!, 10) * 10,
    nodes: parseInt(m[4]!, 10),
    score: xboardScore(parseInt(m[2]!, 10)),
  };
  const pv = m[5]!
    .split(/\s+/)
    .filter((t) => t !== '' && !/^\d+\.+$/.test(t) && t !== '...' && !/^[({[]/.test(t));
  if (pv.length > 0) info.pv = pv;
  return info;
}

/** The move of `move e2e4` or of the protocol-1 form `1. ... e2e4`; undefined for anything else. */
export function parseMoveLine(tokens: readonly string[]): string | undefined {
  if (tokens[0] === 'move' && tokens.length >= 2) return tokens[1];
  if (tokens.length >= 3 && /^\d+\.$/.test(tokens[0]!) && tokens[1] === '...') return tokens[2];
  return undefined;
}

/** A result claim `1-0 {White mates}` (also `0-1`, `1/2-1/2`, `*`). */
export function parseClaim(line: string): { result: string; comment: string } | undefined {
  const m = /^\s*(1-0|0-1|1\/2-1\/2|\*)\s*(?:\{(.*)\})?\s*$/.exec(line);
  if (!m) return undefined;
  return { result: m[1]!, comment: (m[2] ?? '').trim() };
}

/** `level MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds. */
export function levelCommand(moves: number, baseMs: number, incMs: number): string {
  const totalSec = Math.max(baseMs > 0 ? 1 : 0, Math.round(baseMs / 1000));
  const min = Math.floor(totalSec / 60);
  const sec = totalSec % 60;
  const base = sec === 0 ? String(min) : `${min}:${String(sec).padStart(2, '0')}`;
  return `level ${moves} ${base} ${seconds(incMs)}`;
}

/** Milliseconds as seconds with up to three decimals and no trailing zeros. */
export function seconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}
