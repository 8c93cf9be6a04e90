/**
 * The policy's settings as named options, one table for every front end: `tabiya book probe`
 * flags (kebab-case), UCI `setoption` names and xboard `option` names come from the same rows,
 * so the CLI and the engine always expose the same set with the same ranges and defaults.
 */
import { ParseError } from '../../core/result.js';
import { POLICY_ALIASES, POLICY_KINDS, defaultPolicy, type BookPolicyConfig, type PolicyKind } from './config.js';

export interface PolicyOption {
  /** Field of BookPolicyConfig. */
  readonly key: keyof BookPolicyConfig;
  /** Name in UCI `setoption` and xboard `option` (Terra's and PolyGlot's spelling). */
  readonly name: string;
  /** Long CLI flag without the dashes. */
  readonly flag: string;
  readonly type: 'combo' | 'spin' | 'check';
  readonly min?: number;
  readonly max?: number;
  /** Combo values. */
  readonly values?: readonly string[];
  /** Spin options that take fractions through the API and CLI (UCI spins are integers). */
  readonly fractional?: boolean;
  readonly description: string;
}

export const POLICY_OPTIONS: readonly PolicyOption[] = [
  {
    key: 'policy',
    name: 'BookPolicy',
    flag: 'policy',
    type: 'combo',
    values: POLICY_KINDS,
    description: 'how a book move is chosen: terra, polyglot-best, polyglot-weighted, gnu-best, gnu-worst, gnu-random, uniform',
  },
  {
    key: 'randomType',
    name: 'RandomType',
    flag: 'random-type',
    type: 'spin',
    min: 0,
    max: 3,
    description: 'Terra: 0 best Win%, 1 random Terra Win% + frequency, 2 random Win%, 3 best Terra Win% + frequency',
  },
  { key: 'bookLimit', name: 'BookLimit', flag: 'book-limit', type: 'spin', min: 0, max: 100, description: 'Terra: least fixed Win% of a move played from game statistics' },
  { key: 'minBookGames', name: 'MinBookGames', flag: 'min-book-games', type: 'spin', min: 0, max: 1_000_000_000, description: 'Terra: least number of games of a move played from game statistics' },
  { key: 'minTerraGames', name: 'MinTerraGames', flag: 'min-terra-games', type: 'spin', min: 1, max: 1_000_000_000, description: "Terra: least number of the engine's own games before its own Win% is used" },
  { key: 'terraLimit', name: 'TerraLimit', flag: 'terra-limit', type: 'spin', min: 0, max: 100, description: "Terra: the engine's own Win% must exceed this or the move is avoided" },
  {
    key: 'userGroupPercent',
    name: 'UserGroupPercent',
    flag: 'user-group-percent',
    type: 'spin',
    min: -1,
    max: 100,
    fractional: true,
    description: 'Terra: chance (%) of choosing among user-set moves; -1 = Terra rule 1 - prod((100-v)/100)',
  },
  { key: 'postBook', name: 'PostBook', flag: 'post-book', type: 'check', description: 'Terra: out of book, play the PostBook move with the best history' },
  { key: 'bookThreshold', name: 'BookThreshold', flag: 'book-threshold', type: 'spin', min: 0, max: 1000, description: 'PolyGlot: per mille; moves whose share is not above it are never played' },
  { key: 'bookLearn', name: 'BookLearnWeights', flag: 'book-learn-weights', type: 'check', description: "PolyGlot: scale weights by the engine's own results (BookLearn)" },
  { key: 'userValues', name: 'BookUserValues', flag: 'book-user-values', type: 'check', description: 'non-Terra policies: user value 0 never plays a move, 100 always' },
  { key: 'minAvgElo', name: 'BookMinAvgElo', flag: 'min-avg-elo', type: 'spin', min: 0, max: 4000, description: 'every policy: moves whose rated players averaged under this Elo are out of play (0: off)' },
];

/** A bad policy setting; the message names the option and the accepted values. */
export class PolicyError extends ParseError {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super('ERR_BOOK_POLICY', message);
    this.name = 'PolicyError';
  }
}

