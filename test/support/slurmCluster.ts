/**
 * A throwaway one-node Slurm cluster for tests: munged, slurmctld and slurmd from Debian's
 * `slurm-wlm` and `munge` packages, started as root in a temporary directory on 127.0.0.1, with
 * no systemd, no cgroups and no accounting. It takes about a second to come up.
 *
 *   const skip = slurmMissing();                      // a reason to skip, or false
 *   const cluster = await startSlurmCluster();
 *   const r = await cluster.run('sbatch --parsable --wrap true');
 *   await cluster.waitForJobs([r.stdout.trim()]);
 *   await cluster.stop();                             // nothing left running, directory removed
 *
 * Why each setting: proctrack/linuxproc and task/none need no cgroup hierarchy (containers rarely
 * give one); select/cons_tres with CR_Core hands out single CPUs, so array tasks run side by side
 * instead of one per node; the ports are picked free so two test runs on one machine do not meet;
 * a fresh munge key and socket per cluster keep it away from any munged of the host. Debian 12
 * ships Slurm 22.05, which still has auth/none, but munge is what a real cluster uses, so the
 * tests exercise it. The daemons run in the foreground (-D) as our children, so the test owns
 * them: stop() asks slurmctld to shut the cluster down and kills whatever is left.
 */
import { spawn, spawnSync, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const SBIN = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const DAEMONS = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'scontrol', 'sinfo'];

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface SlurmCluster {
  /** The cluster's directory: slurm.conf, state, spool, logs (removed by stop()). */
  readonly dir: string;
  /** Environment that points Slurm's commands at this cluster (SLURM_CONF). */
  readonly env: NodeJS.ProcessEnv;
  /** Runs a shell command (bash -c) against the cluster; never rejects on a non-zero exit. */
  run(command: string, options?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<RunResult>;
  /** Waits until none of the jobs is pending or running; returns the state of each job and array task (`12_0` → COMPLETED). */
  waitForJobs(ids: readonly string[], timeoutMs?: number): Promise<Map<string, string>>;
  /** The last lines of the daemons' logs, for failure messages. */
  logs(): string;
  /** Shuts the cluster down, waits for the daemons to exit and removes the directory. */
  stop(): Promise<void>;
}

function which(name: string): string | undefined {
  return SBIN.map((d) => join(d, name)).find((p) => existsSync(p));
}

/** Why a Slurm test cannot run here (to pass as `skip`), or false when it can. */
export function slurmMissing(): string | false {
  const missing = DAEMONS.filter((d) => which(d) === undefined);
  if (missing.length > 0) return `Slurm is not installed (missing ${missing.join(', ')}; apt-get install slurm-wlm munge)`;
  if (process.getuid?.() !== 0) return 'the throwaway Slurm cluster runs its daemons as root (SlurmUser=root); run as root';
  return false;
}

async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
      const s = createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve(s));
    })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

function slurmConf(dir: string, host: string, cpus: number, ctldPort: number, slurmdPort: number): string {
  return `# A one-node test cluster (test/support/slurmCluster.ts)
ClusterName=tabiya-test
SlurmctldHost=${host}(127.0.0.1)
SlurmctldPort=${ctldPort}
SlurmdPort=${slurmdPort}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${dir}/munge/munge.socket
StateSaveLocation=${dir}/state
SlurmdSpoolDir=${dir}/spool
SlurmctldPidFile=${dir}/slurmctld.pid
SlurmdPidFile=${dir}/slurmd.pid
SlurmctldLogFile=${dir}/log/slurmctld.log
SlurmdLogFile=${dir}/log/slurmd.log
MailProg=/bin/true
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} State=UNKNOWN
PartitionName=test Nodes=${host} Default=YES MaxTime=INFINITE State=UP
`;
}

function runIn(env: NodeJS.ProcessEnv, command: string, options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { cwd: options.cwd, env: { ...env, ...options.env }, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

const isAlive = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null;
const alive = (procs: readonly ChildProcess[]): ChildProcess[] => procs.filter(isAlive);

/** Waits up to ms for the processes to exit, then TERMs and finally KILLs what is left. */
async function exited(procs: readonly ChildProcess[], ms: number): Promise<void> {
  for (const signal of [undefined, 'SIGTERM', 'SIGKILL'] as const) {
    if (signal !== undefined) for (const c of alive(procs)) c.kill(signal);
    const deadline = Date.now() + (signal === undefined ? ms : 2000);
    while (alive(procs).length > 0 && Date.now() < deadline) await sleep(50);
    if (alive(procs).length === 0) return;
  }
}

/**
 * Kills the processes whose environment holds the entry (this cluster's SLURM_CONF): the
 * slurmstepd and job processes that slurmd forked, which outlive a slurmd that was killed, and
 * retry their report to it for minutes. Synchronous, for the process's exit handler.
 */
function killCarriers(entry: string): void {
  const needle = Buffer.from(`\0${entry}\0`);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      if (Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]).includes(needle)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone already, or not ours to read
    }
  }
}

