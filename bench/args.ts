/**
 * The benchmarks' command lines, on Node's own `util.parseArgs` (strict: an option the benchmark
 * does not declare is an error). Each benchmark declares its options (kind, default, least and
 * greatest value, a line of help) and how many positional arguments it takes, and gets typed
 * values back. A bad value, an unknown option or a wrong number of arguments is a
 * `UsageError` before any work starts: `bench NAME: --runs: "x" is not a whole number (at
 * least 1)` and the benchmark's usage, exit status 2 (bench/main.ts prints it); `--help` (`-h`)
 * is a `UsageError` too, with the usage and each option's help and default, exit status 0.
 */
import { parseArgs } from 'node:util';

/** Kinds of option: a whole number, any number, a string, a flag, a comma list of whole numbers. */
export type Kind = 'int' | 'number' | 'string' | 'flag' | 'list';

interface Common {
  /** One line: what the option does. */
  help: string;
  /** The placeholder in the help (default: N, X, S or A,B by kind). */
  arg?: string;
  /** The default as the help shows it, where the value alone would not say it (e.g. "every game"). */
  defaultText?: string;
}

export type Option =
  | (Common & { kind: 'int' | 'number'; default?: number; min?: number; max?: number })
  | (Common & { kind: 'list'; default?: readonly number[]; min?: number; max?: number })
  | (Common & { kind: 'string'; default?: string })
  | (Common & { kind: 'flag' });

interface KindValue {
  int: number;
  number: number;
  string: string;
  flag: boolean;
  list: number[];
}

/** An option's value: a flag is false unless given; an option without a default may be undefined. */
export type Value<O extends Option> = O['kind'] extends 'flag' ? boolean : O extends { default: unknown } ? KindValue[O['kind']] : KindValue[O['kind']] | undefined;

export interface Spec<T extends Record<string, Option>> {
  /** What follows `npm run bench -- NAME`, as the header comment of the benchmark says it; one line each form. */
  usage: string | readonly string[];
  options: T;
  /** Positional arguments: how many at least and at most (default none), and their names for messages. */
  positionals?: { min?: number; max: number; names: string };
}

export interface Parsed<T extends Record<string, Option>> {
  values: { [K in keyof T]: Value<T[K]> };
  positionals: string[];
  /** The options given on the command line (not defaulted). */
  given: ReadonlySet<keyof T & string>;
  /** Throws the UsageError of a bad combination the declarations cannot express. */
  fail(message: string): never;
}

/** The command line cannot run: `text` goes to standard error (exit 2), or it is the help (standard output, exit 0). */
export class UsageError extends Error {
  constructor(
    readonly text: string,
    readonly exitCode: 0 | 2,
  ) {
    super(text.split('\n')[0]);
    this.name = 'UsageError';
  }
}

const PLACEHOLDER: Record<Kind, string> = { int: 'N', number: 'X', string: 'S', flag: '', list: 'A,B' };

function range(o: { min?: number; max?: number }, each = false): string {
  const e = each ? 'each ' : '';
  if (o.min !== undefined && o.max !== undefined) return ` (${e}${o.min} to ${o.max})`;
  if (o.min !== undefined) return ` (${e}at least ${o.min})`;
  if (o.max !== undefined) return ` (${e}at most ${o.max})`;
  return '';
}

const inRange = (x: number, o: { min?: number; max?: number }): boolean => (o.min === undefined || x >= o.min) && (o.max === undefined || x <= o.max);

/** The value of `raw` for option `o`, or the reason it is not one. */
function convert(o: Option, raw: string): { ok: true; value: number | number[] | string } | { ok: false; why: string } {
  const num = (s: string, whole: boolean): number | undefined => {
    const x = s.trim() === '' ? NaN : Number(s);
    return Number.isFinite(x) && (!whole || Number.isInteger(x)) && inRange(x, o as { min?: number; max?: number }) ? x : undefined;
  };
  switch (o.kind) {
    case 'int':
    case 'number': {
      const x = num(raw, o.kind === 'int');
      return x === undefined ? { ok: false, why: `"${raw}" is not ${o.kind === 'int' ? 'a whole number' : 'a number'}${range(o)}` } : { ok: true, value: x };
    }
    case 'list': {
      const xs = raw.split(',').map((s) => num(s, true));
      return xs.some((x) => x === undefined) ? { ok: false, why: `"${raw}" is not a comma list of whole numbers${range(o, true)}` } : { ok: true, value: xs as number[] };
    }
    default:
      return { ok: true, value: raw };
  }
}

