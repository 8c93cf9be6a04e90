/**
 * `npm run bench -- startup [--runs R]`: how soon the engine answers, as a GUI, cutechess-cli or
 * a script starting it sees it: from the spawn of `tabiya uci` to its `uciok` (the answer to
 * `uci`, sent at once) and to its `readyok` (the answer to the `isready` sent on `uciok`: the
 * search thread has started and made its WebAssembly core), against Stockfish started the same
 * way in the same run (and Ethereal 12 when Debian's `ethereal-chess` is installed). Then
 * `tabiya xboard`: from the spawn to `feature done=1` after `xboard` and `protover 2` (the end
 * of the handshake; the engine says `feature done=0` first, CECP §9), against the xboard
 * engines of docs/strength.md started the same way, those installed: HoiChess (which also says
 * `done=0` first and `done=1` when it is ready) and Phalanx (book and learning off, as the
 * matches run it).
 *
 * Runs alternate between the programs and the median of each is printed, with the ratio of ours
 * over the anchor's. Stockfish reads its network before it answers (about 20 MB), so its start
 * is not free either; Ethereal, with a hand-crafted evaluation, starts in a few milliseconds.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { ownChild } from './cleanup.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const STOCKFISH = '/usr/games/stockfish';
const ETHEREAL = '/usr/games/ethereal-chess';
/** The xboard anchors: Debian's packages of the engines docs/strength.md plays. */
const XBOARD_ANCHORS: { name: string; cmd: string; args: string[] }[] = [
  { name: 'hoichess', cmd: '/usr/games/hoichess', args: [] },
  { name: 'phalanx', cmd: '/usr/games/phalanx', args: ['-b-', '-l-'] },
];

export interface StartTimes {
  /** Milliseconds from the spawn to the answer of the handshake (uciok; xboard: feature done=1). */
  first: number;
  /** Milliseconds from the spawn to readyok (UCI only). */
  ready: number;
}

/**
 * Starts `cmd args`, runs the handshake of `proto` and returns when each answer came, measured
 * from just before the spawn; then quits the engine and waits for it to exit.
 */
export function startTimes(cmd: string, args: string[], proto: 'uci' | 'xboard'): Promise<StartTimes> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = ownChild(spawn(cmd, args, { stdio: ['pipe', 'pipe', 'ignore'] }));
    const times: StartTimes = { first: NaN, ready: NaN };
    let buffered = '';
    let done = false;
    const finish = (): void => {
      done = true;
      child.stdin.end('quit\n');
    };
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        const ms = performance.now() - t0;
        if (proto === 'uci' && line === 'uciok' && Number.isNaN(times.first)) {
          times.first = ms;
          child.stdin.write('isready\n');
        } else if (proto === 'uci' && line === 'readyok' && !done) {
          times.ready = ms;
          finish();
        } else if (proto === 'xboard' && /^feature\b.*\bdone=1\b/.test(line) && !done) {
          times.first = ms;
          finish();
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => (done ? resolve(times) : reject(new Error(`${cmd} exited (code ${code}) before it answered`))));
    child.stdin.write(proto === 'uci' ? 'uci\n' : 'xboard\nprotover 2\n');
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export async function main(args: string[]): Promise<void> {
  const { runs } = benchArgs('startup', args, {
    usage: '[--runs R]',
    options: { runs: { kind: 'int', default: 9, min: 1, arg: 'R', help: 'starts of each program; the median is printed' } },
  }).values;
  const programs: { name: string; cmd: string; args: string[]; proto: 'uci' | 'xboard' }[] = [
    { name: 'tabiya uci', cmd: process.execPath, args: [CLI, 'uci'], proto: 'uci' },
    { name: 'stockfish', cmd: STOCKFISH, args: [], proto: 'uci' },
  ];
  if (existsSync(ETHEREAL)) programs.push({ name: 'ethereal', cmd: ETHEREAL, args: [], proto: 'uci' });
  else process.stderr.write(`${ETHEREAL} is not installed (apt-get install ethereal-chess): Stockfish only\n`);
  programs.push({ name: 'tabiya xboard', cmd: process.execPath, args: [CLI, 'xboard'], proto: 'xboard' });
  const xboardAnchors = XBOARD_ANCHORS.filter((a) => existsSync(a.cmd));
  for (const a of xboardAnchors) programs.push({ ...a, proto: 'xboard' });
  if (xboardAnchors.length === 0) process.stderr.write('neither hoichess nor phalanx is installed (apt-get install hoichess phalanx): tabiya xboard without an anchor\n');
  const seen = programs.map(() => [] as StartTimes[]);
  for (let i = 0; i < runs; i++) {
    const line: string[] = [];
    for (const [k, p] of programs.entries()) {
      const t = await startTimes(p.cmd, p.args, p.proto);
      seen[k]!.push(t);
      line.push(p.proto === 'uci' ? `${p.name} ${t.first.toFixed(0)}/${t.ready.toFixed(0)} ms` : `${p.name} ${t.first.toFixed(0)} ms`);
    }
    process.stderr.write(`run ${i + 1} (uciok/readyok; xboard: done=1): ${line.join(', ')}\n`);
  }
  const med = seen.map((ts) => ({ first: median(ts.map((t) => t.first)), ready: median(ts.map((t) => t.ready)) }));
  for (const [k, p] of programs.entries()) {
    const m = med[k]!;
    if (p.proto === 'uci') console.log(`${p.name}: uciok ${m.first.toFixed(0)} ms, readyok ${m.ready.toFixed(0)} ms after the spawn (median of ${runs})`);
    else console.log(`${p.name}: feature done=1 ${m.first.toFixed(0)} ms after the spawn (median of ${runs})`);
  }
  const ours = med[0]!;
  const oursX = med[programs.findIndex((p) => p.name === 'tabiya xboard')]!;
  for (const [k, p] of programs.entries()) {
    if (p.name.startsWith('tabiya')) continue;
    const a = med[k]!;
    if (p.proto === 'uci') console.log(`ratio tabiya / ${p.name}: uciok ${(ours.first / Math.max(1, a.first)).toFixed(2)}, readyok ${(ours.ready / Math.max(1, a.ready)).toFixed(2)}`);
    else console.log(`ratio tabiya xboard / ${p.name}: feature done=1 ${(oursX.first / Math.max(1, a.first)).toFixed(2)}`);
  }
}
