/**
 * Progress on a terminal as a user sees it (src/node/progress.ts): the commands run with their
 * stderr taken for a terminal (a preload sets `isTTY`, as a pty would), and what they wrote is
 * played on a model of the screen (test/support/terminal.ts). Broken games listed while the
 * bar is drawn stand on lines of their own, whole; the terminal is left as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { screen } from './support/terminal.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-progress-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

// The sample's games with a broken one (an illegal king capture) after every 100th.
const BROKEN = '[Event "broken"]\n[Result "1-0"]\n\n1. e4 e5 2. Kxe8 1-0';
const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n\n(?=\[Event )/);
const parts: string[] = [];
games.forEach((g, i) => {
  parts.push(g.trim());
  if (i % 100 === 99) parts.push(BROKEN);
});
const PGN = join(tmp, 'broken.pgn');
writeFileSync(PGN, parts.join('\n\n') + '\n');
const BROKEN_GAMES = 20;
// stderr a terminal 100 columns wide, as under a pty.
const PRELOAD = join(tmp, 'tty.mjs');
writeFileSync(PRELOAD, 'process.stderr.isTTY = true;\nprocess.stderr.columns = 100;\n');

function onTerminal(args: string[]): { code: number | null; raw: string; lines: string[] } {
  const r = spawnSync(process.execPath, ['--import', PRELOAD, MAIN, ...args], { cwd: tmp, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TERM: 'xterm' } });
  return { code: r.status, raw: r.stderr, lines: screen(r.stderr) };
}

for (const [what, args, verb] of [
  ['pgn filter', ['pgn', 'filter', PGN, '-o', 'f.pgn', '--errors', '30'], 'skipped'],
  ['pgn clean', ['pgn', 'clean', PGN, '-o', 'c.pgn', '--errors', '30'], 'dropped'],
  ['book make -o .bin', ['book', 'make', PGN, '-o', 'm.bin', '--errors', '30'], 'skipped'],
  ['book make -o .bin --memory', ['book', 'make', PGN, '-o', 'b.bin', '--memory', '1M', '--errors', '30'], 'skipped'],
  ['book make -o .tbk', ['book', 'make', PGN, '-o', 'm.tbk', '--errors', '30'], 'skipped'],
] as const) {
  test(`${what}: each broken game listed under the bar is a whole line of its own, and the terminal's settings are untouched`, { timeout: 120_000 }, () => {
    const r = onTerminal([...args]);
    assert.equal(r.code, 0, r.raw);
    const listed = r.lines.filter((l) => l.includes(`${verb}: `) && l.includes('Kxe8'));
    assert.equal(listed.length, BROKEN_GAMES, r.lines.join('\n'));
    for (const l of listed) assert.match(l, new RegExp(`^${verb}: .*broken\\.pgn:\\d+:\\d+: game \\d+: illegal-move: illegal move 2\\. Kxe8 \\(position [^)]+\\)$`));
    // The bar was drawn (the test would prove nothing otherwise) and ended on its own line.
    assert.match(r.raw, /\r.*\d+% \|/);
    assert.ok(r.lines.some((l) => /\b100% \|/.test(l)), r.lines.join('\n'));
    // Hidden cursor, no line wrap, saved cursor: what a Ctrl-C left the user's shell with.
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(r.raw, /\x1b\[\?(25|7)l|\x1b7/);
  });
}

test('book make -o .bin counted in runs (--memory, large or piped inputs) says how many broken games it did not list', () => {
  for (const memory of [[], ['--memory', '1M']]) {
    const r = spawnSync(process.execPath, [MAIN, 'book', 'make', PGN, '-o', 'n.bin', '--force', '--errors', '3', ...memory], { cwd: tmp, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.match(/^skipped: /gm)?.length, 3, r.stderr);
    assert.match(r.stderr, /^skipped 17 more broken games \(--errors N lists more\)$/m, `${memory.join(' ')}: ${r.stderr}`);
  }
});
