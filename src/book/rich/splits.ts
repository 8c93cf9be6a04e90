/**
 * The explorer's query-time filters, as the Lichess opening explorer defines them: a game's
 * rating band (of its two players' average rating), its speed (from the TimeControl tag) and
 * its month (UTCDate, else Date). A book built with `--split` keeps its counts per
 * (band, speed, month) cell, so `book probe --ratings 2000,2200 --speeds blitz --since 2024-01`
 * answers from the stored cells without rebuilding. Browser-safe.
 *
 * Bands and speeds follow lichess-org/lila-openingexplorer and scalachess: a game's band is
 * that of mover/2 + opponent/2 (integer halves), and a clock's speed is decided by its
 * estimated duration, initial + 40 × increment seconds.
 */

/** Lower bounds of the rating bands (the Lichess explorer's list). */
export const RATING_BANDS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500] as const;
/** Band index of a game whose players are not both rated. */
export const BAND_UNRATED = RATING_BANDS.length;

export const SPEEDS = ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'] as const;
export type Speed = (typeof SPEEDS)[number];
/** Speed index of a game without a usable TimeControl tag. */
export const SPEED_UNKNOWN = SPEEDS.length;

/** Upper ends (exclusive) of the estimated duration of each clock speed, in seconds (scalachess). */
const SPEED_LIMITS = [30, 180, 480, 1500, 21600];

/** The band index of two ratings (0 = not rated), BAND_UNRATED unless both are rated. */
export function ratingBand(whiteElo: number, blackElo: number): number {
  if (whiteElo <= 0 || blackElo <= 0) return BAND_UNRATED;
  const avg = (whiteElo >>> 1) + (blackElo >>> 1);
  let b = 0;
  while (b + 1 < RATING_BANDS.length && avg >= RATING_BANDS[b + 1]!) b++;
  return b;
}

/**
 * The speed index of a PGN TimeControl value: "180+2" (seconds + increment), "600" (no
 * increment), "-" (no clock: correspondence), "1/259200" (a day a move: correspondence);
 * SPEED_UNKNOWN for "?", empty or anything else.
 */
export function speedOf(timeControl: string | undefined): number {
  const tc = (timeControl ?? '').trim();
  if (tc === '-') return SPEEDS.indexOf('correspondence');
  if (/^\d+\/\d+$/.test(tc)) return SPEEDS.indexOf('correspondence');
  const m = /^(\d+)(?:\+(\d+))?$/.exec(tc);
  if (m === null) return SPEED_UNKNOWN;
  const estimate = Number(m[1]) + 40 * Number(m[2] ?? 0);
  let s = 0;
  while (s < SPEED_LIMITS.length && estimate >= SPEED_LIMITS[s]!) s++;
  return s;
}

/**
 * A month as a number, year·12 + (month − 1), from a PGN date "2024.03.15" (also "-", "/"
 * separators and "2024.03.??"); 0 when the year or month is unknown. Months run from year 1.
 */
export function monthOf(date: string | undefined): number {
  const m = /^(\d{4})[.\-/](\d{2})/.exec((date ?? '').trim());
  if (m === null) return 0;
  const year = Number(m[1]);
  const month = Number(m[2]);
  if (year < 1 || month < 1 || month > 12) return 0;
  return year * 12 + month - 1;
}

