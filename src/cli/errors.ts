import { totalmem } from 'node:os';

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
  if (n < min || n > max) throw new CliError(`option ${name}: ${Number.isSafeInteger(n) ? n : value.trim()} is out of range (${rangeText(min, max)})`, 2);
  // Past 2^53 a double no longer holds every integer: 2^53 + 1 would be read as 2^53.
  if (!Number.isSafeInteger(n)) throw new CliError(`option ${name}: ${value.trim()} is too large (at most ${Number.MAX_SAFE_INTEGER})`, 2);
  return n;
}

/** A range as the messages say it: "1..64", "at least 1", "at most 100". */
function rangeText(min: number, max: number): string {
  if (max === Infinity) return min === -Infinity ? 'any' : `at least ${min}`;
  return min === -Infinity ? `at most ${max}` : `${min}..${max}`;
}

/** A decimal number: sign, digits with an optional fraction, an optional exponent (1e-9). */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** Parses a number option, or fails naming the option. */
export function numberOption(name: string, value: string | undefined, min = -Infinity, max = Infinity): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  // Decimal only, as the integer options: Number() would also read "0x10" as 16 and "0b11" as 3.
  if (!DECIMAL.test(value.trim()) || !Number.isFinite(n)) throw new CliError(`option ${name}: "${value}" is not a number`, 2);
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
  // A budget is not allocated up front: one past what the machine has would never spill, and the
  // job would fail late (out of memory) on an input that a budget it can hold sorts on disk.
  const machine = machineMemory();
  if (n > machine) throw new CliError(`option ${name}: ${value.trim()} is more than this machine's memory (${sizeText(machine)})`, 2);
  return Math.floor(n);
}

/** The memory the process may use: the machine's, or its container's (cgroup) limit when lower. */
export function machineMemory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  const total = totalmem();
  return limit > 0 && limit < total ? limit : total;
}

/** Bytes as the size options spell them, rounded down: "23.5G", "512M". */
function sizeText(bytes: number): string {
  for (const [unit, scale] of [['T', 2 ** 40], ['G', 2 ** 30], ['M', 2 ** 20]] as const) {
    if (bytes >= scale) return `${Math.floor((bytes / scale) * 10) / 10}${unit}`;
  }
  return `${Math.floor(bytes / 1024)}K`;
}
