/**
 * tabiya's temporary files: every output is written under a temporary name next to its target
 * and renamed over it when complete (atomicWrite.ts). This module names those files, keeps
 * track of the ones this process has open, and cleans up after processes that died.
 *
 * - Names are recognisably tabiya's and say who wrote them: `.NAME.tabiya-<pid>@<host>-<random>.tmp`
 *   next to NAME (hidden, in the same directory so the rename stays on one file system). The
 *   host is in the name because the directory may be on a file system that several machines
 *   share (NFS, a cluster's home directories): a pid says whether a writer is alive only on the
 *   machine that runs it, as for a book's lock (richFile.ts) and a build's scratch directory
 *   (workDir.ts).
 * - Live temporaries (and the lock of a book being changed, richFile.ts) are removed on every
 *   exit path that runs code: normal exit, an uncaught
 *   error (the `exit` event), and SIGINT, SIGTERM and SIGHUP. On a signal the handler removes
 *   them and, when nothing else in the process listens for that signal, restores the default
 *   action and raises the signal again, so the shell sees the conventional status 128 + signal
 *   number (what GNU sort does with its temporary files: clean up, then re-raise).
 * - SIGKILL and power loss run no code; the temporaries they leave are removed by the next
 *   write to the same target on the same machine (`sweepStaleTemps`), once their writer's pid is
 *   no longer alive. Another machine's are left alone: its writer may be alive there, and
 *   removing its temporary file would make its rename fail at the end of its work. (Names of
 *   earlier versions, without a host, are judged by the pid alone, as before.)
 * - The handler runs before the command's own (it is prepended), so whether another listener
 *   decides what the signal means does not depend on which was registered first: `tabiya serve`
 *   removes its listener as it starts to close, and a handler that ran after it saw itself alone
 *   and ended the server by the signal (exit 130, not 0) once any import had been made.
 * - Other things to put right before a process ends abruptly (a progress bar's line, which the
 *   shell's prompt would otherwise follow on the same line) are registered with `onAbruptEnd`.
 */
