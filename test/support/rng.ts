/** The tests' small deterministic PRNG (mulberry32, the books' seeded generator), so a failure can be replayed from its seed. */
export { seededRandom as rng } from '../../src/book/polyglot/select.js';
