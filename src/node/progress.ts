/**
 * Progress for long jobs: a bar with rate and ETA on a TTY (cli-progress), a line every few
 * seconds otherwise (logs, CI). Always on stderr, so --json output stays clean.
 */
import cliProgress from 'cli-progress';

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

export function startProgress(opts: ProgressOptions): Progress {
  if (opts.quiet) return { update() {}, stop() {} };
  const started = Date.now();
  const start = opts.start ?? 0;
  if (process.stderr.isTTY && opts.total > 0) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${opts.label} [{bar}] {percentage}% | {rate} | ETA {eta_formatted} {extra}`,
        stream: process.stderr,
        hideCursor: true,
        etaBuffer: 50,
        fps: 5,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(opts.total, start, { rate: '', extra: '' });
    return {
      update(done, extra = '') {
        const secs = (Date.now() - started) / 1000;
        bar.update(done, { rate: `${rateOf((done - start) / Math.max(secs, 1e-3), opts.unit)}/s`, extra });
      },
      stop() {
        bar.stop();
      },
    };
  }
  const every = (opts.interval ?? 5) * 1000;
  let next = started + every;
  let printed = false;
  let last: { done: number; extra: string } | undefined;
  const line = (done: number, extra: string, now: number, final: boolean): void => {
    const secs = (now - started) / 1000;
    const rate = (done - start) / Math.max(secs, 1e-3);
    const pct = opts.total > 0 ? ` ${((100 * done) / opts.total).toFixed(1)}%` : '';
    // A job counted in percent says it once, not "26.0% 26 %".
    const amount = opts.unit === '%' && opts.total > 0 ? '' : ` ${opts.unit === 'B' ? bytes(done) : `${done} ${opts.unit}`}`;
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

/** A count of bytes for people: 825 B, 12.3 kB, 8.42 MB, 1.07 GB. */
export function bytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${Math.round(n)} B`;
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
