/**
 * Query-time filters (`book make --split rating,speed,month`, then `book probe` and
 * `book export` with --ratings/--speeds/--since/--until) against the oracle they stand for:
 * select the games first, by an independent reading of the Lichess explorer's rules written
 * here, and build a book of those games alone. Every probe of the split book under a filter
 * must equal the probe of the filtered book, and the filtered export must be byte for byte
 * make-book on the filtered games.
 *
 * Games: Lichess-like generated games (rated, with TimeControl), their months spread over four
 * months, plus master games (no TimeControl: unknown speed; some unrated players).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Chess } from 'chess.js';
import { openAnyRichBook } from '../src/book/node/openTbk.js';
import { parseBands, parseMonth, parseSpeeds, type SplitFilter } from '../src/book/rich/splits.js';
import { positionFromFen } from '../src/notation/fen.js';
import { unwrap } from '../src/core/result.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const GEN = fileURLToPath(new URL('../scripts/gen-games.js', import.meta.url));
const SHARED = fileURLToPath(new URL('../../../shared/data/games/', import.meta.url));
const SAMPLE_GZ = join(SHARED, 'pgnmentor_players_sample2000.pgn.gz');
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-splits-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

function run(...args: string[]): string {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

// The games: 1500 generated ones over four months (UTCDate, and Date differing from it so that
// a reader of the wrong tag is caught), then 300 master games with only a Date.
const gen = join(tmp, 'gen.pgn');
{
  const r = spawnSync(process.execPath, [GEN, '--games', '1500', '--source', SAMPLE_GZ, '--out', gen, '--seed', '11'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}
const MONTHS = ['2023.11', '2023.12', '2024.01', '2024.02'];
const games = readFileSync(gen, 'utf8')
  .split(/\n(?=\[Event )/)
  .filter((g) => g.trim() !== '')
  .map((g, i) => g.replace(/\[UTCDate "\d{4}\.\d\d/, `[UTCDate "${MONTHS[i % 4]}`).replace(/\[Date "[^"]*"\]/, '[Date "2019.06.01"]'));
const masters = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n(?=\[Event )/).filter((g) => g.trim() !== '').slice(0, 300);
const all = [...games, ...masters];
const pgn = join(tmp, 'all.pgn');
writeFileSync(pgn, all.join('\n'));
const split = join(tmp, 'split.tbk');
run('book', 'make', pgn, '-o', split, '--split', 'rating,speed,month');

// The oracle's reading of a game, from the Lichess explorer's definitions.
const LOWER = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];
function tag(g: string, name: string): string | undefined {
  return new RegExp(`\\[${name} "([^"]*)"\\]`).exec(g)?.[1];
}
function elo(g: string, name: string): number {
  const v = tag(g, name) ?? '';
  return /^\d{3,4}$/.test(v) && Number(v) >= 100 && Number(v) <= 4000 ? Number(v) : 0;
}
function band(g: string): number | undefined {
  const w = elo(g, 'WhiteElo');
  const b = elo(g, 'BlackElo');
  if (w === 0 || b === 0) return undefined;
  const avg = Math.floor(w / 2) + Math.floor(b / 2);
  return LOWER.filter((l) => avg >= l).at(-1);
}
function speed(g: string): string | undefined {
  const tc = tag(g, 'TimeControl');
  if (tc === '-') return 'correspondence';
  const m = /^(\d+)\+(\d+)$|^(\d+)$/.exec(tc ?? '');
  if (m === null) return undefined;
  const seconds = m[3] !== undefined ? Number(m[3]) : Number(m[1]) + 40 * Number(m[2]);
  return seconds < 30 ? 'ultraBullet' : seconds < 180 ? 'bullet' : seconds < 480 ? 'blitz' : seconds < 1500 ? 'rapid' : seconds < 21600 ? 'classical' : 'correspondence';
}
function month(g: string): string | undefined {
  const d = tag(g, 'UTCDate') ?? tag(g, 'Date') ?? '';
  const m = /^(\d{4})\.(\d\d)/.exec(d);
  return m === null ? undefined : `${m[1]}-${m[2]}`;
}

interface Query {
  ratings?: string;
  speeds?: string;
  since?: string;
  until?: string;
}
function keeps(g: string, q: Query): boolean {
  if (q.ratings !== undefined && !q.ratings.split(',').map(Number).includes(band(g) ?? -1)) return false;
  if (q.speeds !== undefined && !q.speeds.split(',').includes(speed(g) ?? '')) return false;
  const m = month(g);
  if (q.since !== undefined && (m === undefined || m < q.since)) return false;
  if (q.until !== undefined && (m === undefined || m > q.until)) return false;
  return true;
}
function filterOf(q: Query): SplitFilter {
  return {
    bands: q.ratings === undefined ? undefined : parseBands(q.ratings),
    speeds: q.speeds === undefined ? undefined : parseSpeeds(q.speeds),
    since: q.since === undefined ? undefined : parseMonth(q.since, 'since'),
    until: q.until === undefined ? undefined : parseMonth(q.until, 'until'),
  };
}
function flags(q: Query): string[] {
  return Object.entries(q).flatMap(([k, v]) => [`--${k}`, v as string]);
}

// The positions probed: the first 8 plies of every 25th game, and the start position.
const fens = new Set<string>([new Chess().fen()]);
for (let i = 0; i < all.length; i += 25) {
  const c = new Chess();
  const movetext = all[i]!.replace(/^\[.*\]\s*$/gm, '').replace(/\{[^}]*\}/g, ' ');
  for (const tok of movetext.split(/\s+/)) {
    if (tok === '' || /^\d+\.+$/.test(tok) || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(tok) || c.history().length >= 8) continue;
    c.move(tok.replace(/^\d+\.+/, ''));
    fens.add(c.fen());
  }
}

const QUERIES: Query[] = [
  { ratings: '1600,1800' },
  { speeds: 'blitz,rapid' },
  { since: '2023-12', until: '2024-01' },
  { ratings: '1400,1600,2000', speeds: 'bullet', since: '2024-01' },
  { speeds: 'rapid,classical,correspondence', until: '2023-12' },
];

for (const q of QUERIES) {
  test(`split filter ${flags(q).join(' ')}: probes and export equal a book built from the filtered games`, () => {
    const kept = all.filter((g) => keeps(g, q));
    assert.ok(kept.length > 20 && kept.length < all.length, `the query keeps some games and not all (${kept.length})`);
    const name = flags(q).join('').replace(/[^a-z0-9]/gi, '');
    const only = join(tmp, `${name}.pgn`);
    writeFileSync(only, kept.join('\n'));
    const plain = join(tmp, `${name}.tbk`);
    run('book', 'make', only, '-o', plain);

    const a = openAnyRichBook(split);
    const b = openAnyRichBook(plain);
    const filter = filterOf(q);
    let moves = 0;
    try {
      for (const fen of fens) {
        const pos = unwrap(positionFromFen(fen));
        const counts = (list: ReturnType<typeof a.probe>): string[] =>
          list.map((e) => `${e.move} ${e.wins}/${e.draws}/${e.losses} rated ${e.ratedGames} elo ${e.avgElo}`).sort();
        const want = counts(b.probe(pos));
        assert.deepEqual(counts(a.probe(pos, filter)), want, fen);
        moves += want.length;
      }
    } finally {
      a.close();
      b.close();
    }
    assert.ok(moves > 20, `the probes found book moves (${moves})`);

    // The CLI's probe answers from the same cells.
    const probe = JSON.parse(run('book', 'probe', split, '--json', ...flags(q))) as { moves: { uci: string; games: number }[] };
    const direct = JSON.parse(run('book', 'probe', plain, '--json')) as { moves: { uci: string; games: number }[] };
    assert.deepEqual(
      probe.moves.map((m) => [m.uci, m.games]).sort(),
      direct.moves.map((m) => [m.uci, m.games]).sort(),
    );

    // Export under the filter: make-book's book of the filtered games, byte for byte.
    const exported = join(tmp, `${name}-export.bin`);
    const made = join(tmp, `${name}-made.bin`);
    run('book', 'export', split, '-o', exported, ...flags(q));
    run('book', 'make', only, '-o', made);
    assert.ok(readFileSync(made).length > 0);
    assert.ok(readFileSync(exported).equals(readFileSync(made)), 'export --split filter = make-book of the filtered games');
  });
}
