/**
 * The command table. Each entry declares its options and imports its implementation only
 * when run. Commands print with `report` (text or --json) and fail by throwing CliError.
 */
import { Option, type Command } from 'commander';
import { POLICY_OPTIONS, policyOptionDefault } from '../book/select/options.js';
import { CliError } from './errors.js';

/** --force on a book output: what a book command refuses to replace without it. */
const FORCE_BOOK = 'replace an existing output that holds something else (user values, learning, a file of another kind)';
/** --force on a text output (PGN, EPD, JSON): only a file of another kind is refused. */
const FORCE_TEXT = 'replace an existing output that is a file of another kind (a book, binary data)';

export function registerCommands(program: Command): void {
  program
    .command('perft')
    .description('count leaf nodes of the legal move tree (move-generator check and speed test)')
    .option('--fen <fen>', 'position (default: the start position)')
    .option('--depth <n>', 'depth in plies (default 5)')
    .option('--divide', 'print the count below each root move')
    .option('--no-bulk', 'play every leaf move instead of counting the last ply from the move list')
    .option('--suite <file.epd>', 'run a perft suite (EPD with D1..Dn operations) and list every mismatch')
    .option('--max-depth <n>', 'with --suite: deepest depth to check', '4')
    .option('--json', 'print one JSON object')
    .action(async (opts, cmd: Command) => {
      // The two modes take different options; one of the other mode would be ignored without a
      // word (`--suite X --depth 6` checked to depth 4, not 6).
      const given = (k: string): boolean => cmd.getOptionValueSource(k) === 'cli';
      const suite = opts.suite !== undefined;
      for (const [key, flag] of suite ? [['fen', '--fen'], ['depth', '--depth'], ['divide', '--divide'], ['bulk', '--no-bulk']] : [['maxDepth', '--max-depth']]) {
        if (given(key!)) throw new CliError(suite ? `${flag} does not apply to --suite, which checks each position's own D1..Dn counts up to --max-depth` : `${flag} applies to --suite only (one position: --depth)`, 2);
      }
      return (await import('./commands/perft.js')).perftCommand(opts);
    });

  const match = program
    .command('match')
    .description('play engine-vs-engine matches and tournaments (cutechess-cli style; see docs/match.md)')
    .option('--engine <key=value...>', 'an engine (repeat per engine): name= cmd= arg= args= dir= proto=uci|xboard option.NAME= tc= st= nodes= depth= timemargin= restart= initstr= stderr=')
    .option('--each <key=value...>', 'settings shared by every engine (an engine\'s own keys win)')
    .option('--tournament <kind>', 'round-robin or gauntlet', 'round-robin')
    .option('--seeds <n>', 'gauntlet: engines that play everyone else', '1')
    .option('--games <n>', 'games per encounter per round', '1')
    .option('--rounds <n>', 'rounds', '1')
    .option('--repeat [n]', 'play each opening n times, colours swapped (alone: 2, game pairs)')
    .option('--noswap', 'do not alternate colours')
    .option('--concurrency <n>', 'games played at the same time', '1')
    .option('--openings <key=value...>', 'file= format=epd|pgn|polyglot order=sequential|random plies= start= policy=default|encounter|round')
    .option('--srand <seed>', 'seed of the opening order and book choices (recorded for --resume)')
    .option('--sprt <key=value...>', 'elo0= elo1= alpha=0.05 beta=0.05 model=normalized|logistic|bayesian|cutechess: stop at a decision')
    .option('--draw <key=value...>', 'movenumber= movecount= score=: adjudicate draws')
    .option('--resign <key=value...>', 'movecount= score= [twosided=true]: adjudicate losses')
    .option('--maxmoves <n>', 'draw after n moves by each side')
    .option('--pgnout <file...>', 'append every finished game to this PGN (add "min" for no move comments)')
    .option('--resume', 'continue an interrupted match (same command, same --pgnout)')
    .option('--event <name>', 'PGN Event tag')
    .option('--site <name>', 'PGN Site tag')
    .option('--wait <ms>', 'pause between games')
    .option('--no-recover', 'stop the match when an engine crashes or stalls (default: restart it and go on)')
    .option('--startup-ms <ms>', 'handshake timeout', '10000')
    .option('--ready-ms <ms>', 'timeout of isready/ping and new-game set-up', '60000')
    .option('--stall-ms <ms>', 'after stop at the deadline, wait this long before killing the engine', '5000')
    .option('--move-ms <ms>', 'a search without a clock (depth= or nodes= only) is stopped after this long; no move then is a stall', '600000')
    .option('--ratinginterval <n>', 'print the Elo lines every n games (0: only at the end)', '10')
    .option('--quiet', 'no per-game lines or progress')
    .option('--json', 'print one JSON object at the end')
    // Engine blocks are read from the raw words (repeated variadic options cannot be told apart), and
    // cutechess's single-dash spelling (-engine, -each, -games) is accepted too.
    .allowUnknownOption()
    .allowExcessArguments();
  match.action(async () => {
    const m = await import('./commands/match.js');
    await m.matchCommand(m.matchArgv(match));
  });

  const stats = program.command('stats').description('Elo, error bars, LOS and SPRT from match counts');
  stats
    .command('elo')
    .description('Elo, nElo, error bars and LOS of W/D/L or pentanomial counts')
    .option('--wdl <W,D,L>', 'wins, draws, losses of the first player')
    .option('--penta <LL,LD,WLDD,WD,WW>', 'game-pair counts (or the six LL,LD,WL,DD,WD,WW)')
    .option('--json', 'print one JSON object')
    .action(async (opts) => (await import('./commands/stats.js')).statsEloCommand(opts));
  stats
    .command('sprt')
    .description('log-likelihood ratio of an SPRT and its decision')
    .option('--wdl <W,D,L>', 'wins, draws, losses of the first player')
    .option('--penta <LL,LD,WLDD,WD,WW>', 'game-pair counts (or the six LL,LD,WL,DD,WD,WW)')
    .option('--elo0 <elo>', 'H0 bound', '0')
    .option('--elo1 <elo>', 'H1 bound', '5')
    .option('--alpha <p>', 'false-positive rate', '0.05')
    .option('--beta <p>', 'false-negative rate', '0.05')
    .option('--model <model>', 'normalized (nElo bounds), logistic, bayesian or cutechess', 'normalized')
    .option('--json', 'print one JSON object')
    .action(async (opts) => (await import('./commands/stats.js')).statsSprtCommand(opts));

  const pgn = program.command('pgn').description('PGN tools: statistics, filtering and cleaning of game files (see docs/pgn.md)');
  pgn
    .command('stats')
    .description('read every game, replay and validate the main line, print counts and broken games')
    .argument('<files...>', 'PGN files (.gz, .zst, .bz2 read transparently; - for stdin)')
    .option('--errors <n>', 'locations to list per kind of broken game, and of games whose [Result] tag and movetext disagree', '3')
    .option('--strict', 'exit with status 1 if any game is broken')
    .option('--quiet', 'no progress')
    .option('--json', 'print one JSON object')
    .action(async (files, opts) => (await import('./commands/pgnStats.js')).pgnStatsCommand(files, opts));
  const collect = (v: string, prev: string[] = []): string[] => [...prev, v];
  pgn
    .command('filter')
    .description('copy the games that pass every condition, unchanged; broken games are dropped and listed')
    .argument('<files...>', 'PGN files (.gz, .zst, .bz2 read transparently; - for stdin)')
    .requiredOption('-o, --output <file>', 'output PGN (- for stdout)')
    .option('--force', FORCE_TEXT)
    .option('--min-elo <n>', 'both players rated at least n')
    .option('--player <name>', 'White or Black contains name, case-insensitive (repeatable: any)', collect)
    .option('--white <name>', 'White contains name, case-insensitive (repeatable: any): one player\'s games as White', collect)
    .option('--black <name>', 'Black contains name, case-insensitive (repeatable: any): one player\'s games as Black', collect)
    .option('--result <result>', '1-0, 0-1, 1/2-1/2 or * (repeatable: any)', collect)
    .option('--from-start', 'drop games set up from a [FEN] tag')
    .option('--min-plies <n>', 'main line at least n plies')
    .option('--max-plies <n>', 'main line at most n plies')
    .option('--date-from <date>', 'played on or after YYYY[.MM[.DD]]')
    .option('--date-to <date>', 'played on or before YYYY[.MM[.DD]]')
    .option('--tag <Name=value>', 'tag equals value (repeatable: all)', collect)
    .option('--position <fen>', 'main line reaches the position, in any move order (repeatable: any)', collect)
    .option('--dedupe', 'keep only the first of identical games (same start, main line and result)')
    .option('--errors <n>', 'broken games to list on stderr', '20')
    .option('--quiet', 'no progress, no list of skipped games')
    .option('--json', 'print one JSON object')
    .action(async (files, opts) => (await import('./commands/pgnFilter.js')).pgnFilterCommand(files, opts));
  pgn
    .command('clean')
    .description('re-export valid games in standard form without comments, NAGs or variations; list dropped games')
    .argument('<files...>', 'PGN files (.gz, .zst, .bz2 read transparently; - for stdin)')
    .requiredOption('-o, --output <file>', 'output PGN (- for stdout)')
    .option('--force', FORCE_TEXT)
    .option('--errors <n>', 'broken games to list on stderr', '20')
    .option('--quiet', 'no progress, no list of dropped games')
    .option('--json', 'print one JSON object')
    .action(async (files, opts) => (await import('./commands/pgnClean.js')).pgnCleanCommand(files, opts));

  const book = program.command('book').description('opening books: Polyglot .bin (docs/books.md) and rich .tbk (docs/rich-books.md); the extension picks the format');
  // Rich books (.tbk) are picked by extension; their commands live in commands/rich*.ts.
  const tbk = (path: unknown): boolean => typeof path === 'string' && path.toLowerCase().endsWith('.tbk');
  const bookMake = book
    .command('make')
    .description('build a book from PGN games: a .bin byte-identical to polyglot make-book (see --help), or a rich .tbk')
    .argument('<pgn...>', 'PGN files (.gz, .zst, .bz2 read transparently; - for stdin)')
    .requiredOption('-o, --output <book.bin|book.tbk>', 'book to write (replaced only when complete)')
    .option('--force', FORCE_BOOK)
    .option('--max-ply <n>', 'record the first n plies of each game', '1024')
    .option('--min-games <n>', 'drop moves played in fewer than n games (default: 3 for a .bin; a .tbk keeps every move)')
    .option('--min-score <percent>', '.bin: drop moves scoring below this percentage for the mover (.tbk: give it to book export)', '0')
    .option('--only-white', '.bin: keep only White-to-move positions (with --only-black, the last one given wins)')
    .option('--only-black', '.bin: keep only Black-to-move positions')
    .option('--uniform', '.bin: write weight 1 for every move kept')
    .option('--min-elo <n>', 'use only games where both players are rated at least n')
    .option('--player <name>', 'use only games where White or Black contains name (repeatable: any)', collect)
    .option('--white <name>', 'use only games where White contains name (repeatable: any): a player\'s games as White', collect)
    .option('--black <name>', 'use only games where Black contains name (repeatable: any): a player\'s games as Black', collect)
    .option('--result <result>', 'use only games with this [Result]: 1-0, 0-1, 1/2-1/2, * (repeatable)', collect)
    .option('--from-start', 'skip games set up from a [FEN] tag')
    .option('--date-from <date>', 'use only games played on or after YYYY[.MM[.DD]]')
    .option('--date-to <date>', 'use only games played on or before YYYY[.MM[.DD]]')
    .option('--tag <Name=value>', 'use only games whose tag equals value (repeatable: all)', collect)
    .option('--threads <n>', 'parse with n threads ("auto": one per core); the book is the same', '1')
    .option('--memory <size>', 'memory for counting (e.g. 1G, 512M; default 1G): past it, sorted runs go to --tmp-dir and are merged; the book is the same')
    .option('--tmp-dir <dir>', 'where spilled runs go (default: the system temporary directory)')
    .option('--split <kinds>', '.tbk: keep counts per rating band, speed and/or month (rating,speed,month) for query-time filters')
    .option('--shard <I/N>', '.tbk: build shard I of N of the inputs, a partial book for book merge (a block of the inputs, or a byte range of one plain PGN)')
    .option('--errors <n>', 'broken games to list on stderr', '20')
    .option('--quiet', 'no progress, no list of skipped games')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\nDifferences from polyglot make-book, on purpose: a broken game is skipped and listed (file:line and why)\n' +
        'instead of aborting the run; games with a [FEN] tag are replayed from their own position (polyglot\n' +
        'replays them from the initial position, so it mis-keys or rejects them; --from-start skips them);\n' +
        'failures exit non-zero; the book is written to a temporary file and renamed. On clean input from\n' +
        'the initial position the output is byte-identical to polyglot make-book with the same options.\n' +
        '\nAn input without a single game (empty, only comments, only broken games) fails with exit 1 and\n' +
        'writes nothing. Games read but no move kept (--min-games, --min-score, a colour, filters) is an\n' +
        'empty book, written with a note on stderr. With -o X.tbk every move is kept unless --min-games is\n' +
        'given; --min-score, --only-white/--only-black and --uniform shape the Polyglot export (book export).',
    )
    .action(async (files, opts, cmd) => {
      onlyFor(cmd, tbk(opts.output) ? '.tbk' : '.bin', { '.tbk': ['split', 'shard'] });
      return tbk(opts.output)
        ? (await import('./commands/richMake.js')).richMakeCommand(files, opts, (name) => cmd.getOptionValueSource(name) === 'cli')
        : (await import('./commands/bookMake.js')).bookMakeCommand(files, opts);
    });
  // Polyglot semantics: -only-white and -only-black overwrite each other, the last one wins.
  bookMake.on('option:only-white', () => bookMake.setOptionValue('colour', 'white'));
  bookMake.on('option:only-black', () => bookMake.setOptionValue('colour', 'black'));
  hiddenAlias(bookMake, '--min-game <n>', 'minGames');
  book
    .command('merge')
    .description('merge books like polyglot merge-book 2.0 (weights of shared moves added, saturating at 65535)')
    .argument('<books...>', 'two or more books, merged left to right')
    .requiredOption('-o, --output <book.bin|book.tbk>', 'book to write')
    .option('--force', FORCE_BOOK)
    .option('--priority <rule>', '.bin: sum: add weights of shared moves (PolyGlot 2.0); first: the earlier book wins a position (PolyGlot 1.4)', 'sum')
    .option('--polyglot-compat', '.bin: wrap summed weights modulo 65536 as PolyGlot does, instead of saturating')
    .option('--min-games <n>', '.tbk: leave out moves with fewer games in the merged book (default: 0, keep all); partial books into a .bin: make-book\'s --min-games (default 3); shards built with --min-games: theirs')
    .option('--memory <size>', '.tbk and partial books: memory for sorting (e.g. 1G; default 1G)')
    .option('--threads <n>', '.tbk: replay each book\'s games on n threads ("auto": one per core); the book is the same', '1')
    .option('--tmp-dir <dir>', '.tbk and partial books: where spilled runs go')
    .option('--json', 'print one JSON object')
    .option('--quiet', 'no progress')
    .action(async (files: string[], opts, cmd: Command) => {
      const format = tbk(opts.output) ? '.tbk' : '.bin';
      // Rich books merge into a .tbk, or into the .bin of their merge (the shards of a sharded build).
      const richIn = files.every((f) => tbk(f));
      if (richIn && !tbk(opts.output)) {
        onlyFor(cmd, '.tbk', { '.bin': ['priority', 'polyglotCompat'], '.tbk': [] });
        return (await import('./commands/richMerge.js')).richMergeToBinCommand(files, opts);
      }
      onlyFor(cmd, format, { '.bin': ['priority', 'polyglotCompat'], '.tbk': ['minGames', 'memory', 'tmpDir'] });
      if (tbk(opts.output)) return (await import('./commands/richMerge.js')).richMergeCommand(files, opts);
      // A .tbk input among .bin ones would otherwise be read as a Polyglot book and reported as unsorted.
      const rich = files.find((f) => tbk(f));
      if (rich !== undefined) (await import('./commands/richCommon.js')).polyglotOnly(rich, 'book merge -o X.bin');
      return (await import('./commands/bookMerge.js')).bookMergeCommand(files, opts);
    });
  book
    .command('dump')
    .description('list the lines of a book for one colour, exactly as polyglot dump-book writes them')
    .argument('<book>', 'Polyglot book')
    .option('--color <colour>', 'white or black')
    .option('--colour <colour>', 'same as --color')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option('--force', 'replace an existing output that holds something else (a file of another kind)')
    .action(async (file, opts) => {
      if (opts.color !== undefined && opts.colour !== undefined && opts.color !== opts.colour) throw new CliError(`--color ${opts.color} and --colour ${opts.colour} disagree: give one`, 2);
      return tbk(file)
        ? (await import('./commands/richCommon.js')).polyglotOnly(file, 'book dump')
        : (await import('./commands/bookDump.js')).bookDumpCommand(file, { ...opts, color: opts.color ?? opts.colour });
    });
  book
    .command('info')
    .description("what a book holds: polyglot info-book's counts (.bin), header and checksum (.tbk)")
    .argument('<book>', 'Polyglot .bin or rich .tbk book')
    .option('--exact', '.bin: also count positions unreachable by book lines (slow, like info-book -exact)')
    .option('--no-lines', '.bin: skip the walk of the lines from the start position')
    .option('--json', 'print one JSON object')
    .action(async (file, opts, cmd: Command) => {
      onlyFor(cmd, tbk(file) ? '.tbk' : '.bin', { '.bin': ['exact', 'lines'] });
      return tbk(file) ? (await import('./commands/richInfo.js')).richInfoCommand(file, opts) : (await import('./commands/bookInfo.js')).bookInfoCommand(file, opts);
    });
  const bookProbe = book
    .command('probe')
    .description('the opening name and book moves of a position: weight, share and learn data (.bin); statistics and policy (.tbk)')
    .argument('<book>', 'Polyglot .bin or rich .tbk book')
    .option('--fen <fen>', 'position (default: the start position)')
    .option('--moves <moves>', 'moves played from it, UCI or SAN, e.g. "e2e4 e7e5" or "e4 e5 Nf3"')
    .option('--min-weight <n>', '.bin: ignore entries below this weight', '1')
    .option('--ratings <bands>', '.tbk built with --split rating: only games of these rating bands (0,1000,1200,1400,1600,1800,2000,2200,2500)')
    .option('--speeds <speeds>', '.tbk built with --split speed: only ultraBullet,bullet,blitz,rapid,classical,correspondence games')
    .option('--since <YYYY-MM>', '.tbk built with --split month: only games of this month or later')
    .option('--until <YYYY-MM>', '.tbk built with --split month: only games of this month or earlier')
    .option('--choose <policy>', 'also pick one move: best, weighted or uniform (.tbk: any --policy)')
    .option('--seed <n>', 'random seed for --choose')
    .option('--explain', '.tbk: say why each move is in or out of play');
  // The policy settings come from the table the engine's options come from (src/book/select/options.ts).
  for (const o of POLICY_OPTIONS) {
    const value = o.type === 'check' ? 'on|off' : o.type === 'combo' ? 'name' : 'n';
    const d = policyOptionDefault(o);
    bookProbe.option(`--${o.flag} <${value}>`, `.tbk, ${o.description} (default ${o.type === 'check' ? (d === 'true' ? 'on' : 'off') : d})`);
  }
  hiddenAlias(bookProbe, '--book-treshold <permille>', 'bookThreshold');
  bookProbe.option('--json', 'print one JSON object').action(async (file, opts, cmd: Command) => {
    const policy = POLICY_OPTIONS.map((o) => camel(o.flag));
    onlyFor(cmd, tbk(file) ? '.tbk' : '.bin', { '.bin': ['minWeight'], '.tbk': ['explain', 'ratings', 'speeds', 'since', 'until', ...policy] });
    if (opts.seed !== undefined && opts.choose === undefined) throw new CliError('--seed is the seed of --choose: give --choose too', 2);
    return tbk(file) ? (await import('./commands/richProbe.js')).richProbeCommand(file, opts) : (await import('./commands/bookProbe.js')).bookProbeCommand(file, opts);
  });
  book
    .command('reach')
    .description('the book positions reachable within n plies (both sides moving), best first; the nearest ones when none is (docs/conversion.md)')
    .argument('<book>', 'Polyglot .bin or rich .tbk book')
    .option('--fen <fen>', 'position (default: the start position)')
    .option('--moves <moves>', 'moves played from it, UCI or SAN, e.g. "e2e4 e7e5" or "e4 e5 Nf3"')
    .option('--plies <n>', 'plies to look ahead, both sides (1..12)', '4')
    .option('--limit <k>', 'reachable positions to list', '10')
    .option('--nearest', 'also list the nearest stored positions with their moves as hints (always when nothing is reachable)')
    .option('--min-games <n>', '.tbk: follow book moves of at least n games when indexing the book (default 2: a .tbk keeps single games)')
    .option('--max-nodes <n>', 'stop the search after n nodes (the list may then be incomplete, and says so)', '5000000')
    .option('--no-cache', 'walk the book again instead of using the index saved by an earlier run (in ~/.cache/tabiya/reach, or $XDG_CACHE_HOME, or $TABIYA_CACHE_DIR), and save none')
    .option('--json', 'print one JSON object')
    .option('--quiet', 'no progress')
    .action(async (file, opts) => (await import('./commands/bookReach.js')).bookReachCommand(file, opts));
  book
    .command('audit')
    .description('the engine checks a book: every book move above the thresholds searched against the best move; moves losing more than the margin listed with their refutation')
    .argument('<book>', 'Polyglot .bin or rich .tbk book')
    .option('--depth <n>', 'search depth per position and move (default 10; moves above the margin are confirmed 2 plies deeper)')
    .option('--nodes <n>', 'instead of a depth: nodes per search (confirmation: 4 times as many)')
    .option('--min-games <n>', '.tbk: check and follow only moves played in at least n games', '3')
    .option('--min-weight <n>', '.bin: check and follow only entries of at least this weight', '1')
    .option('--margin <cp>', 'flag moves losing more than this many centipawns against the best move', '100')
    .option('--max-ply <n>', 'audit only positions before this ply (1: the start position alone)')
    .option('--threads <n>', 'positions searched at once ("auto": one per core)', 'auto')
    .option('--hash <mb>', 'hash table of each search thread, MB', '16')
    .option('--journal <file>', 'where finished positions are recorded for a resumed run (default: BOOK.audit)')
    .option('--fresh', 'start a new journal instead of resuming the one there')
    .option('--mark', '.tbk version 2: write the verdicts into the book (evaluation per move; flagged moves forbidden)')
    .option('--quiet', 'no progress')
    .option('--json', 'print one JSON object')
    .action(async (file, opts, cmd: Command) => {
      // Defaults shown in the help are not "given": only options typed on the command line are checked against the format.
      const given = (k: string): boolean => cmd.getOptionValueSource(k) === 'cli';
      return (await import('./commands/bookAudit.js')).bookAuditCommand(file, { ...opts, minGames: given('minGames') ? opts.minGames : undefined, minWeight: given('minWeight') ? opts.minWeight : undefined });
    });
  book
    .command('add')
    .description('.tbk: count more games into a rich book (Terra: add games); same filters as book make')
    .argument('<book.tbk>', 'rich book to change')
    .argument('<pgn...>', 'PGN files (.gz, .zst, .bz2 read transparently; - for stdin)')
    .option('--max-ply <n>', "record the first n plies of each game (default: the book's)")
    .option('--min-elo <n>', 'use only games where both players are rated at least n')
    .option('--player <name>', 'use only games where White or Black contains name (repeatable: any)', collect)
    .option('--white <name>', 'use only games where White contains name (repeatable: any): a player\'s games as White', collect)
    .option('--black <name>', 'use only games where Black contains name (repeatable: any): a player\'s games as Black', collect)
    .option('--result <result>', 'use only games with this [Result] (repeatable)', collect)
    .option('--tag <Name=value>', 'use only games whose tag equals value (repeatable: all)', collect)
    .option('--from-start', 'skip games set up from a [FEN] tag')
    .option('--date-from <date>', 'use only games played on or after YYYY[.MM[.DD]]')
    .option('--date-to <date>', 'use only games played on or before YYYY[.MM[.DD]]')
    .option('--threads <n>', 'replay the book\'s games on n threads ("auto": one per core); the book is the same', '1')
    .option('--memory <size>', 'memory for counting (e.g. 1G, 512M; default 1G)')
    .option('--tmp-dir <dir>', 'where spilled runs go (default: the system temporary directory)')
    .option('--errors <n>', 'broken games to list on stderr', '20')
    .option('--quiet', 'no progress, no list of skipped games')
    .option('--json', 'print one JSON object')
    .action(async (file, files, opts) => (await import('./commands/richMake.js')).richAddCommand(file, files, opts));
  book
    .command('import')
    .description('.tbk: a Polyglot .bin as a rich book (weights and learn data kept)')
    .argument('<book.bin>', 'Polyglot book')
    .requiredOption('-o, --output <book.tbk>', 'rich book to write')
    .option('--force', FORCE_BOOK)
    .option('--json', 'print one JSON object')
    .action(async (file, opts) => (await import('./commands/richImport.js')).richImportCommand(file, opts));
  const bookExport = book
    .command('export')
    .description('.tbk: the Polyglot .bin of a rich book, byte-identical to polyglot make-book on the same games; or a tree of a book (.tbk or .bin) below a position, as PGN with variations and notes or as a .bin')
    .argument('<book>', 'rich book (.tbk); for a tree, a .tbk or a Polyglot .bin')
    .requiredOption('-o, --output <file>', 'Polyglot book (.bin) or, for a tree, PGN (.pgn) to write (- for stdout)')
    .option('--fen <fen>', 'tree: the position it starts from (default: the start position)')
    .option('--moves <moves>', 'tree: moves played from it, UCI or SAN, e.g. "e4 c5"')
    .option('--depth <plies>', 'tree: plies below the position (default 12)')
    .option('--side <white|black>', "tree: a repertoire for that side: only its chosen moves (user value above 0, else the book's first), every book reply")
    .option('--max-moves <n>', 'tree: cut the tree at n moves (default 1000000); the PGN says where')
    .option('--force', FORCE_BOOK)
    .option('--max-ply <n>', "count the first n plies of each game (default: the book's; a smaller one is replayed from the book's games)")
    .option('--min-games <n>', 'drop moves played in fewer than n games', '3')
    .option('--min-score <percent>', 'drop moves scoring below this percentage for the mover', '0')
    .option('--only-white', 'keep only White-to-move positions (with --only-black, the last one given wins)')
    .option('--only-black', 'keep only Black-to-move positions')
    .option('--uniform', 'write weight 1 for every move kept')
    .option('--user-values', 'moves with a user value get it as their weight (0: left out), forbidden moves left out; not make-book output')
    .option('--exact', 'fail instead of writing a book that may differ from make-book')
    .option('--ratings <bands>', 'a book built with --split rating: only games of these rating bands (replayed from the book\'s games)')
    .option('--speeds <speeds>', 'a book built with --split speed: only games of these speeds')
    .option('--since <YYYY-MM>', 'a book built with --split month: only games of this month or later')
    .option('--until <YYYY-MM>', 'a book built with --split month: only games of this month or earlier')
    .option('--memory <size>', 'memory for sorting what is replayed from the games (e.g. 1G; default 1G)')
    .option('--threads <n>', 'replay the book\'s games (--min-games 1, another --max-ply, a split filter) on n threads ("auto": one per core); the .bin is the same', '1')
    .option('--tmp-dir <dir>', 'where spilled runs go')
    .option('--json', 'print one JSON object')
    .option('--quiet', 'no progress')
    .action(async (file, opts, cmd) => (await import('./commands/richExport.js')).richExportCommand(file, opts, (name) => cmd.getOptionValueSource(name) === 'cli'));
  bookExport.on('option:only-white', () => bookExport.setOptionValue('colour', 'white'));
  bookExport.on('option:only-black', () => bookExport.setOptionValue('colour', 'black'));
  hiddenAlias(bookExport, '--min-game <n>', 'minGames');
  book
    .command('upgrade')
    .description('.tbk: convert a version 1 book to version 2 (compact, games kept where known, notes); nothing is lost')
    .argument('<book.tbk>', 'version 1 rich book')
    .option('-o, --output <book.tbk>', 'write the version 2 book here (default: replace the book itself)')
    .option('--force', FORCE_BOOK)
    .option('--json', 'print one JSON object')
    .action(async (file, opts) => (await import('./commands/richUpgrade.js')).richUpgradeCommand(file, opts));
  book
    .command('set')
    .description("set a move's notes in a .tbk: user value (Terra's bookeval), NAG, comment, forbidden mark; or remove a move added by hand")
    .argument('<book.tbk>', 'rich book to change')
    .option('--fen <fen>', 'position (default: the start position)')
    .option('--moves <moves>', 'moves played from it, UCI or SAN, e.g. "e2e4 c7c6"')
    .requiredOption('--move <move>', 'the move to set, UCI or SAN')
    .option('--value <value>', 'user value: 0..100 (100 always play, 0 never), !!, !, !?, ?!, ?, ?? or clear (also clears the learned statistics)')
    .option('--nag <nag>', 'NAG: a glyph (!, ?!, +-, = …), $0..$255, or clear (sets no user value)')
    .option('--comment <text>', 'comment ("" clears it)')
    .option('--forbid', 'forbidden: never played from the book (the engine, probe and the explorer skip it)')
    .option('--allow', 'takes the forbidden mark away')
    .option('--remove', 'takes away a move that only notes hold (one added by hand); a move games played cannot go')
    .option('--json', 'print one JSON object')
    .action(async (file, opts) => (await import('./commands/richSet.js')).richSetCommand(file, opts));
  book
    .command('annotate')
    .description('.tbk: user values from the NAGs of a PGN of lines (Terra: a tag separates lines, the last NAG wins)')
    .argument('<book.tbk>', 'rich book to change')
    .argument('<pgn...>', 'PGN files of annotated lines')
    .option('--notes', 'read back a PGN the explorer exported (or any PGN tree): each move\'s NAG, comment, [%tabiya value=N forbidden], main line and variations; NAGs set no value')
    .option('--replace', 'with --notes: each move of the PGN gets exactly the notes it gives there; a NAG, comment, user value or forbidden mark it lacks is cleared (moves not in the PGN keep theirs)')
    .option('--errors <n>', 'broken lines to list on stderr', '20')
    .option('--quiet', 'no progress')
    .option('--json', 'print one JSON object')
    .action(async (file, files, opts) => (await import('./commands/richAnnotate.js')).richAnnotateCommand(file, files, opts));
  const bookLearn = book
    .command('learn')
    .description("book learning into a .tbk: results of the player's book moves, PostBook of the moves after the book")
    .argument('<book.tbk>', 'rich book to change')
    .argument('<pgn...>', 'PGN files of games')
    .requiredOption('--player <name>', 'the player whose moves learn ([White]/[Black], case-insensitive)')
    .option('--post-book <n>', "the player's moves after the book ended recorded in the PostBook", '10')
    .option('--errors <n>', 'broken games to list on stderr', '20')
    .option('--quiet', 'no progress')
    .option('--json', 'print one JSON object')
    .action(async (file, files, opts) => (await import('./commands/richLearn.js')).richLearnCommand(file, files, opts));
  hiddenAlias(bookLearn, '--postbook <n>', 'postBook');

  // ----- engine -----
  program
    .command('uci')
    .description('run the engine over the UCI protocol on stdin/stdout (for GUIs and match runners)')
    .option('--tunable', 'also offer the search parameters as spin options (for tuners: tabiya tune spsa)')
    .action(async (opts) => (await import('./commands/uci.js')).uciCommand(opts));
  program
    .command('xboard')
    .description('run the engine over the xboard protocol (CECP v2) on stdin/stdout')
    .action(async () => (await import('./commands/xboard.js')).xboardCommand());
  program
    .command('bench')
    .description('fixed-depth search of fixed positions: total nodes (a signature of the search) and nodes/s')
    .option('--depth <n>', 'search depth')
    .option('--no-warmup', 'time from the first position (default: an untimed warm-up search first)')
    .option('--quiet', 'no progress on stderr')
    .option('--json', 'print one JSON object: {"nodes":N,"nps":X,...}')
    .action(async (opts) => (await import('./commands/bench.js')).benchCommand(opts));
  program
    .command('analyse')
    .alias('analyze')
    .description('search one position and print the engine lines')
    .option('--fen <fen>', 'position (default: the start position)')
    .option('--moves <moves...>', 'moves played from it, UCI or SAN, e.g. "e2e4 e7e5" or "e4 e5 Nf3"')
    .option('--depth <n>', 'search depth (default 14 when no limit is given)')
    .option('--movetime <ms>', 'search time in milliseconds')
    .option('--nodes <n>', 'node limit')
    .option('--multipv <k>', 'number of lines', '1')
    .option('--hash <mb>', 'hash table size in MB', '64')
    .option('--json', 'print one JSON object')
    .action(async (opts) => (await import('./commands/analyse.js')).analyseCommand(opts));
  program
    .command('epd')
    .description('solve a test suite (EPD with bm/am, or dm for mate problems): solved/total and the failures')
    .argument('<file>', 'EPD file')
    .option('--movetime <ms>', 'time per position in milliseconds')
    .option('--depth <n>', 'depth per position')
    .option('--nodes <n>', 'nodes per position')
    .option('--hash <mb>', 'hash table size in MB', '64')
    .option('--threads <n>', 'search threads (Lazy SMP)', '1')
    .option('--limit <n>', 'only the first n positions')
    .option('--set <name=value>', 'a search constant of `tabiya uci --tunable` (repeatable), e.g. rfpMargin=90', collect)
    .option('--quiet', 'no progress on stderr')
    .option('--json', 'print one JSON object')
    .action(async (file, opts) => (await import('./commands/epd.js')).epdCommand(file, opts));

  const tune = program.command('tune').description('label positions (game results, another engine\'s evaluations), fit the evaluation to them (Texel tuning) and verify by matches (see docs/tuning.md)');
  tune
    .command('data')
    .description('sample quiet positions from games and label them with the result (c9 "1-0";)')
    .argument('<pgn...>', 'PGN files (.pgn, or compressed: .gz, .zst, .bz2; tabiya match output works)')
    .requiredOption('-o, --output <file.epd>', 'labelled positions to write')
    .option('--force', FORCE_TEXT)
    .option('--skip-plies <n>', 'leave out the first n plies of each game (opening, book)', '16')
    .option('--per-game <k>', 'positions drawn from each game at most', '10')
    .option('--seed <s>', 'seed of the sampling', '1')
    .option('--min-pieces <n>', 'leave out positions with fewer pieces (kings included)', '5')
    .option('--quiet', 'no progress')
    .option('--json', 'print one JSON object')
    .action(async (pgn, opts) => (await import('./commands/tuneData.js')).tuneDataCommand(pgn, opts));
  tune
    .command('label')
    .description('label positions with a UCI engine\'s evaluation (EPD ce), for tune fit --lambda')
    .argument('<positions>', 'positions, one a line (.epd or .epd.gz; labelled or not)')
    .requiredOption('-o, --output <file.epd>', 'the lines with their ce, in the input order')
    .requiredOption('--engine <key=value...>', 'the UCI engine: cmd= arg= args= dir= option.NAME= name= initstr= stderr= (as in match)')
    .option('--nodes <n>', 'search each position for n nodes (the default, 5000)')
    .option('--depth <n>', 'search each position to depth n instead')
    .option('--movetime <ms>', 'search each position for ms milliseconds instead')
    .option('--concurrency <n>', 'engines searching at once', '1')
    .option('--limit <n>', 'only the first n lines')
    .option('--force', FORCE_TEXT)
    .option('--quiet', 'no progress or warnings')
    .option('--json', 'print one JSON object')
    .action(async (file, opts) => (await import('./commands/tuneLabel.js')).tuneLabelCommand(file, opts));
  withPositionOptions(
    tune
      .command('fit')
      .description('fit K, then the evaluation weights, to labelled positions; write a params file')
      .argument('<positions>', 'labelled positions (.epd or .epd.gz, c9 "1-0"; or [1.0] labels)')
      .requiredOption('-o, --output <params.json>', 'where to write the fitted parameters')
      .option('--force', FORCE_TEXT)
      .option('--params <file>', 'start from these parameters (default: the engine\'s)')
      .option('--group <name...>', 'tune only these parameter groups (default: all)')
      .option('--method <m>', 'adam, adagrad, local, anneal or genetic', 'adam')
      .option('--max-seconds <s>', 'time budget of the optimiser', '600')
      .option('--epochs <n>', 'epochs (gradient steps, sweeps, generations; default by method)')
      .option('--validation <fraction>', 'held-out share of the positions', '0.1')
      .option('--seed <s>', 'seed of sampling, split and optimiser', '1')
      .option('--plot <file.svg>', 'write the loss curve as SVG')
      .option('--limit <n>', 'use n positions drawn at random')
      .option('--rate <x>', 'step: learning rate (cp), first step (local), largest move (anneal), mutation sigma (genetic)')
      .option('--k <K>', 'use this sigmoid scale instead of fitting it')
      .option('--patience <n>', 'stop after n epochs without a better validation loss (0: never)', '0')
      .option('--l2 <weight>', 'L2 regularisation toward the start weights, per cp squared (e.g. 1e-9)', '0')
      .option('--lambda <x>', 'weight (0..1) of the positions\' ce evaluations (another engine\'s) in the target, the rest the result', '0')
  ).action(async (file, opts) => (await import('./commands/tuneFit.js')).tuneFitCommand(file, opts));
  withPositionOptions(
    tune
      .command('loss')
      .description('the loss of a parameter set on labelled positions: {"k", "loss", "positions"}')
      .argument('<positions>', 'labelled positions (.epd or .epd.gz)')
      .option('--params <file>', 'parameters (default: the engine\'s)')
      .option('--part <p>', 'all, or the train or validation part of `tune fit`\'s split', 'all')
      .option('--lambda <x>', 'as tune fit --lambda: the ce evaluations\' weight in the target', '0')
      .option('--validation <fraction>', 'with --part: the held-out share used by the fit', '0.1')
      .option('--seed <s>', 'with --part or --limit: the fit\'s seed', '1')
      .option('--limit <n>', 'use n positions drawn at random')
      .option('--k <K>', 'use this sigmoid scale instead of fitting it')
  ).action(async (file, opts) => (await import('./commands/tuneFit.js')).tuneLossCommand(file, opts));
  withPositionOptions(
    tune
      .command('wdl')
      .description('fit the win/draw/loss model of UCI_ShowWDL to labelled positions and show its calibration')
      .argument('<positions>', 'labelled positions (.epd or .epd.gz)')
      .option('--params <file>', 'evaluate with these parameters (default: the engine\'s)')
      .option('--limit <n>', 'use n positions drawn at random')
      .option('--seed <s>', 'with --limit: the seed', '1')
  ).action(async (file, opts) => (await import('./commands/tuneWdl.js')).tuneWdlCommand(file, opts));
  tune
    .command('spsa')
    .description("tune an engine's numeric options (tabiya's search parameters) by SPSA from game pairs; resumable")
    .option('--param <name...>', 'a spin option to tune: NAME (start and range from the engine) or NAME=START,MIN,MAX[,C[,R]]')
    .option('--openings <file>', 'opening suite (EPD, PGN or a Polyglot book), drawn at random; each pair plays one opening both ways')
    .requiredOption('-o, --output <state.json>', 'the run\'s state, rewritten after every pair (θ, history, results)')
    .option('--engine <key=value...>', 'the UCI engine: cmd= arg= dir= option.NAME= name= (as in match); default: tabiya uci --tunable, Hash 16')
    .option('--pairs <n>', 'game pairs (steps) of the run; the gains reach C and R at the last', '1000')
    .option('--tc <tc>', 'time control of every game (default 10+0.1)')
    .option('--nodes <n>', 'instead of a clock: n nodes a move')
    .option('--concurrency <n>', 'pairs played at once (two engine processes each)', '1')
    .option('--seed <s>', 'seed of the openings and perturbations', '1')
    .option('--c-share <x>', 'default C (the last perturbation) as a share of a parameter\'s range', '0.05')
    .option('--r-end <x>', 'default R (the last learning rate)', '0.002')
    .option('--alpha <x>', 'decay of the learning rate (Spall)', '0.602')
    .option('--gamma <x>', 'decay of the perturbation (Spall)', '0.101')
    .option('--a-ratio <x>', 'stability constant A as a share of --pairs', '0.1')
    .option('--maxmoves <n>', 'a game is drawn after n moves of each side (as match -maxmoves)')
    .option('--startup-ms <ms>', 'how long an engine may take to finish its handshake (uciok), as match --startup-ms (default 10000)')
    .option('--pgnout <file>', 'append every game to this PGN file (with --resume: cut back to the last pair the state counts)')
    .option('--resume', 'continue the run saved in --output')
    .option('--status', 'show the run saved in --output (values, how far each moved, results) and exit')
    .option('--force', 'start a new run over an existing --output')
    .option('--quiet', 'no progress or warnings')
    .option('--json', 'print one JSON object')
    .action(async (opts) => (await import('./commands/tuneSpsa.js')).tuneSpsaCommand(opts));
  tune
    .command('verify')
    .description('play the engine with a params file against the engine without it (tabiya match, SPRT): Elo and error bar')
    .argument('<params.json>', 'fitted parameters')
    .option('--games <n>', 'games (played in colour-swapped pairs)', '200')
    .option('--tc <tc>', 'time control (default 10+0.1)')
    .option('--nodes <n>', 'instead of a clock: n nodes a move (fair for weight changes, independent of machine load)')
    .option('--concurrency <n>', 'games at the same time', '2')
    .option('--openings <file>', 'opening suite (EPD or PGN; default: the first 16 plies of the bundled master games)')
    .option('--sprt <key=value...>', 'elo0= elo1= alpha= beta= (default elo0=0 elo1=10)')
    .option('--pgnout <file>', 'keep the games')
    .option('--base <params.json>', 'the opponent\'s parameters (default: the engine\'s own)')
    .option('--hash <mb>', 'hash table of each engine', '16')
    .option('--seed <s>', 'seed of the opening order', '1')
    .option('--quiet', 'no per-game lines')
    .option('--json', 'print one JSON object')
    .action(async (file, opts) => (await import('./commands/tuneVerify.js')).tuneVerifyCommand(file, opts));

  program
    .command('serve')
    .description('the web opening explorer and book editor, with the engine in the browser (see docs/serve.md; what `npm start` runs)')
    .argument('[books...]', 'books to serve, .bin and .tbk (default: the bundled data/tabiya.bin, built when missing)')
    .option('--port <n>', 'TCP port (0: any free one)', '8080')
    .option('--host <address>', 'address to listen on (anything but loopback is reachable from other machines)', '127.0.0.1')
    .option('--engine-threads <n>', 'search threads of the page\'s engine ("auto": half the browser\'s cores, at most 8)', 'auto')
    .option('--import-threads <n>', 'threads that replay a .tbk\'s games when an import adds to it, as book add --threads ("auto": one per core)', 'auto')
    .option('--read-only', 'refuse every change to the books')
    .option('--quiet', 'nothing said while building the default book')
    .action(async (books, opts) => (await import('./commands/serve.js')).serveCommand(books, opts));

  program
    .command('demo')
    .description("build the default opening book from the bundled master games and show its summary")
    .option('-o, --output <book.bin>', 'where to write the book (default: data/tabiya.bin)')
    .option('--force', FORCE_BOOK)
    .option('--threads <n>', 'threads ("auto": one per core)', '1')
    .option('--quiet', 'no progress')
    .option('--json', 'print one JSON object')
    .action(async (opts) => (await import('./commands/demo.js')).demoCommand(opts));

  nestedHelp(program);
}

