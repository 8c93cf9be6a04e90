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
  if (n < min || n > max) throw new CliError(`option ${name}: ${n} is out of range (${min}..${max})`, 2);
  return n;
}

/** Parses a number option, or fails naming the option. */
export function numberOption(name: string, value: string | undefined, min = -Infinity, max = Infinity): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new CliError(`option ${name}: "${value}" is not a number`, 2);
  if (n < min || n > max) throw new CliError(`option ${name}: ${n} is out of range (${min}..${max})`, 2);
  return n;
}
