/**
 * `tabiya match`: engine-vs-engine matches and tournaments, cutechess-cli style
 * (docs/match.md). Wires the pure pieces of src/match to processes and files: spawns engines,
 * reads the opening suite, appends every finished game to the PGN and the resume journal, prints
 * cutechess's lines as games finish, and the final report (or one JSON object with --json).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { parseMatchArgs, type MatchArgs } from '../../match/args.js';
import type { AdjudicationRules } from '../../match/adjudicate.js';
import { makeEngineSpec, parseEngineKeys, splitArgs, uniqueNames, type EngineSpec } from '../../match/engineSpec.js';
import type { GameRecord } from '../../match/game.js';
import { identityDiff, identityFieldsDiff, journalLine, parseJournal, type JournalGame } from '../../match/journal.js';
import { formatGamePgn } from '../../match/pgnOut.js';
import { DEFAULT_TIMEOUTS, type EnginePlayer, type Timeouts } from '../../match/player.js';
import { countOf, encounterBlock, faultLines, jsonSummary, rankingTable, reportLines, scoreLine, timeLines } from '../../match/report.js';
import { randomSeed } from '../../match/rng.js';
import { EngineStartError, runMatch, startEngines, type DoneGame, type MatchPlan } from '../../match/runner.js';
import { buildSchedule, encounters, type ScheduledGame, type TournamentKind } from '../../match/schedule.js';
import type { Scoreboard } from '../../match/scoreboard.js';
import { describeTc } from '../../match/tc.js';
import { sprtConfigError, type SprtConfig, type SprtModel, type SprtStatus } from '../../stats/sprt.js';
import { killAllEngines, spawnEngine } from '../../node/engineProcess.js';
import { AppendFile } from '../../node/matchFiles.js';
import { checkOutputs } from '../../node/outputs.js';
import { startProgress } from '../../node/progress.js';
import { CliError } from '../errors.js';
import { loadOpenings } from './matchOpenings.js';
import { report } from '../output.js';
import { onStopSignals, sayOnStderr, signalExitCode } from '../../node/stopSignals.js';

/** The words after `match` on the command line (commander keeps the raw argv on the root command). */
export function matchArgv(cmd: Command): string[] {
  let root: Command = cmd;
  while (root.parent) root = root.parent;
  const raw = (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
  const at = raw.indexOf(cmd.name(), 2);
  return at >= 0 ? raw.slice(at + 1) : cmd.args;
}

/** The largest schedule a match builds. */
const MAX_GAMES = 10_000_000;

function fail(message: string): never {
  throw new CliError(`match: ${message}`, 2);
}

/** A file the match reads holds bad data: exit 1, where a bad option is a usage error (2). */
function badData(message: string): never {
  throw new CliError(`match: ${message}`, 1);
}

/** A number of a key=value group; `int` and `min` say what the key takes. */
function num(kv: Map<string, string>, key: string, what: string, dflt?: number, range: { int?: boolean; min?: number } = {}): number {
  const v = kv.get(key);
  if (v === undefined) {
    if (dflt === undefined) fail(`${what}: ${key}= is required`);
    return dflt;
  }
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) fail(`${what}: ${key}=${v} is not a number`);
  if (range.int && !Number.isInteger(n)) fail(`${what}: ${key}=${v} is not a whole number`);
  if (range.min !== undefined && n < range.min) fail(`${what}: ${key}=${v} is below ${range.min}`);
  return n;
}

