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
import { ErrorLister, OutputFile, checkInputs, checkRead, progressOf } from './pgnCommon.js';

/** Broken games listed in --json (all are counted). */
const MAX_LISTED = 1000;

export interface PgnCleanOptions {
  output: string;
  json?: boolean;
  quiet?: boolean;
  force?: boolean;
  errors?: string;
}

/** Collects tags and the main line as standard SAN, and writes each game when it ends. */
class Cleaner implements PgnVisitor {
  private tags: [string, string][] = [];
  private moves: string[] = [];
  written = 0;
  readonly broken: PgnGameError[] = [];

  constructor(
    private readonly out: OutputFile,
    private readonly lister: ErrorLister,
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
    // A game set up from a FEN says so (PGN standard 9.7.1: SetUp "1" must appear with a FEN
    // tag), as pgn-extract -C -N -V writes it: the tag goes right before the FEN.
    const fen = this.tags.findIndex(([n]) => n === 'FEN');
    if (fen >= 0 && !this.tags.some(([n]) => n === 'SetUp')) this.tags.splice(fen, 0, ['SetUp', '1']);
    this.out.write(writeGame({ tags: this.tags, moves: this.moves, result }));
    this.written++;
  }

  error(e: PgnGameError): void {
    if (this.broken.length < MAX_LISTED) this.broken.push(e);
    this.lister.add(e);
  }
}

export async function pgnCleanCommand(files: string[], opts: PgnCleanOptions): Promise<void> {
  checkInputs(files);
  checkOutputs([{ path: opts.output, kind: 'pgn' }], files, { force: opts.force });
  const out = new OutputFile(opts.output);
  const lister = new ErrorLister('dropped', opts.errors, !opts.quiet && !opts.json);
  const cleaner = new Cleaner(out, lister);
  const progress = progressOf('pgn clean', opts.quiet);
  try {
    const summary = await readPgn(files, cleaner, { onProgress: progress.onProgress });
    progress.stop();
    lister.end();
    checkRead(summary, opts.output);
    out.close();
    report(
      opts.json,
      { games: summary.games, errors: summary.errors, written: cleaner.written, output: opts.output, seconds: summary.seconds, brokenGames: cleaner.broken },
      () => `${cleaner.written} game${cleaner.written === 1 ? '' : 's'} written to ${opts.output}; ${summary.errors} broken game${summary.errors === 1 ? '' : 's'} dropped`,
      opts.output,
    );
  } catch (e) {
    progress.stop();
    out.abort();
    throw e;
  }
}
