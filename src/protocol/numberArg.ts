/**
 * Numeric arguments of protocol commands (UCI `go depth 5`, xboard `sd 5`, option values):
 * a token is read only when the whole of it is a number of the expected kind and range.
 * `parseInt('5x')` would read 5 and `Number('')` would read 0; either way a typo became a
 * limit nobody asked for, so both protocols check every number here and report the rest.
 */

export interface NumberRule {
  /** Smallest accepted value (inclusive). */
  min: number;
  /** Largest accepted value (inclusive); by default any. */
  max?: number;
  /** Accept decimal fractions (`0.5`); by default only whole numbers. */
  fraction?: boolean;
}

const WHOLE = /^-?\d+$/;
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;

/** The value of `token` when it is a number that satisfies `rule`, else undefined. */
export function readNumber(token: string | undefined, rule: NumberRule): number | undefined {
  if (token === undefined || !(rule.fraction ? DECIMAL : WHOLE).test(token)) return undefined;
  // "-0" is no count of anything.
  if (rule.min >= 0 && token.startsWith('-')) return undefined;
  const n = Number(token);
  if (!Number.isFinite(n) || n < rule.min || n > (rule.max ?? Infinity)) return undefined;
  return n;
}

/** What `rule` accepts, in words: "a whole number from 1 to 20", "a number of at least 0". */
export function describeRule(rule: NumberRule, unit = ''): string {
  const kind = rule.fraction ? 'a number' : 'a whole number';
  const of = unit === '' ? '' : ` of ${unit}`;
  if (rule.max !== undefined) return `${kind}${of} from ${rule.min} to ${rule.max}`;
  if (rule.min === -Infinity || rule.min <= Number.MIN_SAFE_INTEGER) return `${kind}${of}`;
  return `${kind}${of}, at least ${rule.min}`;
}

/** The reason `token` was refused, naming it and what was expected. */
export function numberProblem(token: string | undefined, rule: NumberRule, unit = ''): string {
  const expected = describeRule(rule, unit);
  return token === undefined ? `a value is missing: expected ${expected}` : `"${token}" is not ${expected}`;
}
