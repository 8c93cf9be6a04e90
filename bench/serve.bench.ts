/**
 * `npm run bench -- serve [--book FILE] [--seconds S] [--connections C]`: requests per second
 * and p50/p99 latency of `GET /api/explorer` of `tabiya serve` under load (autocannon), against
 * the same server's static file (the page's stylesheet) as the floor: the ratio says how much of
 * a request's cost the explorer itself adds. The server runs in its own process pinned to CPU 0,
 * the load generator in this one pinned to CPU 1 (taskset), so neither takes the other's core. Positions cycle through the first moves of common openings.
 *
 * Three loads: ten positions of common openings in turn (answers the server keeps: what most
 * visitors ask), 6,000 distinct book positions in turn (each answer made anew: more than the
 * server keeps), and the static file.
 *
 * Default book: the bundled data/tabiya.bin; the figure the issue asks about is on the .tbk of
 * the 389k-game collection (book make ../shared/data/games/pgnmentor_players_dedup.pgn.gz -o X.tbk).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { DEFAULT_BOOK } from '../src/book/node/defaultBook.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const LINES = ['', 'e2e4', 'e2e4,c7c5', 'e2e4,c7c5,g1f3,d7d6', 'd2d4', 'd2d4,g8f6,c2c4,e7e6', 'e2e4,e7e5,g1f3,b8c6,f1b5', 'c2c4', 'g1f3,d7d5', 'e2e4,e7e6,d2d4,d7d5'];

function arg(args: string[], name: string, def: string): string {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1]! : def;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests per second of the server's own CPU time (NaN where /proc is missing). */
  perCore: number;
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
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, perCore: r.requests.total / cpu };
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

export async function main(args: string[]): Promise<void> {
  const book = arg(args, '--book', DEFAULT_BOOK);
  const seconds = Number(arg(args, '--seconds', '10'));
  const connections = Number(arg(args, '--connections', '10'));
  // One core each: the server on CPU 0, this process (autocannon) on CPU 1 (taskset, util-linux).
  const pinned = pinning();
  const serve = [process.execPath, MAIN, 'serve', book, '--port', '0', '--read-only'];
  const child = pinned ? spawn('taskset', ['-c', '0', ...serve], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(serve[0]!, serve.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
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
    let floor = await load(url, ['/assets/app.css'], seconds, connections);
    let ours = await load(url, explorer, seconds, connections);
    let misses = await load(url, distinct, seconds, connections);
    floor = best(floor, await load(url, ['/assets/app.css'], seconds, connections));
    ours = best(ours, await load(url, explorer, seconds, connections));
    misses = best(misses, await load(url, distinct, seconds, connections));
    const row = (name: string, f: Figures): string =>
      `${name.padEnd(28)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   ${Number.isFinite(f.perCore) ? `${f.perCore.toFixed(0).padStart(6)} req per server CPU second` : ''}${f.errors > 0 ? `   ${f.errors} errors` : ''}`;
    console.log(`tabiya serve ${book}, ${connections} connections, ${seconds} s a run, best of 2; ${pinned ? 'server on CPU 0, load generator on CPU 1 (taskset)' : 'not pinned (no taskset or one CPU)'}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log(row('GET /api/explorer (ours)', ours));
    console.log(row(`  ${distinct.length} positions, all new`, misses));
    console.log(row('GET /assets/app.css (floor)', floor));
    console.log(`ratio explorer/static: ${(ours.rps / floor.rps).toFixed(2)}, uncached ${(misses.rps / floor.rps).toFixed(2)} (goal: >= 10,000 req/s and p99 <= 10 ms)`);
  } finally {
    child.kill('SIGTERM');
  }
}
