/**
 * `tabiya stats elo|sprt`: the match statistics on counts typed by hand or pasted from another
 * tool's output (docs/match.md). Trinomial counts are `--wdl W,D,L`; pentanomial counts are
 * `--penta LL,LD,WLDD,WD,WW` or fastchess's six `LL,LD,WL,DD,WD,WW`.
 */
import { pentaFromSix, pentanomialElo, trinomialElo, losCutechess, z95, type EloEstimate, type Penta, type Wdl } from '../../stats/elo.js';
import { fixed, general } from '../../stats/format.js';
import { SPRT_MODELS, shownLlr, sprt, sprtConfigError, trinomialCounts, type SprtConfig, type SprtModel } from '../../stats/sprt.js';
import { cutechessEloLine } from '../../match/report.js';
import { CliError, numberOption } from '../errors.js';
import { report } from '../output.js';

export interface StatsOptions {
  wdl?: string;
  penta?: string;
  elo0?: string;
  elo1?: string;
  alpha?: string;
  beta?: string;
  model?: string;
  json?: boolean;
}

function counts(text: string, option: string, sizes: number[]): number[] {
  const parts = text.split(/[,\s]+/).filter((s) => s !== '');
  if (!sizes.includes(parts.length)) throw new CliError(`${option}: expected ${sizes.join(' or ')} comma-separated counts, got ${parts.length}`, 2);
  const out = parts.map((p) => {
    const n = Number(p);
    if (!/^\d+$/.test(p) || !Number.isSafeInteger(n)) throw new CliError(`${option}: "${p}" is not a non-negative integer`, 2);
    return n;
  });
  if (out.every((n) => n === 0)) throw new CliError(`${option}: every count is 0; there are no games to rate`, 2);
  return out;
}

type Sample = { kind: 'wdl'; wdl: Wdl } | { kind: 'penta'; penta: Penta };

function sample(opts: StatsOptions): Sample {
  if ((opts.wdl === undefined) === (opts.penta === undefined)) throw new CliError('stats: give exactly one of --wdl W,D,L or --penta LL,LD,WLDD,WD,WW', 2);
  if (opts.wdl !== undefined) {
    const [wins, draws, losses] = counts(opts.wdl, '--wdl', [3]) as [number, number, number];
    return { kind: 'wdl', wdl: { wins, draws, losses } };
  }
  const c = counts(opts.penta!, '--penta', [5, 6]);
  const penta: Penta = c.length === 6 ? pentaFromSix(c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!) : [c[0]!, c[1]!, c[2]!, c[3]!, c[4]!];
  return { kind: 'penta', penta };
}

/** A number of the text report; a quantity that is undefined for the counts (no spread) shows as "-", never nan. */
function shown(x: number, digits: number): string {
  return Number.isNaN(x) ? '-' : fixed(x, digits);
}

/** A measure of spread, undefined (NaN) when the samples have none. */
function spread(e: EloEstimate, x: number): number {
  return e.variance > 0 ? x : NaN;
}

/** Why some numbers are "-": every sample scored the same, so there is no spread to measure. */
function spreadNote(e: EloEstimate, kind: Sample['kind']): string[] {
  if (e.variance > 0) {
    // The error bar is half the Elo width of score ± z·se; when that interval runs past 0 % or
    // 100 %, one end has no Elo at all (cutechess and fastchess print nan there too).
    if (!Number.isNaN(e.error) || !Number.isFinite(e.elo)) return [];
    const lo = e.score - z95() * e.stderr;
    const hi = e.score + z95() * e.stderr;
    const past = [...(lo < 0 ? ['0 %'] : []), ...(hi > 1 ? ['100 %'] : [])].join(' and ');
    return [`note: the 95 % interval of the score (${fixed(100 * lo, 1)} % to ${fixed(100 * hi, 1)} %) runs past ${past}, where Elo is infinite, so the error bar is undefined ("-"); more games will tell`];
  }
  return [`note: every ${kind === 'wdl' ? 'game' : 'pair'} scored the same, so the error bar, nElo and LOS are undefined ("-"); ${Number.isFinite(e.elo) ? '' : 'a 0 % or 100 % score has no finite Elo; '}more games will tell`];
}

