import { fstatSync, statSync } from 'node:fs';

/**
 * Whether `output` is the command's standard output: `-`, or a name for the file or pipe that
 * standard output already is (`-o /dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, or the file it
 * is redirected to). A terminal or another character device (`/dev/null`) is not counted: text
 * written there beside the output mixes nothing a program reads back.
 */
export function isStandardOutput(output: string | undefined): boolean {
  if (output === undefined) return false;
  if (output === '-') return true;
  try {
    const out = fstatSync(1);
    if (out.isCharacterDevice()) return false;
    const named = statSync(output);
    return named.dev === out.dev && named.ino === out.ino;
  } catch {
    return false;
  }
}

/**
 * Every command that reports results prints either text for people or, with --json, exactly
 * one JSON object on stdout. Diagnostics and progress go to stderr in both modes. A command
 * whose output is standard output itself (`-o -`, or `-o /dev/stdout` into a pipe) reports on
 * stderr instead, so that what it writes stays clean (as `book make -o -` and `book export -o -`
 * do): a summary after a book written into a pipe would be read as part of the book.
 */
export function report(json: boolean | undefined, value: object, text: () => string, output?: string): void {
  const stream = isStandardOutput(output) ? process.stderr : process.stdout;
  stream.write((json ? JSON.stringify(value) : text()) + '\n');
}
