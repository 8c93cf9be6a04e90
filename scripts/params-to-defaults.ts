/**
 * Turns a params file (`tabiya tune fit` output) into src/engine/evalDefaults.ts, the step
 * that makes fitted weights the engine's own:
 *
 *   node dist/scripts/params-to-defaults.js data/params/FILE.json ["how they were fitted"] [-o FILE]
 *
 * Groups the file does not name keep the current defaults, so a fit of a few groups can be
 * adopted too. The note becomes the module comment's provenance line. The module is written to
 * src/engine/evalDefaults.ts (or -o FILE, `-` for standard output) through a temporary file and
 * a rename, only once the params file has been read and checked: a bad params file leaves the
 * defaults as they were (a shell redirection `> evalDefaults.ts` would empty them first).
 */
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomicSync } from '../src/book/node/atomicWrite.js';
import { DEFAULTS } from '../src/engine/evalDefaults.js';
import { GROUPS } from '../src/engine/evalParams.js';
import { readParamsFile, type ParamsTable } from '../src/tune/paramsFile.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const USAGE = 'usage: node dist/scripts/params-to-defaults.js PARAMS.json ["provenance note"] [-o FILE|-]  (default: src/engine/evalDefaults.ts)\n';

const args = process.argv.slice(2);
let output = join(ROOT, 'src/engine/evalDefaults.ts');
const positional: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '-o' || args[i] === '--output') {
    if (i + 1 >= args.length) positional.length = 99;
    else output = args[++i]!;
  } else positional.push(args[i]!);
}
const [file, note = 'Fitted by `tabiya tune fit` (Texel\'s method; see docs/tuning.md).'] = positional;
if (!file || positional.length > 2) {
  process.stderr.write(USAGE);
  process.exitCode = 2;
} else {
  let table: ParamsTable;
  try {
    table = readParamsFile(file);
  } catch (e) {
    process.stderr.write(`params-to-defaults: ${(e as Error).message}; ${output === '-' ? 'nothing written' : `${output} is left as it was`}\n`);
    process.exit(1);
  }
  const text = defaultsModule(table, note);
  if (output === '-') process.stdout.write(text);
  else {
    writeFileAtomicSync(output, text);
    process.stderr.write(`wrote ${relative(process.cwd(), output) || output}; the engine reads the weights from its WebAssembly tables: ` +
      'run `npx tsc -p . && node dist/scripts/gen-wasm-tables.js && npm run build:wasm`, then `npx tabiya bench` for the new signature (docs/engine.md)\n');
  }
}

/** The TypeScript module of the default weights: the file's groups, the current ones for the rest. */
function defaultsModule(table: ParamsTable, note: string): string {
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
  return out.join('\n') + '\n';
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
