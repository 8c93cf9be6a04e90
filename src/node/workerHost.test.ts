import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STARTING_FEN } from '../notation/fen.js';
import type { WireBest, WireLimits } from '../engine/host.js';
import { WorkerHost } from './workerHost.js';

/** Starts a search on `host`; resolves with its bestmove, and once with its first info line. */
function search(host: WorkerHost, limits: WireLimits): { best: Promise<WireBest>; thinking: Promise<void> } {
  let thinking!: () => void;
  const first = new Promise<void>((r) => (thinking = r));
  const best = new Promise<WireBest>((resolve) => host.go({ fen: STARTING_FEN, moves: [], limits: { ...limits, startTime: Date.now() } }, () => thinking(), resolve));
  return { best, thinking: first };
}

/**
 * Runs `go infinite`, stops it, and at once (while it winds down) starts a search with
 * `limits` and sends `signal`; resolves with that second search's bestmove.
 */
async function afterWindDown(limits: WireLimits, signal: (host: WorkerHost) => void): Promise<WireBest> {
  const host = new WorkerHost();
  try {
    const first = search(host, { infinite: true });
    await first.thinking;
    host.stop();
    const second = search(host, limits);
    signal(host);
    return await second.best;
  } finally {
    host.close();
  }
}

test('a stop that comes while a go waits for the previous search to wind down stops that go too', { timeout: 30000 }, async () => {
  const best = await afterWindDown({ infinite: true }, (host) => host.stop());
  assert.match(best.best ?? '', /^[a-h][1-8][a-h][1-8]$/);
});

test('a ponderhit that comes while a go ponder waits for the previous search turns it into the timed search', { timeout: 30000 }, async () => {
  const best = await afterWindDown({ ponder: true, wtime: 400, btime: 400 }, (host) => host.ponderhit());
  assert.match(best.best ?? '', /^[a-h][1-8][a-h][1-8]$/);
});