function tail(file: string, lines: number): string {
  if (!existsSync(file)) return `(no ${file})`;
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** Starts munged, slurmctld and slurmd and waits until the node is idle. */
export async function startSlurmCluster(options: { cpus?: number; timeoutMs?: number } = {}): Promise<SlurmCluster> {
  const missing = slurmMissing();
  if (missing !== false) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-slurm-'));
  // munged refuses a socket directory that others cannot traverse, and a key others can read.
  chmodSync(dir, 0o755);
  for (const d of ['munge', 'state', 'spool', 'log']) mkdirSync(join(dir, d), { mode: 0o755 });
  writeFileSync(join(dir, 'munge/munge.key'), randomBytes(1024), { mode: 0o400 });
  // Slurm matches SlurmctldHost and NodeName against `hostname -s`.
  const host = hostname().split('.')[0]!;
  const cpus = options.cpus ?? availableParallelism();
  const [ctldPort, slurmdPort] = await freePorts(2);
  const conf = join(dir, 'slurm.conf');
  writeFileSync(conf, slurmConf(dir, host, cpus, ctldPort!, slurmdPort!));
  const env: NodeJS.ProcessEnv = { ...process.env, SLURM_CONF: conf, PATH: `${process.env.PATH ?? ''}:${SBIN.join(':')}` };

  const children: ChildProcess[] = [];
  // A test that dies before stop() must not leave daemons or jobs behind.
  const killAll = (): void => {
    for (const c of alive(children)) c.kill('SIGKILL');
    killCarriers(`SLURM_CONF=${conf}`);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killAll);
  const daemon = (name: string, args: string[]): void => {
    const out = openSync(join(dir, 'log', `${name}.stdout`), 'a');
    children.push(spawn(which(name)!, args, { env, stdio: ['ignore', out, out] }));
    closeSync(out);
  };
  const munge = join(dir, 'munge');
  // --origin: the credentials name 127.0.0.1, with no lookup of a host name that may not resolve.
  daemon('munged', ['-F', '-f', '--origin=127.0.0.1', `--socket=${munge}/munge.socket`, `--key-file=${munge}/munge.key`, `--log-file=${munge}/munged.log`,
    `--pid-file=${munge}/munged.pid`, `--seed-file=${munge}/munged.seed`]);

  let stopped = false;
  const cluster: SlurmCluster = {
    dir,
    env,
    run: (command, opts) => runIn(env, command, opts),
    async waitForJobs(ids, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const states = new Map<string, string>();
        for (const id of ids) {
          const r = await runIn(env, `scontrol -o show job ${id}`);
          if (r.code !== 0) throw new Error(`scontrol show job ${id}: ${r.stderr}`);
          for (const line of r.stdout.split('\n').filter((l) => l !== '')) {
            const jobId = /\bJobId=(\d+)/.exec(line)?.[1];
            const task = /\bArrayTaskId=(\S+)/.exec(line)?.[1];
            const state = /\bJobState=(\S+)/.exec(line)?.[1] ?? '?';
            states.set(task === undefined ? jobId! : `${/\bArrayJobId=(\d+)/.exec(line)?.[1]}_${task}`, state);
          }
        }
        if ([...states.values()].every((s) => !/^(PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED)/.test(s))) return states;
        if (Date.now() > deadline) throw new Error(`jobs ${ids.join(', ')} still running after ${timeoutMs} ms: ${JSON.stringify([...states])}\n${cluster.logs()}`);
        await sleep(200);
      }
    },
    logs() {
      return ['munge/munged.log', 'log/slurmctld.log', 'log/slurmd.log', 'log/slurmctld.stdout', 'log/slurmd.stdout']
        .map((f) => `--- ${f}\n${tail(join(dir, f), 15)}`).join('\n');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      // Jobs first (a test that failed half-way may leave some running: slurmd's shutdown would
      // orphan them); then slurmctld, which tells slurmd to stop too; munged last, the daemons
      // talk through it until the end.
      const [, slurmctld, slurmd] = children;
      const slurm = children.slice(1);
      if (slurmctld !== undefined && isAlive(slurmctld)) {
        if (slurmd !== undefined && isAlive(slurmd)) {
          await runIn(env, 'scancel --user=root');
          const deadline = Date.now() + 10_000;
          while ((await runIn(env, 'squeue -h -o %i')).stdout.trim() !== '' && Date.now() < deadline) await sleep(100);
        }
        await runIn(env, 'scontrol shutdown');
      }
      await exited(slurm, 10_000);
      children[0]!.kill('SIGTERM');
      await exited(children, 2_000);
      killCarriers(`SLURM_CONF=${conf}`);
      process.removeListener('exit', killAll);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(() => existsSync(join(munge, 'munge.socket')), 'munged to create its socket', 5000);
    daemon('slurmctld', ['-D', '-i', '-f', conf]);
    daemon('slurmd', ['-D', '-f', conf]);
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      const dead = children.find((c) => !isAlive(c));
      if (dead !== undefined) throw new Error(`${dead.spawnfile} exited (${dead.exitCode ?? dead.signalCode})`);
      const r = spawnSync('sinfo', ['-h', '-o', '%T'], { env, encoding: 'utf8' });
      if (r.status === 0 && r.stdout.trim() === 'idle') break;
      if (Date.now() > deadline) throw new Error(`the node is not idle: sinfo says ${JSON.stringify(r.stdout.trim() || r.stderr.trim())}`);
      await sleep(100);
    }
  } catch (e) {
    const message = `the Slurm test cluster did not start: ${(e as Error).message}\n${cluster.logs()}`;
    await cluster.stop();
    throw new Error(message);
  }
  return cluster;
}

async function waitFor(ready: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
