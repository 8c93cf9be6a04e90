import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barLine, bytes, duration, formatRate, progressNote, singular, startProgress } from './progress.js';
import { screen } from '../../test/support/terminal.js';

/** Runs `fn` with stderr a log (not a terminal), giving it the lines written there. */
async function onLog(fn: (lines: string[]) => void | Promise<void>): Promise<void> {
  const lines: string[] = [];
  const write = process.stderr.write;
  const isTTY = process.stderr.isTTY;
  process.stderr.isTTY = false;
  process.stderr.write = ((s: string) => (lines.push(s), true)) as typeof process.stderr.write;
  try {
    await fn(lines);
  } finally {
    process.stderr.write = write;
    process.stderr.isTTY = isTTY;
  }
}

test('rates keep their meaning from millions a second down to a game every few seconds; bytes read as kB, MB, GB', () => {
  assert.deepEqual([2.5e6, 12345, 123.4, 12.34, 2.5, 0.0791, 0].map(formatRate), ['2.50M', '12.3k', '123', '12.3', '2.50', '0.079', '0']);
  assert.deepEqual([825, 12345, 8.42e6, 1.07e9].map(bytes), ['825 B', '12.3 kB', '8.42 MB', '1.07 GB']);
});

test('a job counted in percent says the percent once; the extra text is set apart', async () => {
  await onLog(async (lines) => {
    const p = startProgress({ label: 'merging', total: 100, unit: '%', interval: 0 });
    p.update(26, '6488064 rows');
    p.stop();
    assert.match(lines[0]!, /^merging: 26\.0%, [\d.]+k? %\/s, ETA \d+ s, 6488064 rows\n$/);
  });
});

test('a log of progress ends with where the job ended (100% when it read everything); a short job stays silent', async () => {
  await onLog(async (lines) => {
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
  });
});

test('a resumed job (start) counts only what this run did in its rate and ETA', async () => {
  await onLog(async (lines) => {
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
  });
});

test('a count of one is written in the singular: 1 game, 1 pair, 1 entry', async () => {
  assert.deepEqual(['games', 'pairs', 'entries', 'positions', 'epochs', 'B'].map(singular), ['game', 'pair', 'entry', 'position', 'epoch', 'B']);
  await onLog(async (lines) => {
    for (const done of [1, 2]) {
      const p = startProgress({ label: 'match', total: 10, unit: 'games', interval: 0 });
      p.update(done);
      p.stop();
    }
    assert.match(lines[0]!, /^match: 10\.0% 1 game, /);
    assert.match(lines.find((l) => l.startsWith('match: 20.0%'))!, /^match: 20\.0% 2 games, /);
  });
});

let written: string[] = [];
/** What onTerminal's function has written so far. */
const all0 = (): string => written.join('');
/** Runs `fn` with stderr a terminal of `columns` columns, returning everything written to it. */
function onTerminal(columns: number, fn: () => void): string {
  const out: string[] = [];
  written = out;
  const saved = { write: process.stderr.write, isTTY: process.stderr.isTTY, columns: process.stderr.columns, term: process.env.TERM };
  process.stderr.isTTY = true;
  process.stderr.columns = columns;
  process.env.TERM = 'xterm';
  process.stderr.write = ((s: string) => (out.push(s), true)) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.stderr.write = saved.write;
    process.stderr.isTTY = saved.isTTY;
    process.stderr.columns = saved.columns;
    if (saved.term === undefined) delete process.env.TERM;
    else process.env.TERM = saved.term;
  }
  return out.join('');
}

test('the bar on a terminal changes no terminal setting, so a Ctrl-C at any moment leaves the cursor shown and long lines wrapping', () => {
  let out = '';
  const all = onTerminal(100, () => {
    const p = startProgress({ label: 'book make', total: 1000, unit: 'B' });
    p.update(400, '33 games');
    // What the terminal had when the process ended by a signal here, before stop().
    out = all0();
    p.stop();
  });
  assert.ok(all.startsWith(out));
  assert.ok(out.includes('book make ['), JSON.stringify(out));
  // cli-progress sent ESC[?25l (cursor hidden) and ESC[?7l (no line wrap) and undid them only in stop().
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(out, /\x1b\[\?(25|7)[lh]/);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(out, /\x1b[78]/, 'no saved cursor position to restore either');
});

test('a line written while the bar is shown (a skipped game) stands on its own line, whole, with the bar below it', () => {
  const note = 'skipped: games.pgn:25:13: game 2: illegal-move: illegal move 2. Kxe8 (position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2)';
  const out = onTerminal(80, () => {
    const p = startProgress({ label: 'pgn filter', total: 1000, unit: 'B' });
    p.update(300, '1136 games, 2 broken');
    progressNote(note);
    p.update(600, '1894 games, 3 broken');
    p.stop();
  });
  const lines = screen(out);
  assert.equal(lines.length, 2, JSON.stringify(lines));
  assert.equal(lines[0], note);
  assert.match(lines[1]!, /^pgn filter \[█+░*\] 60% \| .*B\/s \| ETA \S+ 1894 games, 3 broken$/);
  // Without a bar, the note is a plain line.
  assert.equal(onTerminal(80, () => progressNote('warning: x')), 'warning: x\n');
});

test("the bar's line fits the terminal: narrow, it drops the bar and the extra text before the percentage, rate and ETA", () => {
  for (const width of [39, 59, 79, 199]) {
    const line = barLine('book make', 0.46, '5.92 MB/s', '4s', '39965 games', width);
    assert.ok(line.length <= width, `${width}: ${line}`);
    assert.match(line, /^book make .*46% \| 5\.92 MB\/s \| ETA 4s/, `${width}: ${line}`);
    // The count is shown whole or not at all ("25862 games" cut to "258" misleads).
    assert.ok(line.endsWith(' 39965 games') || !line.includes('3996'), line);
  }
  assert.match(barLine('book make', 0.46, '5.92 MB/s', '4s', '39965 games', 79), /^book make \[█+░+\] 46%/);
  assert.doesNotMatch(barLine('book make', 0.46, '5.92 MB/s', '4s', '39965 games', 39), /\[/);
  const out = onTerminal(40, () => {
    const p = startProgress({ label: 'tune label', total: 400, unit: 'positions' });
    p.update(10, '10 labelled');
    p.stop();
  });
  for (const l of screen(out)) assert.ok(l.length < 40, l);
  assert.deepEqual([5, 187, 7500].map(duration), ['5s', '3m07s', '2h05m']);
});

test('a dumb terminal (TERM=dumb, Emacs shell) gets lines, not cursor movements', () => {
  const out = onTerminal(80, () => {
    process.env.TERM = 'dumb';
    const p = startProgress({ label: 'epd', total: 300, unit: 'positions', interval: 0 });
    p.update(30, '12 solved');
    p.stop();
  });
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(out, /[\r\x1b]/);
  assert.match(out, /^epd: 10\.0% 30 positions/);
});
