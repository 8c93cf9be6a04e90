/**
 * `tabiya book probe X.tbk [--fen F | --moves "..."] [--explain] [--json]`: the book moves of a
 * position with their statistics and the probability the move-selection policy
 * (src/book/select/) gives each; --explain adds why a move is in or out, --choose picks one.
 * The opening's ECO code and name come first, as for a .bin (bookProbe.ts).
 */
import type { RichEntry } from '../../book/rich/reader.js';
import type { BookEntry } from '../../book/rich/tbkBook.js';
import { tableOrder } from '../../book/rich/tableOrder.js';
import { bookGame, gameOfMove, type BookGame } from '../../book/rich/bookGame.js';
import { choose, explainPolicy, parsePolicy, seededRandom, type BookPolicyConfig, type PolicyRow } from '../../book/select/index.js';
import { PolicyError, findPolicyOption, parsePolicyKind } from '../../book/select/options.js';
import { makeUci } from '../../notation/uci.js';
import { uciLineToSan } from '../../notation/moveList.js';
import { lossText } from '../../book/audit/verdict.js';
import { keyToHex } from '../../core/zobrist.js';
import { makeFen } from '../../notation/fen.js';
import { makeSan } from '../../notation/san.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { openingLine, probedPosition } from './bookProbe.js';
import { bookErrors, checkFilterFits, openAnyRichBook, pct, splitFilterOf } from './richCommon.js';
import { nagSymbol } from '../../book/rich/noteText.js';

export interface RichProbeCliOptions {
  fen?: string;
  moves?: string;
  ratings?: string;
  speeds?: string;
  since?: string;
  until?: string;
  explain?: boolean;
  choose?: string;
  seed?: string;
  json?: boolean;
  [policyOption: string]: string | boolean | undefined;
}

/** Options of `book probe` that are not policy settings. */
const OWN = new Set(['fen', 'moves', 'explain', 'choose', 'seed', 'json', 'minWeight', 'ratings', 'speeds', 'since', 'until']);

