/** Errors a command raises to stop with a message and an exit code; only main.ts exits. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Parses an integer option, or fails naming the option. */
export function intOption(name: string, value: string | undefined, min = -Infinity, max = Infinity): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new CliError(`option ${name}: "${value}" is not an integer`, 2);
  const n = parseInt(value, 10);
  if (n < min || n > max) throw new CliError(`option ${name}: ${n} is out of range (${rangeText(min, max)})`, 2);
  return n;
}

/** A range as the messages say it: "1..64", "at least 1", "at most 100". */
function rangeText(min: number, max: number): string {
  if (max === Infinity) return min === -Infinity ? 'any' : `at least ${min}`;
  return min === -Infinity ? `at most ${max}` : `${min}..${max}`;
}

/** Parses a number option, or fails naming the option. */
export function numberOption(name: string, value: string | undefined, min = -Infinity, max = Infinity): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new CliError(`option ${name}: "${value}" is not a number`, 2);
  if (n < min || n > max) throw new CliError(`option ${name}: ${n} is out of range (${rangeText(min, max)})`, 2);
  return n;
}

/** Parses a size in bytes: "1G", "512M", "64K" (powers of 1024, "GiB"/"MB" spellings too) or a plain number. */
export function sizeOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(value);
  if (m === null) throw new CliError(`option ${name}: "${value}" is not a size (for example 1G, 512M or 100000)`, 2);
  const n = Number(m[1]) * 1024 ** ' kmgt'.indexOf((m[2] || ' ').toLowerCase());
  if (n < 1 << 16) throw new CliError(`option ${name}: ${value} is below the least budget, 64K`, 2);
  return Math.floor(n);
}
