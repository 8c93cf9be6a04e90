/**
 * `tabiya pgn clean FILE... -o OUT`: re-exports every valid game in standard form (seven-tag
 * roster first, standard SAN, 79-column lines, no comments, NAGs or variations), the way
 * `pgn-extract -C -N -V` does, and lists the broken games it drops.
 */
import type { Position } from '../../core/position.js';
import { readPgn } from '../../pgn/reader.js';
import { writeSan } from '../../pgn/sanWriter.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { writeGame } from '../../pgn/writer.js';
import { checkOutputs } from '../../node/outputs.js';
import { report } from '../output.js';
import { OutputFile, checkInputs, checkRead, formatError, progressOf } from './pgnCommon.js';

/** Broken games listed in --json (all are counted). */
const MAX_LISTED = 1000;

export interface PgnCleanOptions {
  output: string;
  json?: boolean;
  quiet?: boolean;
  force?: boolean;
}

/** Collects tags and the main line as standard SAN, and writes each game when it ends. */
class Cleaner implements PgnVisitor {
  private tags: [string, string][] = [];
  private moves: string[] = [];
  written = 0;
  readonly broken: PgnGameError[] = [];

  constructor(
    private readonly out: OutputFile,
    private readonly echo: boolean,
  ) {}

  beginGame(): void {
    this.tags = [];
    this.moves = [];
  }

  tag(name: string, value: string): void {
    this.tags.push([name, value]);
  }

  move(pos: Position, m: number): void {
    this.moves.push(writeSan(pos, m));
  }

  nullMove(): void {
    this.moves.push('--');
  }

  endGame(result: string): void {
    this.out.write(writeGame({ tags: this.tags, moves: this.moves, result }));
    this.written++;
  }

  error(e: PgnGameError): void {
    if (this.broken.length < MAX_LISTED) this.broken.push(e);
    if (this.echo) process.stderr.write(`dropped: ${formatError(e)}\n`);
  }
}

export async function pgnCleanCommand(files: string[], opts: PgnCleanOptions): Promise<void> {
  checkInputs(files);
  checkOutputs([{ path: opts.output, kind: 'pgn' }], files, { force: opts.force });
  const out = new OutputFile(opts.output);
  const cleaner = new Cleaner(out, !opts.quiet && !opts.json);
  const progress = progressOf('pgn clean', opts.quiet);
  try {
    const summary = await readPgn(files, cleaner, { onProgress: progress.onProgress });
    progress.stop();
    checkRead(summary, opts.output);
    out.close();
    report(
      opts.json,
      { games: summary.games, errors: summary.errors, written: cleaner.written, output: opts.output, seconds: summary.seconds, brokenGames: cleaner.broken },
      () => `${cleaner.written} games written to ${opts.output}; ${summary.errors} broken games dropped`,
      opts.output,
    );
  } catch (e) {
    progress.stop();
    out.abort();
    throw e;
  }
}