import { readdirSync, rmSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { hostname } from 'node:os';
import { MessageChannel, isMainThread, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

const live = new Set<string>();
/** Live temporary directories (a large build's scratch space), removed with their contents. */
const liveDirs = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;
/** What runs before the process ends by a signal (progress.ts ends a bar's line). */
const enders = new Set<() => void>();

/** What a worker thread's temporaries are reported as to the main thread, which alone sees signals. */
export type TempEvent = { op: 'file' | 'dir' | 'release'; path: string };
/** In a worker thread: where its temporaries are reported (joinTemps). */
let relay: ((e: TempEvent) => void) | undefined;

/**
 * What a worker thread needs to take part (workerData; `port`, when there is one, also in the
 * transferList): the gate shared by every thread of the process, and the port its temporaries
 * are reported on. gate[0] counts the creations under way in workers, gate[1] is 1 once the
 * process is ending.
 */
export interface TempLink {
  gate: SharedArrayBuffer;
  port?: MessagePort;
}
/** The process's gate: made by the main thread, handed on to every worker (and their workers). */
let gateBuffer: SharedArrayBuffer | undefined;
let gate: Int32Array | undefined;
/** On the main thread: the ports the job workers report their temporaries on, and what records a report. */
const ports = new Map<MessagePort, (e: TempEvent) => void>();

function sharedGate(): SharedArrayBuffer {
  if (gateBuffer === undefined) {
    gateBuffer = new SharedArrayBuffer(8);
    gate = new Int32Array(gateBuffer);
  }
  return gateBuffer;
}

/**
 * A link for a worker that makes temporaries in the process's scratch directories only (files
 * in a directory already registered): the gate, so that none is made while the directory is
 * being removed at a signal.
 */
export function tempGateLink(): TempLink {
  return { gate: sharedGate() };
}

/**
 * A link for a worker whose temporaries are the main thread's to remove (a book job,
 * bookJob.ts): signals reach only the main thread, and a process ending on one does not run a
 * worker's exit handlers. Its registrations come by a port of their own, which a signal handler
 * can read at once (receiveMessageOnPort): a registration posted before a file was made, and not
 * yet delivered when the signal came, is still seen, where a message on the worker's own port
 * waited behind the signal and the file stayed. `close` reads what is left and closes the port.
 */
export function openTempLink(): { link: TempLink; close(): void; abandon(): void } {
  const { port1, port2 } = new MessageChannel();
  // This worker's temporaries still live (true: a directory), for `abandon`.
  const mine = new Map<string, boolean>();
  const record = (e: TempEvent): void => {
    recordTempEvent(e);
    if (e.op === 'release') mine.delete(e.path);
    else mine.set(e.path, e.op === 'dir');
  };
  port1.on('message', record);
  // The job's own promise keeps the process alive; this port must not.
  port1.unref();
  ports.set(port1, record);
  if (!installed) install();
  const close = (): void => {
    drain(port1, record);
    port1.close();
    ports.delete(port1);
  };
  return {
    link: { gate: sharedGate(), port: port2 },
    close,
    // The worker was terminated (a job cancelled): what it left is removed now, not at exit.
    abandon: () => {
      close();
      for (const [path, dir] of mine) {
        removeQuietly(path, dir);
        releaseTemp(path);
      }
      mine.clear();
    },
  };
}

/** In a worker thread: takes part in the process's temporaries (what openTempLink or tempGateLink gave). */
export function joinTemps(link: TempLink | undefined): void {
  if (link === undefined) return;
  gateBuffer = link.gate;
  gate = new Int32Array(link.gate);
  const port = link.port;
  relay = port === undefined ? undefined : (e) => port.postMessage(e);
}

/**
 * Makes a temporary (`make` creates and registers it) unless the process is ending: in a worker
 * thread, the main thread's signal handler waits for the creations under way and then removes
 * what was registered, and no new one starts after it has begun (it throws), so nothing is made
 * behind the clean-up's back.
 */
export function creatingTemp<T>(make: () => T): T {
  if (isMainThread || gate === undefined) return make();
  Atomics.add(gate, 0, 1);
  try {
    if (Atomics.load(gate, 1) !== 0) throw new Error('the process is ending: no new temporary file');
    return make();
  } finally {
    Atomics.sub(gate, 0, 1);
    Atomics.notify(gate, 0);
  }
}

/** The main thread, ending: no new temporaries in workers; those under way are waited for (briefly), and every report read. */
function settleWorkers(): void {
  if (!isMainThread || gate === undefined) return;
  Atomics.store(gate, 1, 1);
  // A creation is one system call or two; a file system that hangs is not waited for long.
  const deadline = Date.now() + 2000;
  for (let n = Atomics.load(gate, 0); n !== 0 && Date.now() < deadline; n = Atomics.load(gate, 0)) Atomics.wait(gate, 0, n, 20);
  for (const [p, record] of ports) drain(p, record);
}

function drain(port: MessagePort, record: (e: TempEvent) => void): void {
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) record(m.message as TempEvent);
}

/** Records, on the main thread, a temporary a worker thread registered or released. */
export function recordTempEvent(e: TempEvent): void {
  if (e.op === 'file') registerTemp(e.path);
  else if (e.op === 'dir') registerTempDir(e.path);
  else releaseTemp(e.path);
}

/**
 * The longest file name (in bytes) the usual file systems take: NAME_MAX of ext4, XFS, Btrfs,
 * tmpfs and NFS is 255 bytes, and NTFS, APFS and FAT's long names allow 255 characters.
 */
export const NAME_MAX = 255;

/**
 * A fresh temporary name for `target`, in its directory. A target whose name is legal but so
 * long that the temporary's would not be (`.NAME.tabiya-<pid>@<host>-<random>.tmp` adds 30 bytes
 * and the host's up to 64) is named by its first bytes and a hash of its whole name,
 * `.NAMEPREFIX~<hash>.tabiya-…`: still recognisably its own, and found by the sweep (tempOwner).
 */
export function tempPathFor(target: string): string {
  const tail = `.tabiya-${process.pid}@${hostTag()}-${randomBytes(4).toString('hex')}.tmp`;
  return join(dirname(target), `.${fitName(basename(target), NAME_MAX - 1 - Buffer.byteLength(tail))}${tail}`);
}

/**
 * `name` when it takes at most `room` bytes (UTF-8, as Node names files); otherwise its first
 * whole characters and `~` with 8 hex digits of a hash of the whole name, in `room` bytes.
 */
export function fitName(name: string, room: number): string {
  if (Buffer.byteLength(name) <= room) return name;
  const mark = `~${nameHash(name)}`;
  let head = '';
  let bytes = 0;
  for (const ch of name) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > room - mark.length) break;
    head += ch;
    bytes += n;
  }
  return `${head}${mark}`;
}

function nameHash(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 8);
}

/** Records a file this process must remove if it ends early: a temporary file, or a book's lock it holds. */
export function registerTemp(path: string): void {
  live.add(path);
  relay?.({ op: 'file', path });
  if (!installed) install();
}

/** The temporary file was renamed into place or removed: nothing left to clean. */
export function releaseTemp(path: string): void {
  live.delete(path);
  liveDirs.delete(path);
  relay?.({ op: 'release', path });
}

/** Records a temporary directory this process created, to be removed with everything in it if the process ends early. */
export function registerTempDir(path: string): void {
  liveDirs.add(path);
  relay?.({ op: 'dir', path });
  if (!installed) install();
}

