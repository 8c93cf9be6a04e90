/**
 * Turns a params file (`tabiya tune fit` output) into src/engine/evalDefaults.ts, the step
 * that makes fitted weights the engine's own:
 *
 *   node dist/scripts/params-to-defaults.js data/params/FILE.json "how they were fitted" > src/engine/evalDefaults.ts
 *
 * Groups the file does not name keep the current defaults, so a fit of a few groups can be
 * adopted too. The note becomes the module comment's provenance line.
 */
import { DEFAULTS } from '../src/engine/evalDefaults.js';
import { GROUPS } from '../src/engine/evalParams.js';
import { readParamsFile } from '../src/tune/paramsFile.js';

const [file, note = 'Fitted by `tabiya tune fit` (Texel\'s method; see docs/tuning.md).'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node dist/scripts/params-to-defaults.js PARAMS.json ["provenance note"] > src/engine/evalDefaults.ts\n');
  process.exitCode = 2;
} else {
  const table = readParamsFile(file);
  const out: string[] = [
    '/**',
    ' * Default evaluation weights by parameter group ([mg, eg] pairs), read by params.ts.',
    ...wrap(note, 96).map((l) => ` * ${l}`),
    ' */',
    'export const DEFAULTS: Readonly<Record<string, readonly (readonly [number, number])[]>> = {',
  ];
  for (const g of GROUPS) {
    const pairs = table[g.name] ?? DEFAULTS[g.name];
    if (!pairs) continue;
    out.push(`  '${g.name}': [`);
    const cells = pairs.map(([mg, eg]) => `[${Math.round(mg)}, ${Math.round(eg)}],`);
    let line = '   ';
    for (const c of cells) {
      if (line.length + 1 + c.length > 110) {
        out.push(line);
        line = '   ';
      }
      line += ' ' + c;
    }
    out.push(line);
    out.push('  ],');
  }
  out.push('};');
  process.stdout.write(out.join('\n') + '\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(/\s+/)) {
    if (cur !== '' && cur.length + 1 + word.length > width) {
      lines.push(cur);
      cur = word;
    } else cur = cur === '' ? word : `${cur} ${word}`;
  }
  if (cur !== '') lines.push(cur);
  return lines;
}