/** "2024-03" for a month number (the Lichess explorer's since/until format). */
export function formatMonth(month: number): string {
  if (month <= 0) return 'unknown';
  return `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
}

/** A --since/--until value, "YYYY-MM" or "YYYY" (January for since, December for until), or undefined. */
export function parseMonth(s: string, end: 'since' | 'until'): number | undefined {
  const m = /^(\d{4})(?:[-./](\d{1,2}))?$/.exec(s.trim());
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = m[2] === undefined ? (end === 'since' ? 1 : 12) : Number(m[2]);
  if (year < 1 || month < 1 || month > 12) return undefined;
  return year * 12 + month - 1;
}

/** Which dimensions a book splits its counts by. */
export interface SplitKinds {
  rating: boolean;
  speed: boolean;
  month: boolean;
}

export const NO_SPLITS: SplitKinds = { rating: false, speed: false, month: false };

/** Parses `--split rating,speed,month` (any subset, any order). */
export function parseSplits(s: string): SplitKinds {
  const out = { rating: false, speed: false, month: false };
  for (const part of s.split(',').map((x) => x.trim()).filter((x) => x !== '')) {
    if (part !== 'rating' && part !== 'speed' && part !== 'month') throw new RangeError(`--split: "${part}" is not rating, speed or month`);
    // Named twice is a slip for another kind (rating,rating for rating,speed): say so rather than build a book without it.
    if (out[part]) throw new RangeError(`--split: "${part}" is named twice in "${s}"`);
    out[part] = true;
  }
  // An empty list is a slip (a variable that expanded to nothing), not a request for no split.
  if (!out.rating && !out.speed && !out.month) throw new RangeError(`--split: "${s}" names no split (give rating, speed or month, separated by commas)`);
  return out;
}

/**
 * A cell packs band (4 bits), speed (3 bits) and month (the rest) into one number; dimensions
 * a book does not split by are stored as 0, so a book without splits has the single cell 0.
 */
export function cellOf(kinds: SplitKinds, band: number, speed: number, month: number): number {
  return (kinds.month ? month * 128 : 0) + (kinds.speed ? speed * 16 : 0) + (kinds.rating ? band : 0);
}

export const cellBand = (cell: number): number => cell % 16;
export const cellSpeed = (cell: number): number => Math.floor(cell / 16) % 8;
export const cellMonth = (cell: number): number => Math.floor(cell / 128);

/** A query-time filter over cells; undefined fields accept everything. */
export interface SplitFilter {
  /** Band indices to keep. */
  bands?: ReadonlySet<number>;
  /** Speed indices to keep. */
  speeds?: ReadonlySet<number>;
  since?: number;
  until?: number;
}

/** Parses `--ratings 1600,1800` (band lower bounds) into band indices. */
export function parseBands(s: string): Set<number> {
  const out = new Set<number>();
  for (const part of s.split(',').map((x) => x.trim()).filter((x) => x !== '')) {
    const i = RATING_BANDS.indexOf(Number(part) as (typeof RATING_BANDS)[number]);
    if (!/^\d+$/.test(part) || i < 0) throw new RangeError(`--ratings: "${part}" is not a band (${RATING_BANDS.join(', ')})`);
    out.add(i);
  }
  if (out.size === 0) throw new RangeError(`--ratings: "${s}" names no band (${RATING_BANDS.join(', ')})`);
  return out;
}

/** Parses `--speeds blitz,rapid` into speed indices. */
export function parseSpeeds(s: string): Set<number> {
  const out = new Set<number>();
  for (const part of s.split(',').map((x) => x.trim()).filter((x) => x !== '')) {
    const i = SPEEDS.indexOf(part as Speed);
    if (i < 0) throw new RangeError(`--speeds: "${part}" is not one of ${SPEEDS.join(', ')}`);
    out.add(i);
  }
  if (out.size === 0) throw new RangeError(`--speeds: "${s}" names no speed (${SPEEDS.join(', ')})`);
  return out;
}

/**
 * Whether a filter can be answered by a book split by `kinds`: a filter on a dimension the book
 * does not keep cannot be (the message says which).
 */
export function unanswerable(filter: SplitFilter, kinds: SplitKinds): string | undefined {
  if (filter.bands !== undefined && !kinds.rating) return 'the book has no rating split (build it with --split rating)';
  if (filter.speeds !== undefined && !kinds.speed) return 'the book has no speed split (build it with --split speed)';
  if ((filter.since !== undefined || filter.until !== undefined) && !kinds.month) return 'the book has no month split (build it with --split month)';
  return undefined;
}

/** Whether a cell passes a filter. */
export function cellPasses(filter: SplitFilter, cell: number): boolean {
  if (filter.bands !== undefined && !filter.bands.has(cellBand(cell))) return false;
  if (filter.speeds !== undefined && !filter.speeds.has(cellSpeed(cell))) return false;
  const month = cellMonth(cell);
  if (filter.since !== undefined && (month === 0 || month < filter.since)) return false;
  if (filter.until !== undefined && (month === 0 || month > filter.until)) return false;
  return true;
}

/** Whether a filter is empty (accepts every cell). */
export function isOpenFilter(filter: SplitFilter): boolean {
  return filter.bands === undefined && filter.speeds === undefined && filter.since === undefined && filter.until === undefined;
}