function engineSpecs(a: MatchArgs): EngineSpec[] {
  const each = parseEngineKeys(a.each, '--each');
  if (typeof each === 'string') fail(each);
  const specs = a.engines.map((words, i) => {
    const own = parseEngineKeys(words, `engine ${i + 1}`);
    if (typeof own === 'string') fail(own);
    // cutechess users write cmd="engine --flag" (Qt splits it); split it when no such file exists.
    const cmd = own.keys.get('cmd') ?? each.keys.get('cmd');
    if (cmd !== undefined && /\s/.test(cmd) && !existsSync(resolve(own.keys.get('dir') ?? each.keys.get('dir') ?? '.', cmd))) {
      const [program, ...args] = splitArgs(cmd);
      own.keys.set('cmd', program!);
      own.args.unshift(...(own.args.length > 0 ? args : [...args, ...each.args]));
    }
    const s = makeEngineSpec(own, each, i);
    if (typeof s === 'string') fail(s);
    return s;
  });
  if (specs.length < 2) fail('at least two --engine definitions are needed');
  uniqueNames(specs);
  return specs;
}

function adjudication(a: MatchArgs): AdjudicationRules {
  const rules: AdjudicationRules = {};
  if (a.draw) {
    rules.draw = {
      moveNumber: num(a.draw, 'movenumber', '--draw', undefined, { int: true, min: 0 }),
      moveCount: num(a.draw, 'movecount', '--draw', undefined, { int: true, min: 1 }),
      score: num(a.draw, 'score', '--draw', undefined, { min: 0 }),
    };
  }
  if (a.resign) {
    const two = a.resign.get('twosided') ?? 'false';
    if (two !== 'true' && two !== 'false') fail(`--resign: twosided=${two} is not true or false`);
    rules.resign = {
      moveCount: num(a.resign, 'movecount', '--resign', undefined, { int: true, min: 1 }),
      score: num(a.resign, 'score', '--resign', undefined, { min: 0 }),
      twoSided: two === 'true',
    };
  }
  if (a.maxmoves > 0) rules.maxMoves = a.maxmoves;
  return rules;
}

function sprtConfig(a: MatchArgs, players: number): SprtConfig | undefined {
  if (!a.sprt) return undefined;
  if (players !== 2) fail('--sprt needs exactly two engines');
  const cfg: SprtConfig = {
    elo0: num(a.sprt, 'elo0', '--sprt'),
    elo1: num(a.sprt, 'elo1', '--sprt'),
    alpha: num(a.sprt, 'alpha', '--sprt', 0.05),
    beta: num(a.sprt, 'beta', '--sprt', 0.05),
    model: (a.sprt.get('model') ?? 'normalized') as SprtModel,
  };
  const e = sprtConfigError(cfg);
  if (e) fail(`--sprt: ${e}`);
  return cfg;
}

/** The identity's `key=value` options, whose order on the command line means nothing. */
const UNORDERED_IDENTITY = ['openings', 'sprt', 'draw', 'resign'] as const;

/** What identifies a match for --resume: everything that decides which games are played and how. */
function identity(a: MatchArgs, engines: EngineSpec[]): Record<string, unknown> {
  return {
    // initstr= sets up the engine as option.= does (cutechess users send setoption lines with it);
    // kept only when given, so journals of matches without it still resume.
    engines: engines.map((e) => ({
      name: e.name, cmd: e.cmd, args: e.args, dir: e.dir ?? null, proto: e.proto, options: e.options, tc: e.tc, restart: e.restart,
      ...(e.initStrings.length > 0 ? { initstr: e.initStrings } : {}),
    })),
    tournament: a.tournament,
    seeds: a.seeds,
    games: a.games,
    rounds: a.rounds,
    repeat: a.repeat,
    noswap: a.noswap,
    openings: a.openings ? [...a.openings] : null,
    sprt: a.sprt ? [...a.sprt] : null,
    draw: a.draw ? [...a.draw] : null,
    resign: a.resign ? [...a.resign] : null,
    maxmoves: a.maxmoves,
    event: a.event,
    site: a.site,
    pgnMin: a.pgnMin,
  };
}

