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
}

interface RunnerEvent {
  type: string;
  data?: { file?: string; nesting?: number; name?: string };
}

export default async function* verdicts(source: AsyncIterable<RunnerEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    const kind = event.type === 'test:start' ? 'start' : event.type === 'test:pass' ? 'pass' : event.type === 'test:fail' ? 'fail' : null;
    if (kind === null || event.data === undefined) continue;
    const line: VerdictEvent = { kind, file: event.data.file ?? '', nesting: event.data.nesting ?? 0, name: event.data.name ?? '' };
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
