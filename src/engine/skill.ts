/**
 * Playing below full strength (UCI `Skill Level` 0..20, `UCI_LimitStrength` + `UCI_Elo`).
 * A weakened search is limited in depth and nodes and searches four lines; the move is then
 * drawn among them, each line's score pushed up by a random amount that grows as the level
 * falls (Stockfish's method), so a weak level makes plausible mistakes rather than random
 * moves. The Elo scale is approximate: it maps 800..2800 onto the levels linearly.
 */
import type { SearchResult } from './searchResult.js';
import type { GoLimits } from './limits.js';
import type { TimePlan } from './timeman.js';

export interface SkillSettings {
  /** 0..20; 20 is full strength. */
  level: number;
  /** UCI_Elo when UCI_LimitStrength is on, else 0. */
  elo: number;
  /** Random source (default Math.random). */
  random?: () => number;
}

export const ELO_MIN = 800;
export const ELO_MAX = 2800;

export interface SkilledSearch {
  limits: GoLimits;
  plan: TimePlan;
  multiPV: number;
  /** Replaces the best move of a finished search by the skill pick (undefined at full strength). */
  pick?: (r: SearchResult) => void;
}

/** Effective level (0..20, fractional) of the settings. */
export function effectiveLevel(s: SkillSettings): number {
  if (s.elo > 0) return Math.max(0, Math.min(19.9, ((s.elo - ELO_MIN) / (ELO_MAX - ELO_MIN)) * 20));
  return Math.max(0, Math.min(20, s.level));
}

export function applySkill(s: SkillSettings, limits: GoLimits, plan: TimePlan): SkilledSearch {
  const level = effectiveLevel(s);
  if (level >= 20) return { limits, plan, multiPV: 1 };
  const depthCap = 1 + Math.floor(level / 2);
  const nodeCap = Math.round(2 ** (8 + level * 0.6));
  const out: GoLimits = { ...limits };
  out.depth = Math.min(limits.depth ?? Infinity, depthCap);
  out.nodes = Math.min(limits.nodes ?? Infinity, nodeCap);
  const random = s.random ?? Math.random;
  return {
    limits: out,
    plan,
    multiPV: 4,
    pick: (r: SearchResult) => {
      const lines = r.lines ?? [];
      if (lines.length < 2) return;
      const weakness = 120 - 2 * level;
      const top = lines[0]!.score;
      const delta = Math.min(top - lines[lines.length - 1]!.score, 100);
      let best = lines[0]!;
      let bestValue = -Infinity;
      for (const l of lines) {
        const push = (weakness * (top - l.score) + delta * Math.floor(random() * weakness)) / 128;
        const v = l.score + push;
        if (v >= bestValue) {
          bestValue = v;
          best = l;
        }
      }
      if (best.move !== r.bestMove) {
        r.bestMove = best.move;
        r.score = best.score;
        r.pv = best.pv;
        r.ponderMove = best.pv.length > 1 ? best.pv[1]! : 0;
      }
    },
  };
}
