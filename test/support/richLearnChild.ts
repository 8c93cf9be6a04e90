/**
 * Child process of the crash test (test/rich-crash.test.ts): learns the games of a JSON file
 * into a book one by one through the engine's entry point, printing a dot after each, until it
 * is killed.
 *
 *     node dist/test/support/richLearnChild.js BOOK.tbk GAMES.json
 */
import { readFileSync } from 'node:fs';
import { learnGameSync, type LearnGameWithEvals } from '../../src/book/node/richLearn.js';

const [book, file] = process.argv.slice(2);
// The test runner also loads every file under dist/test: without arguments, do nothing.
if (book !== undefined && file !== undefined) {
  const games = JSON.parse(readFileSync(file, 'utf8')) as LearnGameWithEvals[];
  process.stdout.write('started\n');
  for (const g of games) {
    learnGameSync(book, g, { postBook: 4 });
    process.stdout.write('.');
  }
  process.stdout.write('\ndone\n');
}
