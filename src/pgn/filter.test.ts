import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PgnFilter, dateBoundError, filterVisitor, parseDateBound, parseTagCondition } from './filter.js';
import { parsePgn } from './parser.js';
import type { PgnVisitor } from './visitor.js';

const tags = (o: Record<string, string>): Map<string, string> => new Map(Object.entries(o));

test('date bounds and tag conditions parse', () => {
  assert.equal(parseDateBound('1990', '00'), 19900000);
  assert.equal(parseDateBound('1990.6', '99'), 19900699);
  assert.equal(parseDateBound('2001-02-03', '00'), 20010203);
  assert.equal(parseDateBound('90', '00'), undefined);
  assert.deepEqual(parseTagCondition('ECO=B90'), { name: 'ECO', value: 'B90' });
  assert.deepEqual(parseTagCondition('Event=a=b'), { name: 'Event', value: 'a=b' });
  assert.equal(parseTagCondition('=x'), undefined);
});

test('date bounds must be days of the calendar', () => {
  for (const good of ['2020', '2020.02', '2020.02.29', '2000.02.29', '1999.12.31', '2021-1-5']) assert.equal(dateBoundError(good), undefined, good);
  const bad: [string, RegExp][] = [
    ['2020.13.45', /month 13 is not 1\.\.12/],
    ['2020.00', /month 0/],
    ['2020.02.30', /day 30 is not 1\.\.29/],
    ['2021.02.29', /day 29 is not 1\.\.28/],
    ['1900.02.29', /day 29 is not 1\.\.28/],
    ['2020.04.31', /day 31 is not 1\.\.30/],
    ['2020.01.00', /day 0/],
    ['20x0', /is not a date YYYY/],
  ];
  for (const [text, why] of bad) {
    assert.match(dateBoundError(text) ?? '', why, text);
    assert.equal(parseDateBound(text, '00'), undefined, text);
    assert.throws(() => new PgnFilter({ dateTo: text }), RangeError, text);
  }
});

test('tag conditions: each reason, partial dates counted when they may fall in the range', () => {
  const game = { White: 'Carlsen, Magnus', Black: 'Caruana, F', WhiteElo: '2850', BlackElo: '2790', Result: '1-0', Date: '2019.??.??', ECO: 'B33' };
  const cases: [ConstructorParameters<typeof PgnFilter>[0], Record<string, string>, string | undefined][] = [
    [{ minElo: 2790 }, game, undefined],
    [{ minElo: 2800 }, game, 'elo'],
    [{ minElo: 2000 }, { ...game, BlackElo: '' }, 'elo'],
    [{ players: ['MAGNUS'] }, game, undefined],
    [{ players: ['kasparov', 'caruana'] }, game, undefined],
    [{ players: ['kasparov'] }, game, 'player'],
    [{ whites: ['carlsen'] }, game, undefined],
    [{ whites: ['caruana'] }, game, 'player'],
    [{ blacks: ['CARUANA'] }, game, undefined],
    [{ blacks: ['carlsen', 'kasparov'] }, game, 'player'],
    [{ blacks: ['carlsen', 'caruana'] }, game, undefined],
    [{ players: ['carlsen'], blacks: ['carlsen'] }, game, 'player'],
    [{ results: ['0-1', '1/2-1/2'] }, game, 'result'],
    [{ fromStart: true }, { ...game, FEN: 'x' }, 'setup'],
    [{ dateFrom: '2019.06.01' }, game, undefined],
    [{ dateTo: '2019.01.01' }, game, undefined],
    [{ dateFrom: '2020' }, game, 'date'],
    [{ dateTo: '2018.12.31' }, game, 'date'],
    [{ dateFrom: '1900' }, { ...game, Date: '????.??.??' }, 'date'],
    [{ tags: [{ name: 'ECO', value: 'B33' }] }, game, undefined],
    [{ tags: [{ name: 'ECO', value: 'B33' }, { name: 'Round', value: '1' }] }, game, 'tag'],
  ];
  for (const [options, t, want] of cases) assert.equal(new PgnFilter(options).checkTags(tags(t)), want, JSON.stringify(options));
  assert.throws(() => new PgnFilter({ dateFrom: 'yesterday' }), RangeError);
});

const PGN = `[Event "a"]\n[WhiteElo "2500"]\n[BlackElo "2500"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Event "b"]\n[WhiteElo "2100"]\n[BlackElo "2500"]\n\n1. d4 d5 0-1\n\n[Event "c"]\n[WhiteElo "2500"]\n[BlackElo "2600"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Event "d"]\n[WhiteElo "2700"]\n[BlackElo "2600"]\n\n1. c4 *\n`;

