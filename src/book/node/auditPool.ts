/**
 * The search threads of a book audit: `threads` workers (auditWorker.ts), each with its own
 * engine and hash table, take positions in walk order as they come free. Results arrive in the
 * order they finish; each carries its position's index.
 */
import { Worker } from 'node:worker_threads';
import type { AuditLimits, AuditTask, PositionVerdict } from '../audit/verdict.js';

export type AuditReply = { ok: true; verdict: PositionVerdict } | { ok: false; index: number; message: string };

/**
 * Audits `tasks` on `threads` workers, calling `onVerdict` as each position finishes (in the
 * order they finish). Resolves when all are done; rejects on the first failure, after stopping
 * the workers.
 */
export async function auditInParallel(tasks: readonly AuditTask[], opts: { threads: number; limits: AuditLimits; hashMB: number; onVerdict: (v: PositionVerdict) => void }): Promise<void> {
  if (tasks.length === 0) return;
  const threads = Math.max(1, Math.min(opts.threads, tasks.length));
  const url = new URL('./auditWorker.js', import.meta.url);
  const workers: Worker[] = [];
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const feed = (w: Worker): void => {
        if (next < tasks.length) w.postMessage(tasks[next++]);
      };
      for (let i = 0; i < threads; i++) {
        const w = new Worker(url, { workerData: { limits: opts.limits, hashMB: opts.hashMB } });
        workers.push(w);
        w.on('message', (r: AuditReply) => {
          if (!r.ok) return reject(new Error(`position ${r.index + 1}: ${r.message}`));
          try {
            opts.onVerdict(r.verdict);
          } catch (e) {
            return reject(e as Error);
          }
          if (++done === tasks.length) resolve();
          else feed(w);
        });
        w.on('error', (e) => reject(new Error(`audit thread failed: ${e.message}`)));
        w.on('exit', (code) => {
          if (done < tasks.length) reject(new Error(`audit thread ended unexpectedly (exit code ${code})`));
        });
        feed(w);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
