/**
 * Engine definitions in cutechess-cli's key=value form (match-runner.md §1.1):
 * `name=N cmd=PATH arg=A arg=B args="A B" dir=D proto=uci|xboard option.Hash=64 tc=… st=…
 * nodes=… depth=… timemargin=… restart=auto|on|off initstr=… stderr=FILE`.
 *
 * `--each` keys are shared by all engines; a key given to one engine wins over `--each` (the
 * opposite of cutechess, whose silent override users complain about, §3 item 10). Option names
 * may contain spaces (`option.Skill Level=1`, one shell word); empty values are kept and sent.
 */
import type { EngineProtocol } from '../protocol/engineClient.js';
import { timeControlFrom, type TimeControl } from './tc.js';

export interface EngineSpec {
  name: string;
  cmd: string;
  args: string[];
  dir?: string;
  proto: EngineProtocol;
  /** Engine options in the order given. */
  options: [string, string][];
  tc: TimeControl;
  /** `on`: a fresh process for every game; `auto`: only when an xboard engine asks (`reuse=0`). */
  restart: 'auto' | 'on' | 'off';
  /** Lines written to the engine right after it starts. */
  initStrings: string[];
  /** File that receives the engine's stderr. */
  stderrFile?: string;
}

const SIMPLE_KEYS = new Set(['name', 'cmd', 'dir', 'proto', 'tc', 'st', 'nodes', 'depth', 'plies', 'timemargin', 'restart', 'initstr', 'stderr', 'args']);

/** Splits `A "B C" D` like a shell would (double and single quotes, backslash escapes). */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let have = false;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"' && i + 1 < text.length) cur += text[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      have = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      have = true;
    } else if (/\s/.test(c)) {
      if (have) out.push(cur);
      cur = '';
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (have) out.push(cur);
  return out;
}

/** One engine's raw keys: scalar keys, repeated `arg=`, and `option.X=`. */
export interface EngineKeys {
  keys: Map<string, string>;
  args: string[];
  options: [string, string][];
}

/** Reads `key=value` words; errors name the word. */
export function parseEngineKeys(words: readonly string[], what: string): EngineKeys | string {
  const out: EngineKeys = { keys: new Map(), args: [], options: [] };
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq <= 0) return `${what}: "${w}" is not key=value`;
    let key = w.slice(0, eq);
    const value = w.slice(eq + 1);
    if (key.startsWith('option.')) {
      // `option."Skill Level"=1` reaches us with the quotes when the shell did not remove them.
      const name = key.slice(7).replace(/^"(.*)"$/, '$1');
      if (name === '') return `${what}: "${w}" has no option name`;
      const at = out.options.findIndex(([n]) => n === name);
      if (at >= 0) out.options.splice(at, 1);
      out.options.push([name, value]);
      continue;
    }
    if (key === 'arg') {
      out.args.push(value);
      continue;
    }
    if (key === 'plies') key = 'depth';
    if (!SIMPLE_KEYS.has(key)) return `${what}: unknown key "${key}" in "${w}"`;
    out.keys.set(key, value);
  }
  return out;
}

/** Combines one engine's keys with the shared `--each` keys into a checked definition. */
export function makeEngineSpec(own: EngineKeys, each: EngineKeys, index: number): EngineSpec | string {
  const keys = new Map([...each.keys, ...own.keys]);
  const what = `engine ${index + 1}`;
  const cmd = keys.get('cmd');
  if (!cmd) return `${what}: cmd= is required`;
  const proto = keys.get('proto') ?? 'uci';
  if (proto !== 'uci' && proto !== 'xboard') return `${what}: proto=${proto} is not uci or xboard`;
  const restart = keys.get('restart') ?? 'auto';
  if (restart !== 'auto' && restart !== 'on' && restart !== 'off') return `${what}: restart=${restart} is not auto, on or off`;
  const tcKeys: { tc?: string; st?: string; nodes?: string; depth?: string; timemargin?: string } = {};
  for (const k of ['tc', 'st', 'nodes', 'depth', 'timemargin'] as const) {
    const v = keys.get(k);
    if (v !== undefined) tcKeys[k] = v;
  }
  // An engine's own tc= or st= replaces the shared one of the other kind.
  if (own.keys.has('tc') && !own.keys.has('st')) delete tcKeys.st;
  if (own.keys.has('st') && !own.keys.has('tc')) delete tcKeys.tc;
  const tc = timeControlFrom(tcKeys);
  if (!tc.ok) return `${what}: ${tc.error.message}`;
  // Without a limit the first search never ends (cutechess-cli: "Invalid or missing time control").
  if (tc.value.infinite && tc.value.nodes === 0 && tc.value.depth === 0) {
    return tcKeys.tc === undefined
      ? `${what}: invalid or missing time control: give tc=, st=, nodes= or depth= (to the engine or with --each)`
      : `${what}: tc=${tcKeys.tc} needs nodes= or depth=, or the engine never ends its first search`;
  }
  // CECP's `st` takes whole seconds (HoiChess exits on "st 0.2"); the runner will not send a value it cannot express.
  if (proto === 'xboard' && tc.value.movetimeMs % 1000 !== 0) return `${what}: xboard engines take st= in whole seconds, not ${tc.value.movetimeMs / 1000}`;
  const options = [...each.options.filter(([n]) => !own.options.some(([m]) => m === n)), ...own.options];
  const argsText = keys.get('args');
  const spec: EngineSpec = {
    name: keys.get('name') ?? baseName(cmd),
    cmd,
    args: [...(own.args.length > 0 ? own.args : each.args), ...(argsText !== undefined ? splitArgs(argsText) : [])],
    proto,
    options,
    tc: tc.value,
    restart,
    initStrings: (keys.get('initstr') ?? '').split('\\n').filter((s) => s !== ''),
  };
  const dir = keys.get('dir');
  if (dir !== undefined) spec.dir = dir;
  const stderr = keys.get('stderr');
  if (stderr !== undefined) spec.stderrFile = stderr;
  return spec;
}

function baseName(cmd: string): string {
  const b = cmd.split(/[\\/]/).pop() ?? cmd;
  return b.replace(/\.(exe|js|mjs|sh|py)$/i, '');
}

/** Makes names unique (`_2`, `_3`): they are the keys of the statistics. */
export function uniqueNames(specs: EngineSpec[]): void {
  const seen = new Map<string, number>();
  for (const s of specs) {
    const n = (seen.get(s.name) ?? 0) + 1;
    seen.set(s.name, n);
    if (n > 1) s.name = `${s.name}_${n}`;
  }
}
