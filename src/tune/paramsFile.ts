/**
 * Evaluation parameter files: a JSON object mapping each parameter group of params.ts to its
 * [mg, eg] pairs, exactly what `weightsFromJson` reads, written one group per key and a dozen
 * pairs per line so that a diff between two fits reads like a table:
 *
 *     {
 *       "material": [
 *         [75, 117], [325, 306], [361, 331], [471, 543], [1002, 984]
 *       ],
 *       ...
 *     }
 *
 * A file may name only some groups; the others keep the engine's defaults. The engine loads
 * one with `setoption name EvalParams value FILE`; `scripts/params-to-defaults.ts` turns one
 * into src/engine/evalDefaults.ts.
 */
import { readFileSync } from 'node:fs';
import { GROUPS } from '../engine/evalParams.js';
import { ioReason } from '../book/node/atomicWrite.js';

export type ParamsTable = Record<string, [number, number][]>;

export function formatParams(table: Readonly<ParamsTable>): string {
  const groups = Object.keys(table);
  const lines = ['{'];
  groups.forEach((name, gi) => {
    const pairs = table[name]!;
    lines.push(`  ${JSON.stringify(name)}: [`);
    for (let k = 0; k < pairs.length; k += 12) {
      const row = pairs.slice(k, k + 12).map(([mg, eg]) => `[${mg}, ${eg}]`).join(', ');
      lines.push(`    ${row}${k + 12 < pairs.length ? ',' : ''}`);
    }
    lines.push(`  ]${gi + 1 < groups.length ? ',' : ''}`);
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}

/** Checks a parsed params file; the error names the file and what is wrong. */
export function checkParams(json: unknown, file: string): ParamsTable {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`${file}: expected a JSON object of parameter groups`);
  const out: ParamsTable = {};
  for (const [name, values] of Object.entries(json as Record<string, unknown>)) {
    const g = GROUPS.find((x) => x.name === name);
    if (!g) throw new Error(`${file}: unknown parameter group "${name}"`);
    if (!Array.isArray(values) || values.length !== g.size) throw new Error(`${file}: group "${name}" must have ${g.size} [mg, eg] pairs`);
    out[name] = values.map((v, k) => {
      if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new Error(`${file}: group "${name}", pair ${k}: expected [mg, eg] numbers, got ${JSON.stringify(v)}`);
      }
      // The engine would clamp a value out of range without a word; the file is wrong, so say so.
      const out = (v as number[]).find((x) => x < g.min || x > g.max);
      if (out !== undefined) throw new Error(`${file}: group "${name}", pair ${k}: ${out} is outside the group's range ${g.min}..${g.max}`);
      return [v[0] as number, v[1] as number];
    });
  }
  return out;
}

/** Reads and checks a params file (throws an Error naming the file). */
export function readParamsFile(file: string): ParamsTable {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${file}: cannot read: ${ioReason(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    // JSON.parse quotes the text it stopped at: binary data (a book given by mistake) would put
    // raw control bytes on the terminal.
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x08\x0e-\x1f]/.test(text.slice(0, 4096))) throw new Error(`${file}: not a parameters file: binary data, not JSON text`);
    throw new Error(`${file}: not valid JSON: ${(e as Error).message}`);
  }
  return checkParams(json, file);
}
