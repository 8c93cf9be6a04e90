/**
 * The engine's UCI options: the table `uci` advertises and `setoption` reads. A value is
 * applied only when it is one the option accepts (a whole number in the spin's range, true or
 * false for a check, one of a combo's values); anything else is refused with the reason and
 * the option keeps its value, as Stockfish keeps it (ucioption.cpp ignores an out-of-range spin)
 * but with a word to the GUI instead of silence.
 */
import type { EngineConfig } from '../../engine/host.js';
import { POLICY_OPTIONS, findPolicyOption, policyOptionDefault, type PolicyOption } from '../../book/select/index.js';
import { describeRule, readNumber } from '../numberArg.js';
import { SEARCH_PARAMS } from '../../engine/searchParams.js';

export interface OptionSpec {
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
  apply: (v) => ({ [key]: Number(v) }),
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
  spin('Move Overhead', 10, 0, 5000, 'moveOverhead'),
  check('OwnBook', false, 'ownBook'),
  { name: 'BookFile', type: 'string', default: '<empty>', apply: (v) => ({ bookFile: v === '<empty>' ? '' : v }) },
  ...POLICY_OPTIONS.map(policyOption),
  spin('BookDepth', 0, 0, 1000, 'bookDepth'),
  check('BookLearning', false, 'bookLearning'),
  check('BookAwareSearch', false, 'bookAwareSearch'),
  check('BookReturn', false, 'bookReturn'),
  spin('BookReturnMargin', 30, 0, 1000, 'bookReturnMargin'),
  spin('BookReturnPlies', 4, 1, 8, 'bookReturnPlies'),
  check('UCI_LimitStrength', false, 'limitStrength'),
  spin('UCI_Elo', 2800, 800, 2800, 'elo'),
  spin('Skill Level', 20, 0, 20, 'skillLevel'),
  check('UCI_Chess960', false, 'chess960'),
  check('UCI_AnalyseMode', false, undefined),
  { name: 'UCI_ShowWDL', type: 'check', default: 'false', apply: () => 'show-wdl' },
  { name: 'EvalParams', type: 'string', default: '<empty>', apply: (v) => ({ evalParams: v === '<empty>' ? '' : v }) },
];

/**
 * The search parameters as spin options (src/engine/searchParams.ts), for a tuner that plays the
 * engine against itself with different values: advertised and read only by `tabiya uci
 * --tunable`. A value takes effect at the next `go`, without a new game.
 */
export const TUNABLE_OPTIONS: readonly OptionSpec[] = SEARCH_PARAMS.map((p) => ({
  name: p.name,
  type: 'spin',
  default: String(p.default),
  min: p.min,
  max: p.max,
  apply: (v) => ({ searchParams: { [p.name]: Number(v) } }),
}));

/**
 * Old option names still read (never advertised): a GUI may have stored them. UCI has no
 * aliases, so the rename of a misspelt name can only be softened here.
 */
const RENAMED: ReadonlyMap<string, string> = new Map([['booktreshold', 'BookThreshold']]);

/** The current name of an option given by an old name, else the name as given. */
const renamed = (name: string): string => RENAMED.get(name.toLowerCase().replace(/[^a-z0-9]/g, '')) ?? name;

/**
 * The option a name denotes among `options` (any case, spaces around it ignored and a run of
 * spaces inside it read as one, as Stockfish reads the name word by word; old names of renamed
 * options too).
 */
export function findOption(name: string, options: readonly OptionSpec[] = OPTIONS): OptionSpec | undefined {
  const wanted = renamed(name.trim().replace(/\s+/g, ' ')).toLowerCase();
  return options.find((o) => o.name.toLowerCase() === wanted);
}

/** The policy option an xboard `option` name denotes, old names of renamed options included. */
export function findXboardPolicyOption(name: string): PolicyOption | undefined {
  return findPolicyOption(renamed(name));
}

/** The `option name … type …` line `uci` prints for an option. */
export function optionLine(o: OptionSpec): string {
  let s = `option name ${o.name} type ${o.type}`;
  if (o.default !== undefined) s += ` default ${o.default}`;
  if (o.min !== undefined) s += ` min ${o.min} max ${o.max}`;
  for (const v of o.vars ?? []) s += ` var ${v}`;
  return s;
}

/** Why `value` cannot be given to a spin or check option, or undefined when it can. */
export function optionValueProblem(o: OptionSpec, value: string): string | undefined {
  if (o.type === 'spin') {
    const rule = { min: o.min!, max: o.max! };
    return readNumber(value, rule) === undefined ? `"${value}" is not ${describeRule(rule)}` : undefined;
  }
  if (o.type === 'check') return /^(true|false)$/i.test(value) ? undefined : `"${value}" is not true or false`;
  return undefined;
}
