/**
 * Every command that reports results prints either text for people or, with --json, exactly
 * one JSON object on stdout. Diagnostics and progress go to stderr in both modes.
 */
export function report(json: boolean | undefined, value: object, text: () => string): void {
  if (json) process.stdout.write(JSON.stringify(value) + '\n');
  else process.stdout.write(text() + '\n');
}
