/**
 * The command table. Each entry declares its options and imports its implementation only
 * when run. Commands print with `report` (text or --json) and fail by throwing CliError.
 */
import type { Command } from 'commander';

export function registerCommands(program: Command): void {
  program
    .command('perft')
    .description('count leaf nodes of the legal move tree (move-generator check and speed test)')
    .option('--fen <fen>', 'position (default: the start position)')
    .option('--depth <n>', 'depth in plies')
    .option('--divide', 'print the count below each root move')
    .option('--no-bulk', 'play every leaf move instead of counting the last ply from the move list')
    .option('--suite <file.epd>', 'run a perft suite (EPD with D1..Dn operations) and list every mismatch')
    .option('--max-depth <n>', 'with --suite: deepest depth to check', '4')
    .option('--json', 'print one JSON object')
    .action(async (opts) => (await import('./commands/perft.js')).perftCommand(opts));

  program
    .command('demo')
    .description("tabiya's default job on bundled data (what `npm start` runs)")
    .option('--json', 'print one JSON object')
    .action(async (opts) => (await import('./commands/demo.js')).demoCommand(opts));
}