function usageLines<T extends Record<string, Option>>(name: string, spec: Spec<T>): string {
  const forms = typeof spec.usage === 'string' ? [spec.usage] : spec.usage;
  return forms.map((u, i) => `${i === 0 ? 'usage:' : '      '} npm run bench -- ${name}${u ? ` ${u}` : ''}`).join('\n') + '\n';
}

function helpText<T extends Record<string, Option>>(name: string, spec: Spec<T>): string {
  const rows: [string, string][] = Object.entries(spec.options).map(([key, o]) => {
    const head = o.kind === 'flag' ? `--${key}` : `--${key} ${o.arg ?? PLACEHOLDER[o.kind]}`;
    const notes: string[] = [];
    const limits = o.kind === 'int' || o.kind === 'number' ? range(o) : o.kind === 'list' ? range(o, true) : '';
    if (limits) notes.push(limits.slice(2, -1));
    if (o.defaultText !== undefined) notes.push(`default ${o.defaultText}`);
    else if (o.kind !== 'flag' && o.default !== undefined && o.default !== '') notes.push(`default ${Array.isArray(o.default) ? o.default.join(',') : String(o.default)}`);
    return [head, notes.length > 0 ? `${o.help} (${notes.join('; ')})` : o.help];
  });
  rows.push(['-h, --help', 'this help']);
  const width = Math.max(...rows.map(([h]) => h.length));
  return usageLines(name, spec) + 'options:\n' + rows.map(([h, t]) => `  ${h.padEnd(width)}  ${t}\n`).join('');
}

/** parseArgs's complaint, in the words of the other messages (the option first). */
function describe(e: unknown): string {
  const code = e instanceof Error && 'code' in e ? (e as { code: unknown }).code : undefined;
  const message = e instanceof Error ? e.message : String(e);
  const option = /'(-[^' <]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (/argument missing/.test(message)) return `${option}: a value is needed`;
    if (/does not take an argument/.test(message)) return `${option} takes no value`;
    if (/ambiguous/.test(message)) return `${option}: a value is needed (one that starts with "-" is written ${option}=-1)`;
  }
  return message.split('\n')[0]!;
}

/**
 * The command line `args` of benchmark `name` read against `spec`; throws a UsageError (exit 2,
 * or 0 with the help for `--help`) before the benchmark does any work.
 */
export function benchArgs<const T extends Record<string, Option>>(name: string, args: readonly string[], spec: Spec<T>): Parsed<T> {
  const fail = (message: string): never => {
    throw new UsageError(`bench ${name}: ${message}\n${usageLines(name, spec)}npm run bench -- ${name} --help lists the options\n`, 2);
  };
  const declared: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [key, o] of Object.entries(spec.options)) declared[key] = { type: o.kind === 'flag' ? 'boolean' : 'string' };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: declared, strict: true, allowPositionals: true }) as typeof parsed;
  } catch (e) {
    return fail(describe(e));
  }
  if (parsed.values.help === true) throw new UsageError(helpText(name, spec), 0);
  const values: Record<string, unknown> = {};
  const given = new Set<keyof T & string>();
  for (const [key, o] of Object.entries(spec.options)) {
    const raw = parsed.values[key];
    if (o.kind === 'flag') {
      values[key] = raw === true;
      if (raw === true) given.add(key);
    } else if (typeof raw === 'string') {
      const v = convert(o, raw);
      if (!v.ok) fail(`--${key}: ${v.why}`);
      else values[key] = v.value;
      given.add(key);
    } else {
      values[key] = Array.isArray(o.default) ? [...(o.default as number[])] : o.default;
    }
  }
  const p = spec.positionals ?? { max: 0, names: '' };
  const n = parsed.positionals.length;
  if (n > p.max) fail(p.max === 0 ? `unexpected argument "${parsed.positionals[0]}" (it takes none)` : `unexpected argument "${parsed.positionals[p.max]}" (it takes ${p.names})`);
  if (n < (p.min ?? 0)) fail(`${n} of ${p.min} arguments given: it takes ${p.names}`);
  return { values: values as Parsed<T>['values'], positionals: parsed.positionals, given, fail };
}
