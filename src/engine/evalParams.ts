/**
 * Every evaluation weight, in one flat table a tuner can read and write: the one definition of
 * the parameter names, groups, ranges and defaults. The WebAssembly core's copy of the offsets
 * and defaults (src/wasm/eval/defaults.ts) is generated from it by scripts/gen-wasm-tables.ts,
 * and the weights in use are pushed into each core before it searches (WasmSearcher.sync).
 *
 * The evaluation is a fixed function of linear sums of these weights. Every term adds weight ×
 * coefficient, where the coefficient is a count taken from the position, into one of four sums
 * of (middlegame, endgame) pairs, chosen by the group's kind:
 *
 *   (mg, eg)      linear terms, coefficient = White's count minus Black's
 *   (kW, kWe)     king danger White creates (safety terms counted for White as the attacker)
 *   (kB, kBe)     king danger Black creates
 *   cx            complexity (endgame value only)
 *
 *   mg' = mg + q(kW) − q(kB),   q(k) = max(k, 0)² / 720      (danger grows faster than its parts)
 *   eg' = eg + l(kWe) − l(kBe), l(k) = max(k, 0) / 20
 *   eg'' = eg' + sign(eg') · max(cx, −|eg'|)                  (never flips the endgame half's sign)
 *   eval = (64 · mg' · phase + eg'' · (24 − phase) · scale) / (24 · 64)
 *
 * Quadratic king danger and the endgame complexity are the forms of Ethereal's evaluation
 * (evaluateKings, evaluateComplexity) and Stockfish's classical one (king danger, initiative).
 * A tuner that records each position's coefficients for the four sums (the core's
 * `evaluateTrace`, src/wasm/eval/evaluate.ts), its phase and its scale can recompute the
 * evaluation for any weights without the engine (src/tune/model.ts). Conditions in the
 * evaluation depend only on the position, never on weights, which is what keeps the sums
 * linear. Specialised endgame evaluators (KQK, KBNK, ...) are not; traces mark positions that
 * use them.
 *
 * Layout: `WEIGHTS[2 * i]` is pair i's middlegame value, `WEIGHTS[2 * i + 1]` its endgame value.
 * Pairs are grouped (`GROUPS`): material by piece type, piece-square tables, mobility by number
 * of squares, and so on. After writing WEIGHTS, call `applyWeights()`: the cores take the new
 * weights before their next use.
 *
 * Defaults were fitted by logistic regression (Texel's method) on positions from
 * ../shared/data/tuning/pgnmentor_quiet_labeled.epd, resolved by quiescence search; see
 * docs/engine.md.
 */
import { DEFAULTS } from './evalDefaults.js';

export interface ParamGroup {
  /** Name used in files and tuner output, e.g. `mobility.knight`. */
  readonly name: string;
  /** Index of the first pair of the group. */
  readonly offset: number;
  /** Number of pairs. */
  readonly size: number;
  /** Allowed range of every value of the group (tuners clamp to it). */
  readonly min: number;
  readonly max: number;
  /** What the index means. */
  readonly doc: string;
  /**
   * How the group's sums enter the evaluation: `linear` pairs add weight × (White's count minus
   * Black's) to the score; `safety` pairs add into each attacking side's king-danger sum, which
   * is then made quadratic (see below); `complexity` pairs (endgame value only) add into the
   * complexity sum that moves the endgame half toward or away from zero.
   */
  readonly kind: ParamKind;
}

export type ParamKind = 'linear' | 'safety' | 'complexity';

const groups: ParamGroup[] = [];
let pairs = 0;
function group(name: string, size: number, min: number, max: number, doc: string, kind: ParamKind = 'linear'): number {
  const offset = pairs;
  groups.push({ name, offset, size, min, max, doc, kind });
  pairs += size;
  return offset;
}

