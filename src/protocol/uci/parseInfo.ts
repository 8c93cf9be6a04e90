/**
 * Reading UCI `info` and `option` lines from an engine (the client side; match-runner.md §5a).
 * Keys come in any order, unknown keys are skipped, `string` swallows the rest of the line so
 * nothing inside it is mistaken for a keyword, and `pv` stops at the first token that is not a
 * move. A malformed number drops that field only.
 */
import type { EngineOption, EngineScore, SearchInfo } from '../engineClient.js';

const INT_KEYS = new Set(['depth', 'seldepth', 'time', 'nodes', 'nps', 'hashfull', 'tbhits', 'multipv', 'currmovenumber', 'cpuload']);
const KEYWORDS = new Set([...INT_KEYS, 'score', 'pv', 'currmove', 'refutation', 'currline', 'string', 'wdl', 'lowerbound', 'upperbound']);
const MOVE_RE = /^([a-h][1-8][a-h][1-8][nbrqNBRQ]?|0000|@@@@)$/;

/** A parsed `info` line; `multipv` is kept so callers can ignore secondary lines. */
export interface UciInfo extends SearchInfo {
  multipv?: number;
  string?: string;
}

function int(tok: string | undefined): number | undefined {
  if (tok === undefined || !/^-?\d+$/.test(tok)) return undefined;
  return parseInt(tok, 10);
}

/** Parses the tokens after `info`. */
export function parseInfo(tokens: readonly string[], start = 1): UciInfo {
  const info: UciInfo = {};
  let i = start;
  while (i < tokens.length) {
    const key = tokens[i++]!;
    if (INT_KEYS.has(key)) {
      const v = int(tokens[i]);
      if (v !== undefined) {
        i++;
        switch (key) {
          case 'depth': info.depth = v; break;
          case 'seldepth': info.seldepth = v; break;
          case 'time': info.timeMs = v; break;
          case 'nodes': info.nodes = v; break;
          case 'nps': info.nps = v; break;
          case 'hashfull': info.hashfull = v; break;
          case 'tbhits': info.tbhits = v; break;
          case 'multipv': info.multipv = v; break;
        }
      }
    } else if (key === 'score') {
      const kind = tokens[i];
      const v = int(tokens[i + 1]);
      if ((kind === 'cp' || kind === 'mate') && v !== undefined) {
        i += 2;
        const score: EngineScore = { kind, value: v };
        if (tokens[i] === 'lowerbound') {
          score.bound = 'lower';
          i++;
        } else if (tokens[i] === 'upperbound') {
          score.bound = 'upper';
          i++;
        }
        info.score = score;
      }
    } else if (key === 'pv') {
      const pv: string[] = [];
      while (i < tokens.length && MOVE_RE.test(tokens[i]!)) pv.push(tokens[i++]!);
      info.pv = pv;
    } else if (key === 'string') {
      info.string = tokens.slice(i).join(' ');
      break;
    } else if (key === 'refutation' || key === 'currline' || key === 'currmove') {
      while (i < tokens.length && !KEYWORDS.has(tokens[i]!)) i++;
    } else if (key === 'wdl') {
      i += 3;
    }
  }
  return info;
}

const OPTION_KEYS = new Set(['name', 'type', 'default', 'min', 'max', 'var']);
const OPTION_TYPES = new Set(['check', 'spin', 'combo', 'button', 'string', 'filename']);

/** Parses `option name <N> type <T> [default <D>] [min <a>] [max <b>] [var <v>]…`; names and values may contain spaces. */
export function parseOption(line: string): EngineOption | undefined {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'option') return undefined;
  const fields = new Map<string, string[]>();
  const vars: string[] = [];
  let key = '';
  let words: string[] = [];
  const flush = (): void => {
    if (key === '') return;
    // A value may be empty (`default <empty>`), which UCI writes as `default` followed by nothing.
    if (key === 'var') vars.push(words.join(' '));
    else if (!fields.has(key)) fields.set(key, words);
    words = [];
  };
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    // `name` may itself contain keyword-like words only before `type`; the first `type` ends it.
    if (OPTION_KEYS.has(t) && !(key === 'name' && t !== 'type')) {
      flush();
      key = t;
    } else {
      words.push(t);
    }
  }
  flush();
  const name = fields.get('name')?.join(' ');
  const type = fields.get('type')?.join(' ');
  if (!name || !type || !OPTION_TYPES.has(type)) return undefined;
  const opt: EngineOption = { name, type: type as EngineOption['type'] };
  const def = fields.get('default');
  if (def !== undefined) opt.default = def.join(' ') === '<empty>' ? '' : def.join(' ');
  const min = int(fields.get('min')?.[0]);
  const max = int(fields.get('max')?.[0]);
  if (min !== undefined) opt.min = min;
  if (max !== undefined) opt.max = max;
  if (vars.length > 0) opt.vars = vars;
  return opt;
}

/** Checks a value against an advertised option; returns the value to send or a reason to refuse. */
export function checkOptionValue(opt: EngineOption, value: string): { ok: true; value: string } | { ok: false; reason: string } {
  switch (opt.type) {
    case 'check': {
      const v = value.toLowerCase();
      if (v !== 'true' && v !== 'false') return { ok: false, reason: `"${value}" is not true or false` };
      return { ok: true, value: v };
    }
    case 'spin': {
      if (!/^-?\d+$/.test(value.trim())) return { ok: false, reason: `"${value}" is not an integer` };
      const n = parseInt(value, 10);
      if ((opt.min !== undefined && n < opt.min) || (opt.max !== undefined && n > opt.max)) {
        return { ok: false, reason: `${n} is outside ${opt.min ?? '-inf'}..${opt.max ?? 'inf'}` };
      }
      return { ok: true, value: String(n) };
    }
    case 'combo': {
      const hit = opt.vars?.find((v) => v.toLowerCase() === value.toLowerCase());
      if (hit === undefined) return { ok: false, reason: `"${value}" is not one of ${(opt.vars ?? []).join(', ')}` };
      return { ok: true, value: hit };
    }
    default:
      return { ok: true, value };
  }
}
