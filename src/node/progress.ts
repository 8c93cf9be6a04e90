/**
 * Progress for long jobs: a bar with rate and ETA on a terminal, a line every few seconds
 * otherwise (logs, CI, `TERM=dumb`). Always on stderr, so --json output stays clean.
 *
 * The bar is one line redrawn in place with a carriage return and "erase to end of line" (what
 * curl and wget do); it changes no terminal setting. Written here, not taken from a package,
 * because what it must do is this module's own: lines written above the bar while it runs
 * (`progressNote`), the numbers kept when the terminal is narrow, and the end of its line when
 * the process is interrupted. (cli-progress, used before, hid the cursor and turned off line
 * wrapping until its stop(): a Ctrl-C or a kill left the user's shell without a cursor and with
 * long lines cut off; it has no way to write a line above a single bar.) The line fits the terminal's width, a narrow
 * one losing the bar before the numbers. A line written while a bar is shown goes through
 * `progressNote`, which clears the bar, writes the line and draws the bar again below it; a
 * process that exits, or ends by a signal while it has temporary files to remove (tempFiles.ts),
 * ends the bar's line first, so that what follows starts on a line of its own.
 */
import { onAbruptEnd } from './tempFiles.js';

export interface Progress {
  /** Sets the absolute amount done (same unit as total). */
  update(done: number, extra?: string): void;
  stop(): void;
}

export interface ProgressOptions {
  label: string;
  /** Total amount (bytes, games, …); 0 when unknown. */
  total: number;
  unit: string;
  /** Silence everything (tests, --quiet). */
  quiet?: boolean;
  /** Seconds between lines when stderr is not a TTY. */
  interval?: number;
  /** Amount already done when this run starts (a resumed match): rate and ETA count only what this run does. */
  start?: number;
}

/** A bar on the terminal: its line drawn (and not yet ended), and how to draw it again. */
interface Shown {
  drawn: boolean;
  draw(): void;
}
const shown = new Set<Shown>();
let endsLines = false;

/** Least time between two drawings of a bar, ms (5 a second, as before). */
const REDRAW_MS = 200;

/** Whether stderr is a terminal that understands carriage return and "erase line" (not Emacs's `TERM=dumb`). */
function fancy(): boolean {
  return process.stderr.isTTY === true && process.env.TERM !== 'dumb';
}

/** Ends the line of every bar drawn, so that what follows starts on a line of its own. */
function endBarLines(): void {
  for (const b of shown) {
    if (b.drawn) process.stderr.write('\n');
    b.drawn = false;
  }
  shown.clear();
}

/**
 * Writes a line to stderr while a job shows progress (a skipped game, a warning): on a terminal
 * the bar is cleared first and drawn again below the line, so the line is neither glued to the
 * bar's text nor overwritten by its next drawing.
 */
export function progressNote(line: string): void {
  const text = line.endsWith('\n') ? line : `${line}\n`;
  const drawn = [...shown].filter((b) => b.drawn);
  if (drawn.length === 0) {
    process.stderr.write(text);
    return;
  }
  process.stderr.write(`\r\x1b[K${text}`);
  for (const b of drawn) {
    b.drawn = false;
    b.draw();
  }
}

export function startProgress(opts: ProgressOptions): Progress {
  if (opts.quiet) return { update() {}, stop() {} };
  const started = Date.now();
  const start = opts.start ?? 0;
  if (fancy() && opts.total > 0) return startBar(opts, started, start);
  const every = (opts.interval ?? 5) * 1000;
  let next = started + every;
  let printed = false;
  let last: { done: number; extra: string } | undefined;
  const line = (done: number, extra: string, now: number, final: boolean): void => {
    const secs = (now - started) / 1000;
    const rate = (done - start) / Math.max(secs, 1e-3);
    const pct = opts.total > 0 ? ` ${((100 * done) / opts.total).toFixed(1)}%` : '';
    // A job counted in percent says it once, not "26.0% 26 %".
    const amount = opts.unit === '%' && opts.total > 0 ? '' : ` ${opts.unit === 'B' ? bytes(done) : `${done} ${done === 1 ? singular(opts.unit) : opts.unit}`}`;
    const eta = final ? `, in ${secs.toFixed(1)} s` : opts.total > 0 && rate > 0 ? `, ETA ${Math.round((opts.total - done) / rate)} s` : '';
    process.stderr.write(`${opts.label}:${pct}${amount}, ${rateOf(rate, opts.unit)}/s${eta}${extra === '' ? '' : `, ${extra}`}\n`);
    printed = true;
  };
  return {
    update(done, extra = '') {
      last = { done, extra };
      const now = Date.now();
      if (now < next) return;
      next = now + every;
      line(done, extra, now, false);
    },
    // A log that showed the job under way also shows where it ended (100% when it read everything).
    stop() {
      if (printed && last !== undefined) line(last.done, last.extra, Date.now(), true);
      printed = false;
    },
  };
}

