/**
 * A search thread of `tabiya book audit` (auditPool.ts): owns an engine on the WebAssembly
 * core and audits the positions posted to it, one at a time, answering each with its verdict.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../../engine/engine.js';
import { auditPosition, type AuditLimits, type AuditTask } from '../audit/verdict.js';
import { configureV8ForSearch } from '../../node/v8flags.js';
import { wasmCoreModule } from '../../node/wasmCore.js';
import type { AuditReply } from './auditPool.js';

const port = parentPort;
if (port) {
  configureV8ForSearch();
  const { limits, hashMB } = workerData as { limits: AuditLimits; hashMB: number };
  const engine = new Engine({ hashMB, wasm: wasmCoreModule() });
  // Searches run in this thread: no GUI or pipe to keep time back for.
  engine.settings.moveOverhead = 0;
  port.on('message', (task: AuditTask) => {
    let reply: AuditReply;
    try {
      reply = { ok: true, verdict: auditPosition(engine, task, limits) };
    } catch (e) {
      reply = { ok: false, index: task.index, message: (e as Error).message };
    }
    port.postMessage(reply);
  });
}
