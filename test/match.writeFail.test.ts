/**
 * A match whose journal cannot be written when it starts (a full disk; here a file size limit,
 * which fails the same write with EFBIG) stops at once with exit 1, its engines with it, and
 * leaves no journal cut short that would block the next run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, FIXTURES } from './matchHelpers/cli.js';

test('a journal that cannot be written stops the match with exit 1 instead of hanging', { skip: process.platform === 'win32', timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-matchfail-'));
  try {
    const pgn = join(dir, 'x.pgn');
    // The journal's first line holds the Event tag: 1,500 characters do not fit under 1 KiB.
    const args = [
      CLI, 'match',
      '--engine', 'name=A', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
      '--engine', 'name=B', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
      '--each', 'tc=5+0.1', '--games', '2', '--maxmoves', '10', '--quiet',
      '--event', 'E'.repeat(1500), '--pgnout', pgn,
    ];
    // SIGXFSZ ignored: a write past `ulimit -f` fails with EFBIG instead of killing the process.
    const quoted = args.map((a) => `'${a}'`).join(' ');
    const r = spawnSync('sh', ['-c', `trap '' XFSZ; ulimit -f 1; exec '${process.execPath}' ${quoted}`], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.error, undefined, 'the match ended by itself');
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /x\.pgn\.journal: cannot write: file too large/);
    assert.equal(existsSync(`${pgn}.journal`), false, 'no torn journal is left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