function jsonNumber(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

function estimateJson(e: EloEstimate): Record<string, number | null> {
  return {
    games: e.games,
    score: jsonNumber(e.score),
    elo: jsonNumber(e.elo),
    // As the text has it: no spread, no error bar (null, not a 0 that reads as certainty).
    error: jsonNumber(spread(e, e.error)),
    los: jsonNumber(e.los),
    nElo: jsonNumber(e.nElo),
    nEloError: jsonNumber(e.nEloError),
    drawRatio: jsonNumber(e.drawRatio),
  };
}

export function statsEloCommand(opts: StatsOptions): void {
  const s = sample(opts);
  const e = s.kind === 'wdl' ? trinomialElo(s.wdl) : pentanomialElo(s.penta);
  const extra = s.kind === 'wdl' ? { losCutechess: jsonNumber(losCutechess(s.wdl.wins, s.wdl.losses)), errorCutechess: jsonNumber(trinomialElo(s.wdl, 'cutechess').error) } : { pairs: e.samples };
  report(opts.json, { ...estimateJson(e), ...extra }, () => {
    const lines = [
      `Games: ${e.games}${s.kind === 'penta' ? ` (${e.samples} pairs)` : ''}, score ${fixed(100 * e.score, 2)} %`,
      `Elo: ${shown(e.elo, 2)} +/- ${shown(spread(e, e.error), 2)}, nElo: ${shown(e.nElo, 2)} +/- ${shown(e.nEloError, 2)}`,
      `LOS: ${shown(e.los, 2)} %, DrawRatio: ${shown(e.drawRatio, 2)} %${s.kind === 'penta' ? ' (pairs scoring 1)' : ''}`,
    ];
    // cutechess's own line, as it prints it, when it has no nan in it.
    const cute = s.kind === 'wdl' ? cutechessEloLine(s.wdl) : '';
    if (cute !== '' && !cute.includes('nan')) lines.push(`cutechess: ${cute}`);
    lines.push(...spreadNote(e, s.kind));
    return lines.join('\n');
  });
}

export function statsSprtCommand(opts: StatsOptions): void {
  const s = sample(opts);
  const model = (opts.model ?? 'normalized') as SprtModel;
  if (!SPRT_MODELS.includes(model)) throw new CliError(`--model: "${opts.model}" is not one of ${SPRT_MODELS.join(', ')}`, 2);
  if (s.kind === 'penta' && (model === 'bayesian' || model === 'cutechess')) throw new CliError(`--model ${model} takes --wdl counts only`, 2);
  const cfg: SprtConfig = {
    elo0: numberOption('--elo0', opts.elo0 ?? '0')!,
    elo1: numberOption('--elo1', opts.elo1 ?? '5')!,
    alpha: numberOption('--alpha', opts.alpha ?? '0.05')!,
    beta: numberOption('--beta', opts.beta ?? '0.05')!,
    model,
  };
  const bad = sprtConfigError(cfg);
  if (bad) throw new CliError(`stats sprt: ${bad}`, 2);
  const st = sprt(s.kind === 'wdl' ? trinomialCounts(s.wdl) : s.penta, cfg);
  const e = s.kind === 'wdl' ? trinomialElo(s.wdl) : pentanomialElo(s.penta);
  if (st.note !== undefined) process.stderr.write(`warning: ${st.note}\n`);
  const llr = shownLlr(st.llr);
  const pct = llr >= 0 ? (100 * llr) / st.upper : (100 * llr) / st.lower;
  report(
    opts.json,
    { ...estimateJson(e), llr: jsonNumber(st.llr), ...(st.note === undefined ? {} : { llrNote: st.note }), lower: st.lower, upper: st.upper, decision: st.decision ?? null, model, elo0: cfg.elo0, elo1: cfg.elo1, alpha: cfg.alpha, beta: cfg.beta },
    () => {
      const unit = model === 'normalized' ? 'nElo' : model === 'bayesian' ? 'BayesElo' : 'Elo';
      const verdict = st.decision === 'H1' ? 'H1 accepted' : st.decision === 'H0' ? 'H0 accepted' : 'continue';
      return [
        `LLR: ${Number.isNaN(llr) ? '- (cannot be computed, see the warning)' : `${fixed(llr, 2)} (${fixed(pct, 1)}%)`} (${fixed(st.lower, 2)}, ${fixed(st.upper, 2)}) [${general(cfg.elo0, 6)}, ${general(cfg.elo1, 6)}] ${unit}, model ${model}${s.kind === 'penta' ? ', pentanomial' : ', trinomial'}: ${verdict}`,
        `Elo: ${shown(e.elo, 2)} +/- ${shown(spread(e, e.error), 2)}, LOS: ${shown(e.los, 2)} %`,
        ...spreadNote(e, s.kind),
      ].join('\n');
    },
  );
}
