/**
 * Running the built CLI as a user does, from a working directory: its exit code and both
 * streams, and the one JSON object a `--json` run prints (asserting it succeeded).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function cliIn(cwd: string): { tabiya(args: string[]): CliRun; json(args: string[]): Record<string, unknown> } {
  const tabiya = (args: string[]): CliRun => {
    const r = spawnSync(process.execPath, [MAIN, ...args], { cwd, encoding: 'utf8' });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  const json = (args: string[]): Record<string, unknown> => {
    const r = tabiya([...args, '--json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  return { tabiya, json };
}
