/** PGN without the file reader (`readPgn`, which opens paths through Node): for `tabiya/browser`. */
export type { PgnErrorKind, PgnGameError, PgnLocation, PgnVisitor } from './visitor.js';
export { PgnParser, parsePgn, DEFAULT_LIMITS, type PgnLimits, type PgnParserOptions } from './parser.js';
export { GameBuilder, readGames, gameTag, mainLine, type PgnGame, type PgnNode } from './game.js';
export { writeGame, writeGames, type GameRecord, type WriteOptions } from './writer.js';
export { PgnFilter, filterVisitor, parseTagCondition, parseDateBound, dateBoundError, type PgnFilterOptions, type FilterReason } from './filter.js';
export { PgnStats, type PgnStatsReport } from './stats.js';
export { parseCommentCommands, parseClock, formatClock, type CommentCommands } from './annotations.js';
export { decodeText } from './bytes.js';
export { writeSan } from './sanWriter.js';