export async function richProbeCommand(file: string, opts: RichProbeCliOptions): Promise<void> {
  const { pos, opening } = probedPosition(opts.fen, opts.moves);
  let config: BookPolicyConfig;
  try {
    const given: Record<string, string | boolean> = {};
    for (const [k, v] of Object.entries(opts)) if (!OWN.has(k) && v !== undefined) given[k] = v;
    if (opts.choose !== undefined) {
      if (given.policy !== undefined && parsePolicyKind(String(given.policy)) !== parsePolicyKind(opts.choose)) {
        throw new CliError(`--choose ${opts.choose} and --policy ${String(given.policy)} name different policies: give one`, 2);
      }
      given.policy = opts.choose;
    }
    config = parsePolicy(given);
  } catch (e) {
    if (e instanceof PolicyError) throw new CliError(flagMessage(e), 2);
    throw e;
  }
  const filter = splitFilterOf(opts);
  // A position that only one game reached: that game, read while the book is open; and in a
  // position several games reached, the game of each move that one game played (`viaMove`).
  const oneGame = new Map<number, BookGame>();
  const viaMove = new Set<number>();
  const moves = await bookErrors(() => {
    const book = openAnyRichBook(file);
    try {
      checkFilterFits(file, book, filter);
      const found = book.probe(pos, filter);
      for (const m of found) {
        let g = (m as Partial<BookEntry>).game ?? -1;
        if (g < 0 && book.v2 !== undefined && !m.postBook && games(m) + ((m as Partial<BookEntry>).unfinished ?? 0) === 1) {
          g = gameOfMove(book.v2, pos, m.move) ?? -1;
          if (g >= 0) viaMove.add(m.move);
        }
        const whole = book.v2?.games !== undefined && g >= 0 ? bookGame(book.v2.games, g, pos) : undefined;
        if (whole !== undefined) oneGame.set(m.move, whole);
      }
      return found;
    } finally {
      book.close();
    }
  });
  // The policy sees the moves in the book's order, as the engine does (src/engine/bookProbe.ts):
  // "the first on ties" (Terra's select best, PolyGlot's best without first-seen numbers) and a
  // seeded draw mean that order. Only the table is then sorted (tableOrder.ts).
  const seed = intOption('--seed', opts.seed, 0);
  const chosen = opts.choose === undefined ? undefined : choose(config, moves, seed === undefined ? Math.random : seededRandom(seed));
  const policyRows = explainPolicy(config, moves);
  const order = tableOrder(moves);
  const rows: PolicyRow[] = order.map((i) => policyRows[i]!);
  moves.splice(0, moves.length, ...order.map((i) => moves[i]!));
  const fen = makeFen(pos);
  const key = keyToHex(pos.keyHi, pos.keyLo);
  const out = moves.map((m, i) => ({ ...row(pos, m, rows[i]!), game: gameOf(oneGame.get(m.move)) }));
  const value: Record<string, unknown> = { fen, key, opening, policy: config, moves: out };
  if (chosen !== undefined) value.chosen = chosen === 0 ? null : { uci: makeUci(chosen, pos.chess960), san: makeSan(pos, chosen) };
  report(opts.json, value, () => {
    const lines = [`${fen}  (key ${key})`, ...openingLine(opening)];
    if (out.length === 0) lines.push('no book moves');
    else {
      const audited = out.some((r) => r.audit !== null || r.forbidden);
      // Moves imported from a .bin have a weight and no games: show the weight, or the table
      // would hold nothing but zeros for them.
      const weighted = out.some((r) => r.games === 0 && !r.postBook && r.weight > 0);
      const weightCell = (r: (typeof out)[number]): string => (weighted ? ` ${String(r.weight).padStart(6)}` : '');
      const auditCell = (r: (typeof out)[number]): string => (audited ? `  ${(r.audit === null ? '' : (lossText(r.audit.loss) === 'mate' ? 'mate' : `${r.audit.loss > 0 ? '-' : ''}${lossText(r.audit.loss)}`)).padStart(6)} ${r.forbidden ? 'x' : ' '}` : '');
      // A move's NAG follows it as in printed annotation: a move assessment joined (e4!?), any
      // other after a space (Nf3 +-); its comment is listed below the table.
      const nagOf = (nag: number | null): string => (nag === null ? '' : nag >= 1 && nag <= 6 ? nagSymbol(nag) : ` ${nagSymbol(nag)}`);
      const nameOf = (r: (typeof out)[number]): string => `${r.san}${r.postBook ? '*' : ''}${nagOf(r.nag)}`;
      const nameWidth = Math.max(8, ...out.map((r) => nameOf(r).length));
      lines.push(`${'move'.padEnd(nameWidth)} ${'uci'.padEnd(6)} ${'games'.padStart(7)}${weighted ? ` ${'weight'.padStart(6)}` : ''}  ${'win%'.padStart(5)} ${'draw%'.padStart(5)} ${'loss%'.padStart(5)}  ${'elo'.padStart(4)}  ${'learned'.padEnd(11)} ${'user'.padStart(4)}  ${'play%'.padStart(6)}${audited ? `  ${'audit'.padStart(6)}  ` : ''}${opts.explain ? '  why' : ''}`.trimEnd());
      for (const r of out) {
        const ev = r.evalCp === null ? '' : ` ${r.evalCp >= 0 ? '+' : ''}${(r.evalCp / 100).toFixed(2)}`;
        const dyn = r.dynWins + r.dynDraws + r.dynLosses > 0 ? `${r.dynWins}/${r.dynDraws}/${r.dynLosses}${ev}` : '';
        const user = r.userValue === null ? '' : String(r.userValue);
        const name = nameOf(r);
        const elo = r.avgElo > 0 ? String(r.avgElo) : '';
        lines.push(
          `${name.padEnd(nameWidth)} ${r.uci.padEnd(6)} ${String(r.games).padStart(7)}${weightCell(r)}  ${r.winPct.toFixed(1).padStart(5)} ${r.drawPct.toFixed(1).padStart(5)} ${r.lossPct.toFixed(1).padStart(5)}  ${elo.padStart(4)}  ${dyn.padEnd(11)} ${user.padStart(4)}  ${(r.probability * 100).toFixed(1).padStart(6)}${auditCell(r)}${opts.explain ? `  ${r.reason}` : ''}`.trimEnd(),
        );
      }
      for (const r of out) if (r.comment !== null) lines.push(`${r.san}: {${r.comment}}`);
      if (out.some((r) => r.dynWins + r.dynDraws + r.dynLosses > 0)) lines.push('learned: W/D/L of the engine\'s own games (and its mean evaluation after a PostBook move)');
      if (out.some((r) => r.postBook)) lines.push('*: PostBook record (a move the engine chose after leaving the book)');
      if (audited) lines.push("audit: pawns (or a mate) the move loses against the engine's best move (book audit); x: forbidden, never played from the book");
      out.forEach((r, i) => {
        if (r.audit === null || !r.forbidden) return;
        const after = pos.clone();
        after.play(moves[i]!.move);
        const loses = lossText(r.audit.loss) === 'mate' ? 'allows a mate' : `loses ${lossText(r.audit.loss)} pawns`;
        lines.push(`${r.san}: ${loses} at depth ${r.audit.depth}; best ${r.audit.bestSan ?? '?'}; refutation ${uciLineToSan(after, r.audit.refutation)}`);
      });
    }
    out.forEach((r, i) => {
      if (r.game === null) return;
      const g = r.game;
      const rating = (x: number | null): string => (x === null ? 'unrated' : String(x));
      const facts = [g.result, `White ${rating(g.white.rating)}`, `Black ${rating(g.black.rating)}`, g.month ?? '', g.speed ?? ''].filter((f) => f !== '').join(', ');
      const shown = g.continuation.slice(0, CONTINUATION_SHOWN);
      const more = g.continuation.length - shown.length;
      const whose = viaMove.has(moves[i]!.move) ? `${r.san}: one game played it` : 'one game reached this position';
      lines.push(`${whose}: game ${g.id} of the book (${facts}); it went on ${uciLineToSan(pos, shown, true)}${more > 0 ? ` … (${more} plies more: --json gives them all)` : ` ${g.result}`}`);
    });
    if (chosen !== undefined) lines.push(chosen === 0 ? `chosen (${config.policy}): none` : `chosen (${config.policy}): ${makeSan(pos, chosen)}`);
    return lines.join('\n');
  });
}

