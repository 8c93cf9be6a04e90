/**
 * What the build benchmarks share: a tool run as its own process, timed from spawn to exit with
 * its peak resident memory (GNU time's %M when /usr/bin/time exists, else sampling
 * /proc/PID/status VmHWM), and the first games of a collection as a plain PGN file.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownChild } from './cleanup.js';
import { gunzipSync } from 'node:zlib';

const GNU_TIME = '/usr/bin/time';

export interface Run {
  wall: number;
  /** Peak resident memory in MiB, or NaN when it could not be measured. */
  peak: number;
}

/** Runs a command to completion; returns its wall time and peak memory. */
export async function measure(cmd: string, args: string[], cwd: string): Promise<Run> {
  const timed = existsSync(GNU_TIME);
  const marker = join(cwd, 'time.txt');
  const argv = timed ? [GNU_TIME, '-f', '%M', '-o', marker, cmd, ...args] : [cmd, ...args];
  const t0 = performance.now();
  const child = ownChild(spawn(argv[0]!, argv.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'] }));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  // Without GNU time, sample the high-water mark of the process (Linux only).
  let hwm = NaN;
  const sample = (): void => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m !== null) hwm = Math.max(Number.isNaN(hwm) ? 0 : hwm, Number(m[1]) / 1024);
    } catch {
      // the process has exited
    }
  };
  const timer = timed ? undefined : setInterval(sample, 20);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const wall = (performance.now() - t0) / 1000;
  if (timer !== undefined) clearInterval(timer);
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${stderr.slice(-500)}`);
  const peak = timed ? Number(readFileSync(marker, 'utf8').trim().split('\n').pop()) / 1024 : hwm;
  return { wall, peak };
}

/** The first `n` games of the collection, as a plain PGN file. */
export function firstGames(src: string, n: number, dst: string): number {
  const text = gunzipSync(readFileSync(src)).toString('latin1');
  let at = -1;
  let games = 0;
  for (let i = text.indexOf('[Event '); i >= 0 && games <= n; i = text.indexOf('\n[Event ', i + 1)) {
    games++;
    if (games > n) at = i + 1;
  }
  writeFileSync(dst, at < 0 ? text : text.slice(0, at), 'latin1');
  return Math.min(games, n);
}