/** The bar on a terminal: `label [████░░░░] 42% | 5.92 MB/s | ETA 4s extra`, redrawn in place. */
function startBar(opts: ProgressOptions, started: number, start: number): Progress {
  let done = start;
  let extra = '';
  let lastDraw = 0;
  let stopped = false;
  const bar: Shown = {
    drawn: false,
    draw() {
      const now = Date.now();
      lastDraw = now;
      const secs = (now - started) / 1000;
      const rate = (done - start) / Math.max(secs, 1e-3);
      const eta = rate > 0 ? duration(Math.max(0, opts.total - done) / rate) : '?';
      const text = barLine(opts.label, done / opts.total, `${rateOf(rate, opts.unit)}/s`, eta, extra, (process.stderr.columns || 80) - 1);
      process.stderr.write(`\r${text}\x1b[K`);
      bar.drawn = true;
    },
  };
  shown.add(bar);
  if (!endsLines) {
    endsLines = true;
    onAbruptEnd(endBarLines);
    process.on('exit', endBarLines);
  }
  bar.draw();
  return {
    update(d, x = '') {
      if (stopped) return;
      done = d;
      extra = x;
      if (Date.now() - lastDraw >= REDRAW_MS || !bar.drawn) bar.draw();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.draw();
      process.stderr.write('\n');
      bar.drawn = false;
      shown.delete(bar);
    },
  };
}

/**
 * The bar's line within `width` columns: the bar narrows first, then goes (below 10 cells), then
 * the extra text (whole: cut, "25862 games" would read "258"), then the end of the line is cut,
 * so the percentage, rate and ETA stay in view on a narrow terminal.
 */
export function barLine(label: string, share: number, rate: string, eta: string, extra: string, width: number): string {
  const pct = Math.floor(Math.min(Math.max(share, 0), 1) * 100);
  let tail = ` ${pct}% | ${rate} | ETA ${eta}${extra === '' ? '' : ` ${extra}`}`;
  if (label.length + tail.length > width) tail = ` ${pct}% | ${rate} | ETA ${eta}`;
  const cells = Math.min(40, width - label.length - tail.length - 3);
  let line = label + tail;
  if (cells >= 10) {
    const full = Math.round(Math.min(Math.max(share, 0), 1) * cells);
    line = `${label} [${'\u2588'.repeat(full)}${'\u2591'.repeat(cells - full)}]${tail}`;
  }
  return line.length > width ? line.slice(0, Math.max(width, 0)) : line;
}

/** A time left for people: 45s, 3m07s, 2h05m. */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** A count of bytes for people: 825 B, 12.3 kB, 8.42 MB, 1.07 GB. */
export function bytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${Math.round(n)} B`;
}

/** One of a unit counted in the plural ("1 game", "1 entry"), for the units the commands count in. */
export function singular(unit: string): string {
  if (unit.endsWith('ies')) return `${unit.slice(0, -3)}y`;
  return unit.endsWith('s') ? unit.slice(0, -1) : unit;
}

/** A rate in `unit` a second, without the "/s": bytes as kB and MB, others as formatRate. */
function rateOf(x: number, unit: string): string {
  return unit === 'B' ? bytes(x) : `${formatRate(x)} ${unit}`;
}

/** A rate for people: 1.23M, 45.6k, 789, 12.3, 2.50, 0.079 (slow jobs such as matches are not "0/s"). */
export function formatRate(x: number): string {
  if (x >= 1e6) return (x / 1e6).toFixed(2) + 'M';
  if (x >= 1e4) return (x / 1e3).toFixed(1) + 'k';
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  if (x >= 1) return x.toFixed(2);
  return x > 0 ? x.toPrecision(2) : '0';
}