export async function matchCommand(argv: readonly string[]): Promise<void> {
  const parsed = parseMatchArgs(argv);
  if (typeof parsed === 'string') fail(parsed);
  const a = parsed;
  const t0 = performance.now();
  const warn = (m: string): void => void process.stderr.write(`warning: ${m}\n`);
  if (a.tournament !== 'round-robin' && a.tournament !== 'gauntlet') fail(`--tournament ${a.tournament} is not round-robin or gauntlet`);
  if (a.games < 1 || a.rounds < 1 || a.repeat < 1 || a.concurrency < 1) fail('--games, --rounds, --repeat and --concurrency must be at least 1');
  const engines = engineSpecs(a);
  if (a.tournament === 'gauntlet' && a.seeds >= engines.length) fail(`--seeds ${a.seeds}: a gauntlet of ${engines.length} engines takes 1..${engines.length - 1} seeds`);
  if (a.concurrency > availableParallelism()) {
    warn(`--concurrency ${a.concurrency} is more than the ${availableParallelism()} hardware threads; engines will share cores and may lose on time`);
  }
  const rules = adjudication(a);
  const sprt = sprtConfig(a, engines.length);
  if (a.resume && !a.pgnout) fail('--resume needs --pgnout (the journal lives next to the PGN)');
  const openingsFile = a.openings?.get('file');
  const logs = [...new Set(engines.flatMap((e) => (e.stderrFile === undefined ? [] : [e.stderrFile])))].map((path) => ({ path, kind: 'text' as const, mode: 'append' as const, option: 'stderr=' }));
  const files = a.pgnout ? [{ path: a.pgnout, kind: 'pgn' as const, mode: 'append' as const, option: '--pgnout' }, { path: `${a.pgnout}.journal`, kind: 'text' as const, mode: 'update' as const, option: "--pgnout's journal" }] : [];
  checkOutputs([...files, ...logs], openingsFile ? [openingsFile] : []);

  // Resume: the journal next to the PGN says which games are done and which seed made the schedule.
  const journalPath = a.pgnout ? `${a.pgnout}.journal` : undefined;
  const id = identity(a, engines);
  // The suite's bytes, not only its name: an edited or replaced file would give the games still
  // to play other openings, splitting pairs between two suites. An unreadable file is left to
  // the openings loader, which says why.
  if (openingsFile !== undefined) {
    try {
      id.openingsContent = `sha256:${createHash('sha256').update(readFileSync(openingsFile)).digest('hex')}`;
    } catch {
      /* reported by loadOpenings */
    }
  }
  let seed = a.srand ?? randomSeed();
  const done = new Map<number, DoneGame>();
  let pgnSize: number | undefined;
  // A journal whose last line was torn by a crash: where its complete lines end, so the resumed
  // match appends after them instead of gluing its first record onto the fragment.
  let journalFix: JournalTail = {};
  if (a.resume && journalPath && existsSync(journalPath)) {
    let j;
    try {
      const bytes = readFileSync(journalPath);
      journalFix = journalTail(bytes);
      j = parseJournal(bytes.toString('utf8'), journalPath);
    } catch (e) {
      badData(`--resume: ${(e as Error).message}`);
    }
    // Journals written before the suite's content was kept resume as they did.
    if (!('openingsContent' in j.header.identity)) delete id.openingsContent;
    else if (!('openingsContent' in id)) id.openingsContent = j.header.identity.openingsContent;
    // A header whose fields are not a match's own is damaged, not another match's.
    const fields = identityFieldsDiff(j.header.identity, id);
    if (fields) badData(`--resume: ${journalPath}:1: the match header is damaged or from another version of tabiya: ${fields}`);
    const diff = identityDiff(j.header.identity, id, UNORDERED_IDENTITY);
    if (diff) fail(`--resume: ${journalPath} was written by a different match (${diff} differs)`);
    if (a.srand !== undefined && a.srand !== j.header.seed) fail(`--resume: --srand ${a.srand} differs from the journal's seed ${j.header.seed}`);
    seed = j.header.seed;
    for (const g of j.games) {
      const d: DoneGame = { result: g.result as GameRecord['result'] };
      if (g.fault) d.fault = g.fault;
      if (g.time) d.time = g.time;
      done.set(g.number, d);
    }
    pgnSize = j.games.length > 0 ? j.games[j.games.length - 1]!.pgnBytes : j.header.pgnStart;
    // Cutting back a longer PGN drops a torn game; a shorter one lost games the journal counts.
    const have = existsSync(a.pgnout!) ? statSync(a.pgnout!).size : 0;
    if (have < pgnSize) badData(`--resume: ${a.pgnout} holds ${have} bytes, but ${journalPath} vouches for ${pgnSize}: the PGN was cut or changed since, and games the journal counts are missing from it`);
  } else if (a.resume) {
    warn(`--resume: no journal ${journalPath}; starting from the first game`);
  } else if (journalPath && existsSync(journalPath)) {
    // A new match would overwrite the journal, and with it the only way to resume the old one.
    let j;
    try {
      j = parseJournal(readFileSync(journalPath, 'utf8'), journalPath);
    } catch (e) {
      fail(`${(e as Error).message}; a new match would overwrite it: delete it or choose another --pgnout`);
    }
    if (!j.end && j.games.length > 0) {
      fail(`${journalPath} holds an unfinished match (${countOf(j.games.length, 'game')} played): run the same command with --resume to continue it, or delete the journal to start a new match (its games are appended to ${a.pgnout})`);
    }
  }

  // The schedule is built in memory, one object a game: a typo of a few digits must not exhaust it.
  const planned = encounters({ players: engines.length, tournament: a.tournament as TournamentKind, seeds: a.seeds }).length * a.games * a.rounds;
  if (planned > MAX_GAMES) fail(`${planned.toLocaleString('en-US')} games planned; a match plays at most ${MAX_GAMES.toLocaleString('en-US')} (lower --games or --rounds)`);
  // cutechess's policy=default and encounter, and a single encounter's policy=round (fastchess
  // knows only round), are this schedule: a new opening for each repeat group of an encounter.
  // With more encounters, round (every encounter of a round on one opening) is not: refused.
  const policy = a.openings?.get('policy');
  if (policy === 'round' && encounters({ players: engines.length, tournament: a.tournament as TournamentKind, seeds: a.seeds }).length > 1) {
    fail('--openings: policy=round (one opening for every encounter of a round) is not supported: each encounter gets its own openings (policy=default); with two engines the two are the same');
  }
  const openings = a.openings ? loadOpenings(a.openings, seed, warn, 'match') : undefined;
  const schedule = buildSchedule({
    players: engines.length,
    tournament: a.tournament as TournamentKind,
    games: a.games,
    rounds: a.rounds,
    repeat: a.repeat,
    noswap: a.noswap,
    seeds: a.seeds,
  });
  if (openings && Number.isFinite(openings.size) && schedule.length > 0) {
    const used = schedule[schedule.length - 1]!.opening + 1;
    if (used > openings.size) warn(`${used} openings are needed but the suite has ${openings.size}; it is reused from the top`);
  }
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS };
  if (a.startupMs !== undefined) timeouts.startupMs = a.startupMs;
  if (a.readyMs !== undefined) timeouts.readyMs = a.readyMs;
  if (a.stallMs !== undefined) timeouts.stopWaitMs = a.stallMs;
  if (a.moveMs !== undefined) timeouts.untimedMoveMs = a.moveMs;

  // Every engine is started and greeted before any file is touched or game is played: a wrong
  // command, an engine that exits at once or never answers is an error, not a match of forfeits.
  const queue = schedule.filter((g) => !done.has(g.number));
  let started: EnginePlayer[][] | undefined;
  if (queue.length > 0) {
    try {
      started = await startEngines(engines, queue, spawnEngine, timeouts, 2 * Math.min(a.concurrency, queue.length));
    } catch (e) {
      killAllEngines();
      if (e instanceof EngineStartError) throw new CliError(`match: ${e.message}`, 1);
      throw e;
    }
  }

  const resuming = done.size > 0 || pgnSize !== undefined;
  // The PGN is appended to (as cutechess does); a resume first cuts what the journal does not vouch for.
  // The engines are running by now: a file that cannot be written (a full disk) must stop them
  // too, or the process, its error printed, would wait on them for ever.
  let pgn: AppendFile | undefined;
  let journal: AppendFile | undefined;
  try {
    pgn = a.pgnout ? new AppendFile(a.pgnout, resuming ? { truncateTo: pgnSize ?? 0 } : {}) : undefined;
    journal = journalPath ? new AppendFile(journalPath, resuming ? journalFix : { fresh: true }) : undefined;
    if (journal && resuming && journalFix.newline) journal.append('\n');
    if (pgn && !resuming) pgn.endParagraph();
    if (journal && pgn && !resuming) journal.append(journalLine({ type: 'match', version: 1, identity: id, seed, pgnStart: pgn.size }));
  } catch (e) {
    pgn?.close();
    journal?.close();
    killAllEngines();
    // A new journal cut short would block the next run ("unreadable journal line"): it holds
    // no game yet, so nothing is lost with it.
    if (journal && !resuming) rmSync(journal.path, { force: true });
    throw new CliError(`match: ${e instanceof Error ? e.message : String(e)}`, 1);
  }

  const total = schedule.length;
  const text = !a.json;
  const out = (line: string): void => void process.stdout.write(line + '\n');
  const progress = startProgress({ label: 'match', total, unit: 'games', start: done.size, quiet: a.quiet || (text && process.stdout.isTTY === true) });
  const names = engines.map((e) => e.name);
  const plan: MatchPlan = {
    engines,
    schedule,
    rules,
    concurrency: a.concurrency,
    waitMs: a.waitMs,
    recover: a.recover,
    timeouts,
    repeat: a.repeat,
    done,
  };
  if (openings) plan.openings = openings;
  if (sprt) plan.sprt = sprt;
  if (started) plan.started = started;

  if (text) {
    out(`Match of ${engines.length} engines, ${countOf(total, 'game')} (${engines.map((e) => `${e.name}: ${describeTc(e.tc)}`).join(', ')}), seed ${seed}`);
    if (done.size > 0) out(`Resuming: ${done.size} of ${total} games already played`);
  }
  const onGameStart = (g: ScheduledGame): void => {
    if (text && !a.quiet) out(`Started game ${g.number} of ${total} (${names[g.white]} vs ${names[g.black]})`);
  };
  let finished = done.size;
  /** What the last finished game printed: its score line (always), and the block after it. */
  let shown: { games: number; block: boolean } | undefined;
  const onGameEnd = (rec: GameRecord, g: ScheduledGame, board: Scoreboard, status: SprtStatus | undefined): void => {
    if (pgn && journal) {
      const bytes = pgn.append(formatGamePgn(rec, { event: a.event, site: a.site, round: String(g.group + 1), minimal: a.pgnMin }));
      const entry: JournalGame = { type: 'game', number: g.number, result: rec.result, reason: rec.reason, termination: rec.termination, pgnBytes: bytes };
      if (rec.fault) entry.fault = rec.fault;
      if (rec.time) entry.time = rec.time;
      journal.append(journalLine(entry));
    }
    finished++;
    const e = engines.length === 2 ? board.encounter(0, 1) : undefined;
    progress.update(finished, e ? `${names[0]} vs ${names[1]}: ${e.wdl.wins}-${e.wdl.losses}-${e.wdl.draws} (W-L-D)` : '');
    if (!text || a.quiet) return;
    out(`Finished game ${g.number} (${rec.white} vs ${rec.black}): ${rec.result} {${rec.reason}}`);
    if (e) out(scoreLine(names[0]!, names[1]!, e.wdl));
    const block = a.ratingInterval > 0 && board.games % a.ratingInterval === 0;
    if (block) {
      for (const line of e ? encounterBlock(e, names, status).slice(1) : rankingTable(board.players)) out(line);
    }
    shown = { games: board.games, block };
  };

  // First Ctrl-C (or SIGTERM, or SIGHUP: a closed terminal, a dropped ssh session): stop games,
  // save, report. Second: kill the engines at once. The exit status says which signal it was.
  const abort = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (stoppedBy === undefined) {
      stoppedBy = sig;
      sayOnStderr('\nInterrupting the match; games in progress are not counted (press Ctrl-C again to kill the engines)\n');
      abort.abort();
    } else killAllEngines();
  };
  const offSignals = onStopSignals(onSignal);
  let outcome;
  try {
    outcome = await runMatch(plan, spawnEngine, { onGameStart, onGameEnd, onWarning: warn }, abort.signal);
    if (journal && outcome.stopped !== 'interrupted' && outcome.stopped !== 'fault' && outcome.stopped !== 'error') {
      journal.append(journalLine({ type: 'end', stopped: outcome.stopped, games: outcome.board.games }));
    }
  } catch (e) {
    throw new CliError(`match: ${e instanceof Error ? e.message : String(e)}`, 1);
  } finally {
    offSignals();
    progress.stop();
    pgn?.close();
    journal?.close();
    killAllEngines();
  }

  const summary = jsonSummary(outcome.board, {
    stopped: outcome.stopped,
    durationMs: performance.now() - t0,
    ...(sprt && outcome.sprt ? { sprt: { config: sprt, status: outcome.sprt } } : {}),
    ...(a.pgnout ? { pgn: a.pgnout } : {}),
    ...(outcome.message ? { message: outcome.message } : {}),
  });
  report(a.json, summary, () => {
    let lines = reportLines(outcome.board, outcome.sprt);
    // As cutechess-cli ends a match (EngineMatch::onTournamentFinished): the score line the last
    // game printed, and the block when the rating interval printed it after that game, are not
    // printed again.
    if (shown !== undefined && shown.games === outcome.board.games) {
      const two = engines.length === 2;
      const sprtDecided = outcome.sprt?.decision !== undefined;
      if (shown.block && !sprtDecided) lines = lines.slice(two ? (outcome.sprt ? 6 : 5) : rankingTable(outcome.board.players).length);
      else if (two) lines = lines.slice(1);
    }
    lines.push(...faultLines(outcome.board.players), ...timeLines(outcome.board.players));
    if (outcome.message) lines.push(outcome.message);
    if (outcome.stopped === 'interrupted') {
      lines.push(`Match interrupted after ${countOf(outcome.board.games, 'game')}.${a.pgnout ? ' To resume it, run the same command with --resume.' : ''}`);
    } else if (outcome.stopped === 'fault' || outcome.stopped === 'error') {
      lines.push(`Match stopped after ${countOf(outcome.board.games, 'game')}.`);
    } else {
      lines.push('Finished match');
    }
    return lines.join('\n');
  });
  if (outcome.stopped === 'interrupted') process.exitCode = signalExitCode(stoppedBy ?? 'SIGINT');
  else if (outcome.stopped === 'fault' || outcome.stopped === 'error') process.exitCode = 1;
}

interface JournalTail {
  /** Cut the file here: its last line is a fragment. */
  truncateTo?: number;
  /** Its last line is a whole record without its newline. */
  newline?: boolean;
}

/**
 * How a journal that did not end with a newline (a crash during a write) is to be continued: a
 * last line that does not parse, which parseJournal ignores, is cut off; one that parses gets its
 * newline. Either way the next record starts a line of its own.
 */
function journalTail(bytes: Buffer): JournalTail {
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return {};
  const cut = bytes.lastIndexOf(0x0a) + 1;
  try {
    JSON.parse(bytes.subarray(cut).toString('utf8'));
    return { newline: true };
  } catch {
    return { truncateTo: cut };
  }
}