function collect(): { visitor: PgnVisitor; seen: string[] } {
  const seen: string[] = [];
  let cur = '';
  return {
    seen,
    visitor: {
      tag: (n, v) => void (n === 'Event' && (cur = v)),
      move: (_p, _m, ply) => void (cur += ply),
      endGame: (r) => void seen.push(`${cur} ${r}`),
    },
  };
}

test('filterVisitor streams games passing tag conditions and replays buffered ones after main-line conditions', () => {
  const a = collect();
  const f1 = new PgnFilter({ minElo: 2400 });
  parsePgn(PGN, filterVisitor(f1, a.visitor));
  assert.deepEqual(a.seen, ['a0123 1-0', 'c0123 1-0', 'd0 *']);
  assert.equal(f1.rejected.elo, 1);

  const b = collect();
  const f2 = new PgnFilter({ minElo: 2400, minPlies: 2, dedupe: true });
  parsePgn(PGN, filterVisitor(f2, b.visitor));
  assert.deepEqual(b.seen, ['a0123 1-0']);
  assert.deepEqual([f2.accepted, f2.rejected.elo, f2.rejected.duplicate, f2.rejected.plies], [1, 1, 1, 1]);
});

test('a game rejected by its tags that turns out broken counts as broken, not also as filtered', () => {
  const pgn = '[WhiteElo "1000"] [BlackElo "1000"]\n\n1. e4 @ e5 1-0\n\n[WhiteElo "2500"] [BlackElo "2500"]\n\n1. d4 1-0\n';
  const f = new PgnFilter({ minElo: 2400 });
  const errors: string[] = [];
  const a = collect();
  parsePgn(pgn, filterVisitor(f, { ...a.visitor, error: (e) => errors.push(e.kind) }));
  assert.deepEqual(errors, ['bad-token']);
  assert.deepEqual([f.accepted, f.rejected.elo], [1, 0]);
});

test('null moves belong to the main line: counted as plies, told apart by --dedupe, replayed to a visitor that takes them', () => {
  const pgn = '[Event "a"]\n\n1. e4 -- 2. d4 -- 3. c4 *\n\n[Event "b"]\n\n1. e4 -- 2. Nf3 -- 3. Bc4 *\n\n[Event "c"]\n\n1. e4 -- 2. d4 -- 3. c4 *\n';
  const f = new PgnFilter({ dedupe: true, minPlies: 5, maxPlies: 5 });
  const seen: string[] = [];
  let cur = '';
  parsePgn(
    pgn,
    filterVisitor(f, {
      tag: (n, v) => void (n === 'Event' && (cur = v)),
      move: (_p, _m, ply) => void (cur += ply),
      nullMove: (_p, ply) => void (cur += `-${ply}`),
      endGame: (r) => void seen.push(`${cur} ${r}`),
    }),
  );
  assert.deepEqual(seen, ['a0-12-34 *', 'b0-12-34 *']);
  assert.deepEqual([f.accepted, f.rejected.plies, f.rejected.duplicate], [2, 0, 1]);
  // A visitor without the hook sees its main line end at the null move, as the reader ends it.
  const b = collect();
  parsePgn(pgn, filterVisitor(new PgnFilter({ minPlies: 5 }), b.visitor));
  assert.deepEqual(b.seen, ['a0 *', 'b0 *', 'c0 *']);
});

test('positions: a game passes when its main line reaches one, at its start, its end or by transposition', () => {
  const afterE4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1';
  const openSicilian = 'rnbqkbnr/pp2pppp/3p4/8/3NP3/8/PPP2PPP/RNBQKB1R b KQkq - 0 4';
  const pgn = [
    '[Event "open"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 1-0',
    // The same position by another order, reached with the last move.
    '[Event "transposed"]\n\n1. Nf3 d6 2. e4 c5 3. d4 cxd4 4. Nxd4 0-1',
    '[Event "other"]\n\n1. d4 d5 1/2-1/2',
    `[Event "set up"]\n[FEN "${openSicilian}"]\n\n4... Nf6 *`,
  ].join('\n\n');
  const events = (positions: string[]): string[] => {
    const seen: string[] = [];
    let cur = '';
    const f = new PgnFilter({ positions });
    parsePgn(pgn, filterVisitor(f, { tag: (n, v) => void (n === 'Event' && (cur = v)), endGame: () => void seen.push(cur) }));
    assert.equal(f.rejected.position, 4 - seen.length);
    return seen;
  };
  assert.deepEqual(events([openSicilian]), ['open', 'transposed', 'set up']);
  // Move counters and an en-passant square no pawn can use do not matter.
  assert.deepEqual(events([afterE4.replace(' e3 0 1', ' - 7 30')]), ['open']);
  assert.deepEqual(events([afterE4, 'rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2']), ['open', 'other']);
  assert.throws(() => new PgnFilter({ positions: ['8/8/8 w'] }), RangeError);
});