// Offsets of every group (pair indices). The evaluation adds `PACKED[OFFSET + k]`.
export const P_MATERIAL = group('material', 5, 0, 2000, 'by piece type: pawn, knight, bishop, rook, queen');
export const P_PST = group('pst', 6 * 64, -200, 200, 'piece-square: (type - 1) * 64 + square, a1 = 0, from White (Black mirrored)');
export const P_MOB_KNIGHT = group('mobility.knight', 9, -200, 200, 'by safe squares attacked (0..8)');
export const P_MOB_BISHOP = group('mobility.bishop', 14, -200, 200, 'by safe squares attacked (0..13)');
export const P_MOB_ROOK = group('mobility.rook', 15, -200, 200, 'by safe squares attacked (0..14)');
export const P_MOB_QUEEN = group('mobility.queen', 28, -200, 200, 'by safe squares attacked (0..27)');
export const P_BISHOP_PAIR = group('bishopPair', 1, 0, 200, 'two or more bishops');
export const P_DOUBLED = group('pawn.doubled', 1, -100, 50, 'a pawn with an own pawn ahead on its file');
export const P_ISOLATED = group('pawn.isolated', 2, -100, 50, 'no own pawn on adjacent files: [closed file, open file]');
export const P_BACKWARD = group('pawn.backward', 2, -100, 50, 'cannot be defended by pawns and its stop square is attacked: [closed, open]');
export const P_CONNECTED = group('pawn.connected', 8, -50, 200, 'defended or side by side, by relative rank');
export const P_ISOLATED_FILE = group('pawn.isolatedByFile', 8, -100, 100, 'an isolated pawn, beside pawn.isolated: by file (Ethereal\'s PawnIsolated)');
export const P_STACKED_FILE = group('pawn.stackedByFile', 2 * 8, -100, 100, 'each pawn on a file with another own pawn: [may unstack: it can be traded or can capture, or an enemy pawn stops it from a file beside][file] (Ethereal\'s PawnStacked)');
export const P_BACKWARD_RANK = group('pawn.backwardByRank', 2 * 8, -100, 100, 'a backward pawn, beside pawn.backward: [open file][relative rank] (Ethereal\'s PawnBackwards)');
export const P_CONNECTED_SQUARE = group('pawn.connectedBySquare', 32, -100, 200, 'a connected pawn, beside pawn.connected: relative rank * 4 + file from the edge (a..d, e..h mirrored; Ethereal\'s PawnConnected32)');
export const P_PASSED = group('passed.rank', 8, -50, 300, 'passed pawn by relative rank');
export const P_PASSED_OWN_KING = group('passed.ownKingDistance', 8, -50, 50, 'by rank; coefficient: own king distance to the stop square');
export const P_PASSED_ENEMY_KING = group('passed.enemyKingDistance', 8, -50, 50, 'by rank; coefficient: enemy king distance to the stop square');
export const P_PASSED_FREE = group('passed.free', 8, -50, 200, 'by rank; stop square empty');
export const P_PASSED_SAFE = group('passed.safe', 8, -50, 200, 'by rank; no enemy attack on the path to promotion');
export const P_ROOK_OPEN = group('rook.openFile', 2, -50, 100, '[semi-open file, open file]');
export const P_ROOK_SEVENTH = group('rook.seventh', 1, -50, 100, 'on the 7th rank with the enemy king on the 8th or pawns on the 7th');
export const P_OUTPOST = group('outpost', 2, -50, 100, 'square no enemy pawn can attack, defended by a pawn: [knight, bishop]');
export const P_OUTPOST_SHAPE = group('outpost.byEdge', 2 * 2 * 2, -100, 100, 'a knight or bishop on ranks 4 to 6 no enemy pawn can attack, beside outpost: [bishop][on the a or h file][defended by a pawn] (Ethereal\'s KnightOutpost and BishopOutpost)');
export const P_BEHIND_PAWN = group('minorBehindPawn', 1, -50, 100, 'knight or bishop right behind a pawn');
export const P_KING_SHELTER = group('king.shelter', 8, -100, 100, 'own pawn on king file or next: by its relative rank (0 = none)');
export const P_KING_STORM = group('king.storm', 8, -100, 100, 'enemy pawn on king file or next: by its relative rank (0 = none)');
export const P_KING_SHELTER_FILE = group('king.shelterByFile', 2 * 8 * 8, -100, 100, 'own pawn nearest the king on its file or next, beside king.shelter: [on the king\'s file][file][ranks from the king, 7 = none] (Ethereal\'s KingShelter)');
export const P_KING_STORM_FILE = group('king.stormByFile', 2 * 4 * 8, -100, 100, 'enemy pawn nearest the king on its file or next, beside king.storm: [blocked by an own pawn][file from the edge][ranks from the king, 7 = none] (Ethereal\'s KingStorm)');
export const P_KING_OPEN = group('king.openFile', 1, -100, 50, 'no own pawn on the king file');
export const P_SAFETY_ATTACKERS = group('safety.attackers', 4, -100, 200, 'king danger: attackers of the king zone times the attackers of this type [knight, bishop, rook, queen]', 'safety');
export const P_SAFETY_HITS = group('safety.hits', 1, -100, 200, 'king danger: attacks on king-zone squares (pawns and pieces, counted per piece)', 'safety');
export const P_SAFETY_WEAK = group('safety.weak', 1, -100, 200, 'king danger: king-zone squares attacked and defended at most by the king or queen', 'safety');
export const P_SAFETY_CHECKS = group('safety.safeChecks', 4, -100, 400, 'king danger: squares a piece could check from safely [knight, bishop, rook, queen]', 'safety');
export const P_SAFETY_PAWNS = group('safety.shieldPawns', 1, -200, 100, 'king danger: the defender\'s pawns in its king zone', 'safety');
export const P_SAFETY_NO_QUEEN = group('safety.noQueen', 1, -1000, 100, 'king danger: the attacker has no queen', 'safety');
export const P_SAFETY_BASE = group('safety.base', 1, -500, 500, 'king danger: a constant (counted once for each side attacking)', 'safety');
export const P_THREAT_PAWN = group('threat.byPawn', 6, -50, 200, 'enemy piece attacked by a pawn, by victim type (pawn..king)');
export const P_THREAT_MINOR = group('threat.byMinor', 6, -50, 200, 'by victim type');
export const P_THREAT_ROOK = group('threat.byRook', 6, -50, 200, 'by victim type');
export const P_THREAT_KING = group('threat.byKing', 1, -50, 200, 'undefended enemy piece attacked by the king');
export const P_HANGING = group('threat.hanging', 1, -50, 200, 'enemy piece attacked and not defended');
export const P_PAWN_PUSH_THREAT = group('threat.pawnPush', 1, -50, 200, 'a safe pawn push would attack an enemy piece');
export const P_KING_DEFENDERS = group('king.defenders', 10, -100, 100, 'own pawns, knights and bishops in the own king zone, by count (0..9)');
export const P_KING_PAWN_DISTANCE = group('king.pawnFileDistance', 8, -100, 100, 'files from the king to the nearest file with a pawn (0..7); nothing without pawns');
export const P_KNIGHT_FAR = group('knight.farFromKings', 4, -100, 100, 'a knight 4, 5, 6 or 7 squares from the nearer king');
export const P_BISHOP_RAMMED = group('bishop.rammedPawns', 1, -100, 100, 'per own pawn blocked by an enemy pawn on the bishop\'s colour');
export const P_BISHOP_DIAGONAL = group('bishop.longDiagonal', 1, -100, 100, 'a bishop on a long diagonal that sees both centre squares of it past the pawns');
export const P_QUEEN_PIN = group('queen.relativePin', 1, -200, 100, 'a queen with one piece between it and an enemy bishop or rook on a line');
export const P_CANDIDATE = group('pawn.candidatePasser', 16, -100, 200, 'a pawn that becomes passed by advancing, by relative rank: [8 ranks unsupported, 8 ranks supported]');
export const P_OVERLOADED = group('threat.overloaded', 1, -100, 100, 'enemy piece attacked and defended exactly once each');
export const P_SPACE_RESTRICT_PIECE = group('space.restrictPiece', 1, -100, 100, 'per piece (either side\'s) on a square the enemy attacks twice and we at most once, not with a pawn (Ethereal\'s SpaceRestrictPiece)');
export const P_SPACE_RESTRICT_EMPTY = group('space.restrictEmpty', 1, -100, 100, 'per empty square the enemy attacks twice and we at most once, not with a pawn (Ethereal\'s SpaceRestrictEmpty)');
export const P_SPACE_CENTER = group('space.centerControl', 1, -100, 100, 'per square of c3-f6 we attack or hold and the enemy does not attack, while minors + 2 x (rooks and queens) > 12 (Ethereal\'s SpaceCenterControl)');
export const P_KNIGHT_CLOSED = group('knight.closedness', 9, -100, 100, 'per knight, by closedness of the pawn structure (0 open .. 8 closed)');
export const P_ROOK_CLOSED = group('rook.closedness', 9, -100, 100, 'per rook, by closedness of the pawn structure (0 open .. 8 closed)');
export const P_TEMPO = group('tempo', 1, 0, 100, 'side to move');
export const P_COMPLEXITY_PAWNS = group('complexity.pawns', 1, -100, 100, 'endgame complexity: pawns on the board', 'complexity');
export const P_COMPLEXITY_PASSED = group('complexity.passed', 1, -100, 100, 'endgame complexity: passed pawns on the board', 'complexity');
export const P_COMPLEXITY_FLANKS = group('complexity.bothFlanks', 1, -200, 200, 'endgame complexity: pawns on both flanks', 'complexity');
export const P_COMPLEXITY_PAWN_ENDING = group('complexity.pawnEnding', 1, -200, 300, 'endgame complexity: no pieces but kings and pawns', 'complexity');
export const P_COMPLEXITY_OUTFLANKING = group('complexity.outflanking', 1, -100, 100, 'endgame complexity: kings\' file distance minus rank distance', 'complexity');
export const P_COMPLEXITY_BASE = group('complexity.base', 1, -500, 200, 'endgame complexity: a constant', 'complexity');

