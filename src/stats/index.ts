/** Match statistics: Elo, error bars, LOS, nElo, pentanomial counts and the SPRT. Browser-safe. */
export * from './normal.js';
export * from './elo.js';
export * from './sprt.js';
export * from './format.js';
