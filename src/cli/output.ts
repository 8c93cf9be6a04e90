/**
 * Every command that reports results prints either text for people or, with --json, exactly
 * one JSON object on stdout. Diagnostics and progress go to stderr in both modes. A command
 * whose output is standard output itself (`-o -`) reports on stderr instead, so that what it
 * writes stays clean (as `book make -o -` and `book export -o -` do).
 */
export function report(json: boolean | undefined, value: object, text: () => string, output?: string): void {
  const stream = output === '-' ? process.stderr : process.stdout;
  stream.write((json ? JSON.stringify(value) : text()) + '\n');
}