/** The options of every `tune` command that loads labelled positions. */
function withPositionOptions(c: Command): Command {
  return c
    .option('--threads <n>', 'worker threads ("auto": one per core)', 'auto')
    .option('--no-resolve', 'trace positions as they are (no quiescence search)')
    .option('--quiet', 'no progress')
    .option('--json', 'print one JSON object');
}

/**
 * An old spelling of an option, kept working but not shown: commander has no aliases for long
 * options, so a hidden option sets the same value (as given on the command line).
 */
function hiddenAlias(cmd: Command, flags: string, target: string): void {
  const old = new Option(flags).hideHelp();
  cmd.addOption(old);
  cmd.on(`option:${old.name()}`, (value: unknown) => cmd.setOptionValueWithSource(target, value, 'cli'));
}

/** `min-book-games` → `minBookGames`, as commander names option values. */
function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Options that apply to one book format only: one given for the other format is a usage error
 * (exit 2) rather than an option accepted and silently ignored.
 */
function onlyFor(cmd: Command, format: '.bin' | '.tbk', only: Partial<Record<'.bin' | '.tbk', string[]>>): void {
  for (const [owner, keys] of Object.entries(only)) {
    if (owner === format) continue;
    for (const key of keys) {
      if (cmd.getOptionValueSource(key) !== 'cli') continue;
      const flag = cmd.options.find((o) => o.attributeName() === key && !o.hidden)?.long ?? key;
      throw new CliError(`${flag} applies to ${owner} books only (this ${cmd.name()} is on a ${format})`, 2);
    }
  }
}

/**
 * `help A B C` shows the help of the command A B C at any depth: commander's own help command
 * looks one level down only, so `tabiya help book make` would show the help of `book`.
 */
function nestedHelp(cmd: Command): void {
  if (cmd.commands.length === 0) return;
  cmd.helpCommand(false);
  cmd
    .command('help')
    .description('display help for command')
    .argument('[command...]', 'the command, with its subcommands (help book make)')
    .action((names: string[]) => {
      let target = cmd;
      for (const name of names) {
        const sub = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (sub === undefined) target.error(`error: unknown command '${name}'`, { exitCode: 2, code: 'commander.unknownCommand' });
        else target = sub;
      }
      target.help();
    });
  for (const sub of cmd.commands) if (sub.name() !== 'help') nestedHelp(sub);
}