/** A policy error as the command line says it: the flag instead of the engine's option name. */
function flagMessage(e: PolicyError): string {
  const o = findPolicyOption(e.option);
  return o !== undefined && e.message.startsWith(`${o.name}: `) ? `--${o.flag}: ${e.message.slice(o.name.length + 2)}` : e.message;
}

/** Plies of a one-game position's continuation that the text shows (--json gives them all). */
const CONTINUATION_SHOWN = 20;

/** A move's one game as probe reports it: what the book tells of it, and its moves from here (UCI). */
function gameOf(g: BookGame | undefined) {
  if (g === undefined || g.ply === null) return null;
  return { id: g.id, winner: g.winner, result: g.result, speed: g.speed, white: g.white, black: g.black, year: g.year, month: g.month, continuation: g.moves.slice(g.ply) };
}

function games(m: RichEntry): number {
  return m.wins + m.draws + m.losses;
}

function row(pos: Parameters<typeof makeSan>[0], m: RichEntry, p: PolicyRow) {
  const n = games(m);
  return {
    uci: makeUci(m.move, pos.chess960),
    san: makeSan(pos, m.move),
    games: n,
    wins: m.wins,
    draws: m.draws,
    losses: m.losses,
    winPct: pct(m.wins, n),
    drawPct: pct(m.draws, n),
    lossPct: pct(m.losses, n),
    avgElo: m.avgElo,
    ratedGames: m.ratedGames,
    dynWins: m.dynWins,
    dynDraws: m.dynDraws,
    dynLosses: m.dynLosses,
    userValue: m.userValue < 0 ? null : m.userValue,
    postBook: m.postBook,
    evalCp: m.evalCount > 0 ? m.evalCp : null,
    weight: m.weight,
    probability: p.probability,
    inPlay: p.inPlay,
    reason: p.reason,
    // What a version 2 book adds (notes): NAG, comment, forbidden mark, audit verdict.
    nag: (m as Partial<BookEntry>).nag || null,
    comment: (m as Partial<BookEntry>).comment || null,
    forbidden: (m as Partial<BookEntry>).forbidden ?? false,
    audit: auditOf(pos, (m as Partial<BookEntry>).audit),
  };
}

/** A book audit's verdict as probe shows it: the best move in UCI and SAN, the refutation as a list. */
function auditOf(pos: Parameters<typeof makeSan>[0], a: BookEntry['audit'] | undefined) {
  if (a === undefined) return null;
  const best = a.best !== 0 ? makeUci(a.best, pos.chess960) : null;
  return { loss: a.loss, best, bestSan: a.best !== 0 ? makeSan(pos, a.best) : null, depth: a.depth, refutation: a.refutation === '' ? [] : a.refutation.split(' ') };
}
