/**
 * `npm run bench -- serve [--book FILE] [--seconds S] [--connections C] [--no-pin]`: requests
 * per second and p50/p99 latency of `GET /api/explorer` of `tabiya serve` under load
 * (autocannon), against the same server's static file (the page's arrow images, as big as an
 * answer) as the floor: the ratio says how much of a request's cost the explorer itself adds.
 * The server runs in its own process pinned to CPU 0, the load generator in this one pinned to
 * CPU 1 (taskset), so neither takes the other's core (--no-pin: both left to the scheduler,
 * which on a busy machine distorts the CPU figures less than a core shared with other jobs).
 * Besides the wall-clock figures it prints requests per second of the server's own CPU time,
 * the load average at the start and the end, and whether the goal is met.
 *
 * Three loads: ten positions of common openings in turn (answers the server keeps: what most
 * visitors ask), 6,000 distinct book positions in turn (each answer made anew: more than the
 * server keeps), and the static file.
 *
 * Default book: the bundled data/tabiya.bin; the goal is set for the .tbk of the 389k-game
 * collection (book make ../shared/data/games/pgnmentor_players_dedup.pgn.gz -o X.tbk).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { DEFAULT_BOOK } from '../src/book/node/defaultBook.js';
import { benchArgs } from './args.js';
import { ownChild } from './cleanup.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const LINES = ['', 'e2e4', 'e2e4,c7c5', 'e2e4,c7c5,g1f3,d7d6', 'd2d4', 'd2d4,g8f6,c2c4,e7e6', 'e2e4,e7e5,g1f3,b8c6,f1b5', 'c2c4', 'g1f3,d7d5', 'e2e4,e7e6,d2d4,d7d5'];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests per second of the server's own CPU time (NaN where /proc is missing). */
  perCore: number;
  /** Mean bytes of an answer, headers included. */
  bytes: number;
}

/**
 * CPU seconds (user + system) process `pid` has used, from /proc (Linux; NaN elsewhere). On a
 * busy machine the server's CPU time per request says more than the wall clock: requests per
 * CPU second is what one core of its own would serve.
 */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

let serverPid = 0;

async function load(url: string, paths: string[], seconds: number, connections: number): Promise<Figures> {
  let i = 0;
  const cpu0 = cpuSeconds(serverPid);
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }],
  });
  const cpu = cpuSeconds(serverPid) - cpu0;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, perCore: r.requests.total / cpu, bytes: r.throughput.total / Math.max(1, r.requests.total) };
}

/** Distinct positions of the uncached run: more than the server's answer cache holds (responseCache.ts). */
const DISTINCT = 6000;

/** Up to `n` lines of book moves, breadth first from the initial position, read from the server. */
async function bookLines(url: string, n: number): Promise<string[]> {
  const lines: string[] = [];
  const queue = [''];
  while (queue.length > 0 && lines.length < n) {
    const line = queue.shift()!;
    lines.push(line);
    const r = (await (await fetch(`${url}api/explorer?play=${line}`)).json()) as { moves: { uci: string }[] };
    for (const m of r.moves) queue.push(line === '' ? m.uci : `${line},${m.uci}`);
  }
  return lines;
}

/** Whether the server and the load generator can each have a core of their own. */
function pinning(): boolean {
  return availableParallelism() >= 2 && spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
}

/**
 * The floor: a static file of the page about as big as an explorer answer (1.7 kB; answers are
 * 1 to 5 kB), so that the ratio compares the work of a request and not the bytes sent.
 */
const FLOOR = '/assets/arrows.svg';

/** The goal set for the explorer: requests per second and 99th percentile latency, on one core. */
const GOAL_RPS = 10_000;
const GOAL_P99_MS = 10;

/** A latency in ms as autocannon gives it (whole milliseconds unless it says more). */
function ms(x: number): string {
  return `${Number.isInteger(x) || x >= 10 ? x.toFixed(0) : x.toFixed(1)} ms`.padStart(7);
}

