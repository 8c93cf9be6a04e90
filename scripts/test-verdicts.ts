/**
 * A reporter for Node's test runner that writes one JSON line per test start and verdict, with
 * the test file, nesting level and name, for scripts/run-tests.ts to check that every test that
 * started got a verdict. Node's own reporters print the same events but not which file each came
 * from, and a runner that drops a file's last events still exits 0 (nodejs/node#64833).
 *
 *   node --test --test-reporter=./dist/scripts/test-verdicts.js --test-reporter-destination=FILE
 */

/** One line of the reporter's output. */
export interface VerdictEvent {
  kind: 'start' | 'pass' | 'fail';
  file: string;
  nesting: number;
  name: string;
  /** A verdict's duration in milliseconds, as the runner measured it. */
  ms?: number;
}

interface RunnerEvent {
  type: string;
  data?: { file?: string; nesting?: number; name?: string; details?: { duration_ms?: number } };
}

export default async function* verdicts(source: AsyncIterable<RunnerEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    const kind = event.type === 'test:start' ? 'start' : event.type === 'test:pass' ? 'pass' : event.type === 'test:fail' ? 'fail' : null;
    if (kind === null || event.data === undefined) continue;
    const line: VerdictEvent = { kind, file: event.data.file ?? '', nesting: event.data.nesting ?? 0, name: event.data.name ?? '' };
    const ms = event.data.details?.duration_ms;
    if (kind !== 'start' && typeof ms === 'number') line.ms = Math.round(ms);
    yield JSON.stringify(line) + '\n';
  }
}

/**
 * The tests that started and got no verdict, and the files given to the runner that reported
 * nothing at all, from the reporter's lines. Starts and verdicts are paired by file, nesting and
 * name (a name may repeat: they are counted).
 */
export function missingVerdicts(lines: string, files: readonly string[]): { unfinished: VerdictEvent[]; silentFiles: string[] } {
  const open = new Map<string, { event: VerdictEvent; count: number }>();
  const seen = new Set<string>();
  for (const text of lines.split('\n')) {
    if (text === '') continue;
    const event = JSON.parse(text) as VerdictEvent;
    seen.add(event.file);
    const key = JSON.stringify([event.file, event.nesting, event.name]);
    const entry = open.get(key) ?? { event, count: 0 };
    entry.count += event.kind === 'start' ? 1 : -1;
    open.set(key, entry);
  }
  const unfinished: VerdictEvent[] = [];
  for (const { event, count } of open.values()) for (let i = 0; i < count; i++) unfinished.push(event);
  return { unfinished, silentFiles: files.filter((f) => !seen.has(f)) };
}

/**
 * The slowest top-level tests and test files of a run, from the reporter's lines, slowest first:
 * a file's time is the sum of its top-level tests (their set-up included, the file's import not).
 * The suite has a time bound (README), so the run ends by saying where the time went.
 */
export function slowest(lines: string, count: number): { tests: { file: string; name: string; ms: number }[]; files: { file: string; ms: number }[] } {
  const tests: { file: string; name: string; ms: number }[] = [];
  const files = new Map<string, number>();
  for (const text of lines.split('\n')) {
    if (text === '') continue;
    const event = JSON.parse(text) as VerdictEvent;
    if (event.kind === 'start' || event.nesting !== 0 || event.ms === undefined) continue;
    tests.push({ file: event.file, name: event.name, ms: event.ms });
    files.set(event.file, (files.get(event.file) ?? 0) + event.ms);
  }
  const byTime = <T extends { ms: number }>(a: T, b: T): number => b.ms - a.ms;
  return {
    tests: tests.sort(byTime).slice(0, count),
    files: [...files].map(([file, ms]) => ({ file, ms })).sort(byTime).slice(0, count),
  };
}