/** Number of weight pairs. */
export const NPAIRS = pairs;
/** The parameter groups, in table order. */
export const GROUPS: readonly ParamGroup[] = groups;

/** Weights: [mg0, eg0, mg1, eg1, ...]. Write here, then call applyWeights(). */
export const WEIGHTS: Int32Array = new Int32Array(2 * NPAIRS);
/**
 * Bumped by every applyWeights: a copy of the weights elsewhere (the WebAssembly core's) is
 * stale when the version it was taken at differs.
 */
export let weightsVersion = 0;

/** Call after writing WEIGHTS: every core takes them before its next search or evaluation. */
export function applyWeights(): void {
  weightsVersion++;
}

/** The game phase of a full board (knights and bishops 1, rooks 2, queens 4): the evaluation tapers over 0..PHASE_MAX. */
export const PHASE_MAX = 24;

/** Restores the default weights. */
export function resetWeights(): void {
  WEIGHTS.fill(0);
  weightsFromJson(DEFAULTS);
}

/** `name[k].mg` style names of every value, in WEIGHTS order (for tuner files). */
export function weightNames(): string[] {
  const out: string[] = [];
  for (const g of groups) for (let k = 0; k < g.size; k++) out.push(`${g.name}[${k}].mg`, `${g.name}[${k}].eg`);
  return out;
}

/** The weights as `{ group: [[mg, eg], ...] }` (for tuner output and inspection). */
export function weightsToJson(): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const g of groups) {
    const v: [number, number][] = [];
    for (let k = 0; k < g.size; k++) v.push([WEIGHTS[2 * (g.offset + k)]!, WEIGHTS[2 * (g.offset + k) + 1]!]);
    out[g.name] = v;
  }
  return out;
}

/** Loads weights written by weightsToJson (unknown groups or wrong sizes are errors). */
export function weightsFromJson(json: Readonly<Record<string, readonly (readonly [number, number])[]>>): void {
  for (const [name, values] of Object.entries(json)) {
    const g = groups.find((x) => x.name === name);
    if (!g) throw new Error(`unknown evaluation parameter group "${name}"`);
    if (values.length !== g.size) throw new Error(`parameter group "${name}" has ${g.size} pairs, got ${values.length}`);
    values.forEach(([mg, eg], k) => {
      WEIGHTS[2 * (g.offset + k)] = Math.max(g.min, Math.min(g.max, Math.round(mg)));
      WEIGHTS[2 * (g.offset + k) + 1] = Math.max(g.min, Math.min(g.max, Math.round(eg)));
    });
  }
  applyWeights();
}

resetWeights();