export async function main(args: string[]): Promise<void> {
  const o = benchArgs('serve', args, {
    usage: '[--book FILE] [--seconds S] [--connections C] [--no-pin]',
    options: {
      book: { kind: 'string', default: DEFAULT_BOOK, arg: 'FILE', defaultText: 'the bundled data/tabiya.bin', help: 'the book the server serves' },
      seconds: { kind: 'number', default: 10, min: 1, arg: 'S', help: 'seconds of each load' },
      connections: { kind: 'int', default: 10, min: 1, arg: 'C', help: 'connections at once' },
      'no-pin': { kind: 'flag', help: 'leave the server and the load generator to the scheduler (no taskset)' },
    },
  });
  const { book, seconds, connections } = o.values;
  const startLoad = loadavg().map((x) => x.toFixed(2)).join(' ');
  // Counted before this process is pinned to one CPU (which availableParallelism would then say).
  const cpuCount = availableParallelism();
  // One core each: the server on CPU 0, this process (autocannon) on CPU 1 (taskset, util-linux).
  const pinned = !o.values['no-pin'] && pinning();
  const serve = [process.execPath, MAIN, 'serve', book, '--port', '0', '--read-only'];
  const child = ownChild(pinned ? spawn('taskset', ['-c', '0', ...serve], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(serve[0]!, serve.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] }));
  if (pinned) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  // taskset runs the server in its own process (exec), so the pid is the server's.
  serverPid = child.pid ?? 0;
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 60_000;
  while (!/http:\/\/\S+\//.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the server did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = /http:\/\/\S+\//.exec(out)![0];
  try {
    const explorer = LINES.map((l) => `/api/explorer?play=${l}`);
    // More distinct positions than the server keeps answers for, asked in turn: every request
    // is a miss (least recently used goes first), the cost of a position nobody asked for yet.
    const distinct = (await bookLines(url, DISTINCT)).map((l) => `/api/explorer?play=${l}`);
    // Warm-up, then the floor and ours alternately, best of two each.
    await load(url, explorer, 2, connections);
    const best = (a: Figures, b: Figures): Figures => (a.rps >= b.rps ? a : b);
    let floor = await load(url, [FLOOR], seconds, connections);
    let ours = await load(url, explorer, seconds, connections);
    let misses = await load(url, distinct, seconds, connections);
    floor = best(floor, await load(url, [FLOOR], seconds, connections));
    ours = best(ours, await load(url, explorer, seconds, connections));
    misses = best(misses, await load(url, distinct, seconds, connections));
    const row = (name: string, f: Figures): string =>
      `${name.padEnd(44)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${ms(f.p50)}   p99 ${ms(f.p99)}   ${Number.isFinite(f.perCore) ? `${f.perCore.toFixed(0).padStart(6)} req per server CPU second` : ''}   ${(f.bytes / 1000).toFixed(1)} kB an answer${f.errors > 0 ? `   ${f.errors} errors` : ''}`;
    const size = statSync(book).size;
    console.log(`tabiya serve ${book} (${(size / 1e6).toFixed(0)} MB), ${connections} connections, ${seconds} s a run, best of 2; ${pinned ? 'server on CPU 0, load generator on CPU 1 (taskset)' : 'not pinned (--no-pin, or no taskset, or one CPU)'}`);
    console.log(`machine: ${cpuCount} CPUs (${cpus()[0]?.model ?? '?'}), node ${process.version}; load average at the start ${startLoad}, at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log(row(`GET /api/explorer, ${LINES.length} positions (kept answers)`, ours));
    console.log(row(`GET /api/explorer, ${distinct.length} positions (made anew)`, misses));
    console.log(row(`GET ${FLOOR} (the floor)`, floor));
    console.log(
      `ratio to the floor: kept ${(ours.rps / floor.rps).toFixed(2)}, made anew ${(misses.rps / floor.rps).toFixed(2)} (requests per second); kept ${(ours.perCore / floor.perCore).toFixed(2)}, made anew ${(misses.perCore / floor.perCore).toFixed(2)} (per server CPU second)`,
    );
    const verdict = (f: Figures): string => (f.rps >= GOAL_RPS && f.p99 <= GOAL_P99_MS ? 'met' : 'not met');
    console.log(`goal (>= ${GOAL_RPS.toLocaleString('en')} req/s and p99 <= ${GOAL_P99_MS} ms, the server on one core): kept answers ${verdict(ours)}, answers made anew ${verdict(misses)}; wall-clock figures count only from an idle machine (load average well under 1 at the start and the end)`);
  } finally {
    child.kill('SIGTERM');
  }
}
