/**
 * The `tabiya match` command line, read the way cutechess-cli and fastchess read theirs so
 * existing command lines carry over: repeatable `--engine k=v …` blocks, `--each`, key=value
 * groups for `--openings`, `--sprt`, `--draw`, `--resign`, and `-flag` with one dash as well as
 * two (a cutechess command pasted as is works). Pure: argv in, typed arguments or a message out.
 */

export interface MatchArgs {
  engines: string[][];
  each: string[];
  tournament: string;
  seeds: number;
  games: number;
  rounds: number;
  repeat: number;
  noswap: boolean;
  concurrency: number;
  openings?: Map<string, string>;
  srand?: number;
  sprt?: Map<string, string>;
  draw?: Map<string, string>;
  resign?: Map<string, string>;
  maxmoves: number;
  pgnout?: string;
  pgnMin: boolean;
  resume: boolean;
  event: string;
  site: string;
  waitMs: number;
  recover: boolean;
  startupMs?: number;
  readyMs?: number;
  stallMs?: number;
  moveMs?: number;
  ratingInterval: number;
  json: boolean;
  quiet: boolean;
}

const GROUPS = new Set(['engine', 'each', 'openings', 'sprt', 'draw', 'resign']);
/** Integer options: the field they set and the range they take. */
const INTS: Record<string, [keyof MatchArgs, number, number]> = {
  games: ['games', 1, 1e9],
  rounds: ['rounds', 1, 1e9],
  concurrency: ['concurrency', 1, 1024],
  seeds: ['seeds', 1, 1e6],
  maxmoves: ['maxmoves', 0, 1e6],
  wait: ['waitMs', 0, 3_600_000],
  'startup-ms': ['startupMs', 1, 3_600_000],
  'ready-ms': ['readyMs', 1, 3_600_000],
  'stall-ms': ['stallMs', 0, 3_600_000],
  'move-ms': ['moveMs', 1, 86_400_000],
  ratinginterval: ['ratingInterval', 0, 1e9],
  srand: ['srand', 0, 2 ** 32 - 1],
};
const STRINGS: Record<string, keyof MatchArgs> = { tournament: 'tournament', event: 'event', site: 'site' };
const FLAGS: Record<string, [keyof MatchArgs, boolean]> = {
  noswap: ['noswap', true],
  recover: ['recover', true],
  'no-recover': ['recover', false],
  resume: ['resume', true],
  json: ['json', true],
  quiet: ['quiet', true],
};

function isFlag(tok: string): boolean {
  return /^--?[a-z]/i.test(tok);
}

/** The keys each key=value group takes; a misspelt key would otherwise be ignored in silence. */
const GROUP_KEYS: Record<string, readonly string[]> = {
  openings: ['file', 'format', 'order', 'plies', 'start', 'policy'],
  sprt: ['elo0', 'elo1', 'alpha', 'beta', 'model'],
  draw: ['movenumber', 'movecount', 'score'],
  resign: ['movecount', 'score', 'twosided'],
};

function keyValues(words: string[], what: string): Map<string, string> | string {
  const m = new Map<string, string>();
  const known = GROUP_KEYS[what]!;
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq <= 0) return `--${what}: "${w}" is not key=value`;
    const key = w.slice(0, eq);
    if (!known.includes(key)) return `--${what}: unknown key "${key}" (${known.join(', ')})`;
    m.set(key, w.slice(eq + 1));
  }
  return m;
}

/** Reads the arguments after `match`. */
export function parseMatchArgs(argv: readonly string[]): MatchArgs | string {
  const a: MatchArgs = {
    engines: [],
    each: [],
    tournament: 'round-robin',
    seeds: 1,
    games: 1,
    rounds: 1,
    repeat: 1,
    noswap: false,
    concurrency: 1,
    maxmoves: 0,
    pgnMin: false,
    resume: false,
    event: '?',
    site: '?',
    waitMs: 0,
    recover: true,
    ratingInterval: 10,
    json: false,
    quiet: false,
  };
  let i = 0;
  while (i < argv.length) {
    const tok = argv[i++]!;
    if (!isFlag(tok)) return `unexpected argument "${tok}"`;
    let name = tok.replace(/^--?/, '');
    let inline: string | undefined;
    const eq = name.indexOf('=');
    if (eq > 0 && !GROUPS.has(name.slice(0, eq))) {
      inline = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    const words = (): string[] => {
      const out: string[] = [];
      while (i < argv.length && !isFlag(argv[i]!)) out.push(argv[i++]!);
      return out;
    };
    const value = (): string | undefined => inline ?? (i < argv.length && !isFlag(argv[i]!) ? argv[i++] : undefined);
    if (GROUPS.has(name)) {
      const w = words();
      if (w.length === 0) return `--${name} needs key=value settings`;
      if (name === 'engine') a.engines.push(w);
      else if (name === 'each') a.each.push(...w);
      else {
        const kv = keyValues(w, name);
        if (typeof kv === 'string') return kv;
        if (name === 'openings') a.openings = kv;
        else if (name === 'sprt') a.sprt = kv;
        else if (name === 'draw') a.draw = kv;
        else a.resign = kv;
      }
    } else if (name in INTS) {
      const v = value();
      if (v === undefined || !/^-?\d+$/.test(v)) return `--${name} needs an integer${v !== undefined ? `, got "${v}"` : ''}`;
      const [field, min, max] = INTS[name]!;
      const n = Number(v);
      if (n < min || n > max) return `--${name} ${v} is out of range (${min}..${max})`;
      (a as unknown as Record<string, number>)[field] = n;
    } else if (name in STRINGS) {
      const v = value();
      if (v === undefined) return `--${name} needs a value`;
      (a as unknown as Record<string, string>)[STRINGS[name]!] = v;
    } else if (name in FLAGS) {
      const [k, v] = FLAGS[name]!;
      (a as unknown as Record<string, boolean>)[k] = v;
    } else if (name === 'repeat') {
      // `--repeat` alone means pairs; `--repeat N` plays each opening N times.
      const v = inline ?? (i < argv.length && /^-?\d+$/.test(argv[i]!) ? argv[i++] : undefined);
      if (v !== undefined && (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1e6)) return `--repeat ${v} is out of range (1..1000000)`;
      a.repeat = v === undefined ? 2 : Number(v);
    } else if (name === 'variant') {
      // cutechess-cli command lines often name the variant. tabiya plays standard chess, and
      // Chess960 where an opening's FEN is a Chess960 position; it generates no start positions.
      const v = value();
      if (v === undefined) return '--variant needs a value (standard)';
      if (v !== 'standard') {
        return v === 'fischerandom' || v === 'chess960'
          ? `--variant ${v}: Chess960 games come from Chess960 openings (--openings file=F with Chess960 FENs, Shredder-FEN or X-FEN castling); tabiya does not generate start positions`
          : `--variant ${v}: tabiya plays standard chess (and Chess960 from Chess960 openings)`;
      }
    } else if (name === 'pgnout') {
      const w = inline !== undefined ? [inline] : words();
      if (w.length === 0) return '--pgnout needs a file name';
      a.pgnout = w[0];
      for (const flag of w.slice(1)) {
        if (flag === 'min') a.pgnMin = true;
        else if (flag !== 'fi') return `--pgnout: unknown flag "${flag}" (min or fi)`;
      }
    } else {
      return `unknown option "${tok}"`;
    }
  }
  return a;
}
