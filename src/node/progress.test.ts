import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytes, formatRate, startProgress } from './progress.js';

test('rates keep their meaning from millions a second down to a game every few seconds; bytes read as kB, MB, GB', () => {
  assert.deepEqual([2.5e6, 12345, 123.4, 12.34, 2.5, 0.0791, 0].map(formatRate), ['2.50M', '12.3k', '123', '12.3', '2.50', '0.079', '0']);
  assert.deepEqual([825, 12345, 8.42e6, 1.07e9].map(bytes), ['825 B', '12.3 kB', '8.42 MB', '1.07 GB']);
});

test('a job counted in percent says the percent once; the extra text is set apart', () => {
  const lines: string[] = [];
  const write = process.stderr.write;
  const isTTY = process.stderr.isTTY;
  process.stderr.isTTY = false;
  process.stderr.write = ((s: string) => (lines.push(s), true)) as typeof process.stderr.write;
  try {
    const p = startProgress({ label: 'merging', total: 100, unit: '%', interval: 0 });
    p.update(26, '6488064 rows');
    p.stop();
    assert.match(lines[0]!, /^merging: 26\.0%, [\d.]+k? %\/s, ETA \d+ s, 6488064 rows\n$/);
  } finally {
    process.stderr.write = write;
    process.stderr.isTTY = isTTY;
  }
});

test('a log of progress ends with where the job ended (100% when it read everything); a short job stays silent', () => {
  const lines: string[] = [];
  const write = process.stderr.write;
  const isTTY = process.stderr.isTTY;
  process.stderr.isTTY = false;
  process.stderr.write = ((s: string) => (lines.push(s), true)) as typeof process.stderr.write;
  try {
    // interval 0: a line at every update; the last update (1000 of 1000) is not printed by update.
    const p = startProgress({ label: 'building', total: 1000, unit: 'B', interval: 0 });
    p.update(825, '66 games');
    const shown = lines.length;
    p.stop();
    assert.equal(shown, 1);
    assert.match(lines[0]!, /^building: 82\.5% 825 B/);
    const q = startProgress({ label: 'building', total: 1000, unit: 'B', interval: 0 });
    q.update(400);
    q.update(1000, '83 games');
    q.stop();
    assert.match(lines.at(-1)!, /^building: 100\.0% 1\.0 kB, [\d.]+ (k|M)?B\/s, in \d+\.\d s, 83 games\n$/);
    lines.length = 0;
    const quiet = startProgress({ label: 'short', total: 1000, unit: 'B', interval: 60 });
    quiet.update(1000);
    quiet.stop();
    assert.deepEqual(lines, []);
  } finally {
    process.stderr.write = write;
    process.stderr.isTTY = isTTY;
  }
});

test('a resumed job (start) counts only what this run did in its rate and ETA', async () => {
  const lines: string[] = [];
  const write = process.stderr.write;
  const isTTY = process.stderr.isTTY;
  process.stderr.isTTY = false;
  process.stderr.write = ((s: string) => (lines.push(s), true)) as typeof process.stderr.write;
  try {
    // 900 of 1000 games came from the journal; this run played one in at least 20 ms, so the
    // 99 left take at least 99 × 20 ms (counting the 900 would say "ETA 0 s").
    const p = startProgress({ label: 'match', total: 1000, unit: 'games', interval: 0, start: 900 });
    await new Promise((r) => setTimeout(r, 25));
    p.update(901);
    p.stop();
    const m = /^match: 90\.1% 901 games, ([\d.]+) games\/s, ETA (\d+) s/.exec(lines[0]!);
    assert.ok(m, lines[0]);
    assert.ok(Number(m[1]) <= 50, `rate ${m[1]}`);
    assert.ok(Number(m[2]) >= 2, `ETA ${m[2]}`);
  } finally {
    process.stderr.write = write;
    process.stderr.isTTY = isTTY;
  }
});
