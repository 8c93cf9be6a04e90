/**
 * `tabiya book export BOOK -o tree.pgn [--fen F] [--moves M] [--depth N] [--side white|black]`:
 * the explorer's export of a book's tree (docs/serve.md, "GET /api/export") from the command
 * line, as Scid's tree window and ChessBase's book window export a book to PGN: one game whose
 * variations are the book moves below the position, with each move's notes and the opening
 * names where a line's opening changes, or a White or Black repertoire. With `-o X.bin` and any
 * of those options, the Polyglot entries of the same positions (a repertoire an engine can play).
 * `book annotate --notes` reads such a PGN back.
 */
import { ServedBook, policyOf } from '../../serve/library.js';
import { subtreeBin, subtreePgn, walkSubtree } from '../../serve/subtree.js';
import { writeFileAtomic } from '../../book/node/atomicWrite.js';
import { checkOutputs } from '../../node/outputs.js';
import { loadOpenings } from '../../node/openingNames.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { probedPosition } from './bookProbe.js';
import { bookErrors } from './richCommon.js';

export interface BookTreeOptions {
  output: string;
  fen?: string;
  moves?: string;
  depth?: string;
  side?: string;
  maxMoves?: string;
  force?: boolean;
  json?: boolean;
}

/** The options that shape a tree export (the others shape make-book's whole-book `.bin`). */
export const TREE_OPTIONS = ['fen', 'moves', 'depth', 'side', 'maxMoves'] as const;

export async function bookTreeCommand(file: string, opts: BookTreeOptions): Promise<void> {
  // To standard output a tree goes as PGN: text, for a pager or another program's input.
  const pgn = /\.pgn$/i.test(opts.output) || opts.output === '-';
  if (!pgn && !/\.bin$/i.test(opts.output)) throw new CliError(`book export of a tree writes a PGN (.pgn) or a Polyglot book (.bin); ${opts.output} is neither`, 2);
  // The explorer's bound is 40 plies; from the command line as deep as a book goes.
  const depth = intOption('--depth', opts.depth ?? '12', 1, 1024)!;
  const maxMoves = intOption('--max-moves', opts.maxMoves ?? '1000000', 1)!;
  if (opts.side !== undefined && opts.side !== 'white' && opts.side !== 'black') throw new CliError(`--side: "${opts.side}" is not a side: white or black`, 2);
  const side = opts.side === undefined ? undefined : opts.side === 'white' ? 0 : 1;
  const { pos, opening } = probedPosition(opts.fen, opts.moves);
  checkOutputs([{ path: opts.output, kind: pgn ? 'pgn' : 'polyglot' }], [file], { force: opts.force });
  const t0 = performance.now();
  const id = file.replace(/^.*[\\/]/, '');
  const book = await bookErrors(() => ServedBook.open(id, file));
  let out: { tree: Awaited<ReturnType<typeof walkSubtree>>; data: Uint8Array | string };
  try {
    const tree = await bookErrors(() => walkSubtree((p, c) => book.moves(p, c), pos.clone(), policyOf(undefined), depth, maxMoves, side));
    out = { tree, data: pgn ? subtreePgn(tree, pos, id, { index: loadOpenings(), atRoot: opening ?? undefined }) : subtreeBin(tree) };
  } finally {
    await book.close();
  }
  await writeFileAtomic(opts.output, out.data);
  const { tree } = out;
  const seconds = (performance.now() - t0) / 1000;
  const positions = new Set(tree.entries.map((e) => (typeof e.key === 'string' ? e.key : `${e.key.hi}:${e.key.lo}`))).size;
  const value = { input: file, output: opts.output, format: pgn ? 'pgn' : 'bin', fen: tree.fen, side: opts.side ?? null, depth, moves: tree.nodes, positions, entries: tree.entries.length, truncated: tree.truncated, seconds };
  if (tree.truncated && !opts.json) process.stderr.write(`note: the tree was cut at ${tree.nodes} moves (--max-moves); the PGN says so in its first comment\n`);
  report(opts.json, value, () => `wrote ${opts.output}: ${tree.nodes} moves below ${tree.fen}${side === undefined ? '' : ` (${side === 0 ? 'White' : 'Black'}'s repertoire)`}, ${depth} ${depth === 1 ? 'ply' : 'plies'} deep, in ${seconds.toFixed(2)} s`, opts.output);
}