/** Option names compare without case, dashes, underscores or spaces: `book-limit` = `BookLimit`. */
const normalize = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

const BY_NAME = new Map<string, PolicyOption>();
for (const o of POLICY_OPTIONS) {
  BY_NAME.set(normalize(o.key), o);
  BY_NAME.set(normalize(o.name), o);
  BY_NAME.set(normalize(o.flag), o);
}
// The old spelling of BookThreshold (PolyGlot's "BookTreshold"), still read from settings and flags.
BY_NAME.set(normalize('BookTreshold'), BY_NAME.get('bookthreshold')!);

/** The option a name (config key, UCI/xboard name or CLI flag, any case) refers to. */
export function findPolicyOption(name: string): PolicyOption | undefined {
  return BY_NAME.get(normalize(name));
}

/** The option's value in `config` as a UCI/xboard default string. */
export function policyOptionDefault(o: PolicyOption, config: BookPolicyConfig = defaultPolicy()): string {
  return String(config[o.key]);
}

/** Reads a policy name or alias (any case). */
export function parsePolicyKind(s: string): PolicyKind | undefined {
  const t = s.trim().toLowerCase();
  if ((POLICY_KINDS as readonly string[]).includes(t)) return t as PolicyKind;
  return POLICY_ALIASES[t];
}

function parseBool(o: PolicyOption, v: string | number | boolean): boolean {
  if (typeof v === 'boolean') return v;
  const t = String(v).trim().toLowerCase();
  if (t === 'true' || t === 'on' || t === 'yes' || t === '1') return true;
  if (t === 'false' || t === 'off' || t === 'no' || t === '0') return false;
  throw new PolicyError(o.name, `${o.name}: "${v}" is not a boolean (true/false, on/off)`);
}

function parseNumber(o: PolicyOption, v: string | number | boolean): number {
  // Decimal only (1e3 too): Number() alone would also read "0x10" as 16 and "0b11" as 3.
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(v.trim()) ? Number(v) : NaN;
  const range = `${o.min}..${o.max}`;
  if (!Number.isFinite(n)) throw new PolicyError(o.name, `${o.name}: "${v}" is not a number (${range})`);
  if (!o.fractional && !Number.isInteger(n)) throw new PolicyError(o.name, `${o.name}: ${v} is not a whole number (${range})`);
  if (n < o.min! || n > o.max!) throw new PolicyError(o.name, `${o.name}: ${v} is out of range (${range})`);
  return n;
}

/**
 * Sets one option on `config` (in place) from a name and a value as text, number or boolean.
 * Returns false for a name that is not a policy option; throws PolicyError for a bad value.
 */
export function setPolicyOption(config: BookPolicyConfig, name: string, value: string | number | boolean): boolean {
  const o = findPolicyOption(name);
  if (!o) return false;
  if (o.type === 'combo') {
    const kind = parsePolicyKind(String(value));
    if (!kind) throw new PolicyError(o.name, `${o.name}: "${value}" is not a policy (${POLICY_KINDS.join(', ')}; or best, weighted, worst, random)`);
    config.policy = kind;
  } else if (o.type === 'check') {
    (config as unknown as Record<string, boolean>)[o.key] = parseBool(o, value);
  } else {
    const n = parseNumber(o, value);
    if (o.key === 'userGroupPercent' && n < 0 && n !== -1) throw new PolicyError(o.name, `${o.name}: ${value} must be -1 (Terra's rule) or 0..100`);
    (config as unknown as Record<string, number>)[o.key] = n;
  }
  return true;
}

/**
 * The policy described by `opts` over the defaults. Keys may be config keys, UCI names or CLI
 * flags in any case; undefined values and keys that are not policy options are ignored (so a
 * command can pass its whole option object). Throws PolicyError naming the bad option.
 */
export function parsePolicy(opts: Record<string, string | number | boolean | undefined>, base: BookPolicyConfig = defaultPolicy()): BookPolicyConfig {
  const config: BookPolicyConfig = { ...base };
  for (const [name, value] of Object.entries(opts)) {
    if (value === undefined) continue;
    setPolicyOption(config, name, value);
  }
  return config;
}