/** Removes every live temporary file of this process (synchronously: it runs in exit handlers). */
export function removeLiveTemps(): void {
  settleWorkers();
  for (const p of live) removeQuietly(p, false);
  live.clear();
  for (const p of liveDirs) removeQuietly(p, true);
  liveDirs.clear();
}

/**
 * Removes a file or directory; a path that cannot be there (its parent is a file: ENOTDIR) or
 * cannot be removed is left alone: an exit handler that throws would end in a stack trace.
 */
export function removeQuietly(path: string, recursive: boolean): void {
  try {
    rmSync(path, { recursive, force: true });
  } catch {
    // Nothing of ours to remove, or nothing more to do about it while exiting.
  }
}

/**
 * Registers `fn` to run, when the handler below is installed (a temporary file or lock is live),
 * before the process ends by a signal no command handles itself; it must be quick and
 * synchronous, and may run more than once. It installs no handler itself: a command without
 * one ends at once on Ctrl-C by the signal's default action, even in the middle of synchronous
 * work (a search) that would hold back a handler written in JavaScript.
 */
export function onAbruptEnd(fn: () => void): void {
  enders.add(fn);
}

function runEnders(): void {
  for (const fn of enders) {
    try {
      fn();
    } catch {
      // Nothing more to do about it while the process ends.
    }
  }
}

function install(): void {
  installed = true;
  process.on('exit', removeLiveTemps);
  // First, so that the count of listeners below sees a command's own handler even when that
  // handler removes itself as it runs (serve's stop).
  for (const sig of SIGNALS) process.prependListener(sig, onSignal);
}

function onSignal(sig: NodeJS.Signals): void {
  removeLiveTemps();
  // Another listener (the match runner's graceful stop) decides what the signal means.
  if (process.listenerCount(sig) > 1) return;
  runEnders();
  for (const s of SIGNALS) process.off(s, onSignal);
  installed = false;
  process.kill(process.pid, sig);
}

/** This machine's name as it goes into a scratch directory's name or a lock (letters, digits, '.', '-' and '_' only). */
export function hostTag(): string {
  return hostname().replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'localhost';
}

/** Is the process `pid` alive (or alive under another user)? */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who wrote a temporary file: a pid, and the machine it runs on (absent in older names). */
export interface TempOwner {
  pid: number;
  host?: string;
}

/**
 * The writer of `name`, if `name` is one of tabiya's temporary files for the file `base`: the
 * current pattern (`.NAME.tabiya-<pid>@<host>-<random>.tmp`), and the earlier ones without the
 * host (`.NAME.tabiya-<pid>-<random>.tmp`, `.NAME.<pid>.<time>.tmp`, `NAME.tmp-<pid>`), so the
 * leftovers of older versions are cleaned too.
 */
export function tempOwner(base: string, name: string): TempOwner | undefined {
  let pid: string | undefined;
  let host: string | undefined;
  // The name of a target too long to go whole into its temporary's (tempPathFor): a prefix of it and its hash.
  const mark = `~${nameHash(base)}.tabiya-`;
  const at = name.indexOf(mark);
  const short = at > 0 && name.startsWith('.') && base.length > at - 1 && base.startsWith(name.slice(1, at)) && name.endsWith('.tmp');
  if (short || (name.startsWith(`.${base}.`) && name.endsWith('.tmp'))) {
    // The host may hold '-' (node-17) but the random part does not: it is what follows the last one.
    const rest = short ? name.slice(at + mark.length - 'tabiya-'.length, -4) : name.slice(base.length + 2, -4);
    const m = /^(?:tabiya-(\d+)(?:@([A-Za-z0-9._-]+))?-[0-9a-f]+|(\d+)\.[0-9a-z]+)$/.exec(rest);
    pid = m?.[1] ?? m?.[3];
    host = m?.[2];
  } else if (name.startsWith(`${base}.tmp-`)) pid = /^(\d+)$/.exec(name.slice(base.length + 5))?.[1];
  const n = Number(pid);
  if (pid === undefined || !(n > 0)) return undefined;
  return host === undefined ? { pid: n } : { pid: n, host };
}

/**
 * Whether the writer of a temporary file is gone: its pid is not alive on this machine. Another
 * machine's writer is never judged from here: its pid means nothing here.
 */
export function tempOwnerGone(owner: TempOwner): boolean {
  if (owner.host !== undefined && owner.host !== hostTag()) return false;
  return !processAlive(owner.pid);
}

/** Removes the temporary files of `target` left by processes of this machine that are gone; returns their paths. */
export function sweepStaleTemps(target: string): string[] {
  const dir = dirname(target);
  const base = basename(target);
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const owner = tempOwner(base, name);
    if (owner === undefined || !tempOwnerGone(owner)) continue;
    const p = join(dir, name);
    try {
      rmSync(p, { force: true });
      removed.push(p);
    } catch {
      // Not ours to remove after all (permissions): leave it.
    }
  }
  return removed;
}
