/** Reading an EPD suite for `tabiya epd` and `tabiya perft --suite`: records with their line numbers. */
import { notText } from '../../node/textFile.js';
import { CliError } from '../errors.js';
import { readInputFile } from '../../node/matchFiles.js';

/** The records of an EPD file with their line numbers; refuses a file that is not EPD text or holds no record. */
export function readEpdRecords(file: string): { line: number; text: string }[] {
  let bytes: Buffer;
  try {
    // Compressed suites are read as every other input is (told by their first bytes).
    bytes = readInputFile(file);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const bad = notText(bytes, 'EPD text');
  if (bad) throw new CliError(`${file}:${bad.line}: ${bad.message}`, 1);
  const records: { line: number; text: string }[] = [];
  bytes
    .toString('latin1')
    .split(/\r?\n/)
    .forEach((t, i) => {
      if (t.trim() !== '' && !t.trim().startsWith('#')) records.push({ line: i + 1, text: t });
    });
  if (records.length === 0) throw new CliError(`${file}: no EPD record (the file is empty or holds only comments)`, 1);
  return records;
}
