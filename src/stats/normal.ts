/**
 * The normal distribution functions the match statistics need: erf/erfc to ~1e-15, Φ and Φ⁻¹,
 * and cutechess's closed-form inverse error function (kept separately so its printed error
 * bars can be reproduced to the digit; match-runner.md §2.2).
 *
 * JavaScript has no `Math.erf`. For |x| < 3 the series erf(x) = 2/√π·e^(−x²)·Σ 2ⁿx^(2n+1)/(2n+1)!!
 * has only positive terms, so it loses nothing to cancellation; beyond that, erfc's continued
 * fraction converges in a few dozen steps.
 */

const TWO_OVER_SQRT_PI = 1.1283791670955126;
const ONE_OVER_SQRT_PI = 0.5641895835477563;

/** Φ⁻¹(0.975): the z of a two-sided 95 % interval, as fastchess and fishtest use it. */
export const Z95 = 1.959963984540054;

/** The error function. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const ax = Math.abs(x);
  if (ax >= 3) return Math.sign(x) * (1 - erfcLarge(ax));
  return erfSeries(x);
}

/** The complementary error function 1 − erf(x), accurate in both tails. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x >= 3) return erfcLarge(x);
  if (x <= -3) return 2 - erfcLarge(-x);
  return 1 - erfSeries(x);
}

function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (2 * x2) / (2 * n + 1);
    sum += term;
    if (Math.abs(term) < 1e-17 * Math.abs(sum)) break;
  }
  return TWO_OVER_SQRT_PI * Math.exp(-x2) * sum;
}

/** erfc for x ≥ 3 by the continued fraction e^(−x²)/√π · 1/(x + ½/(x + 1/(x + 3⁄2/(x + …)))) (modified Lentz). */
function erfcLarge(x: number): number {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    if (d === 0) d = tiny;
    c = x + a / c;
    if (c === 0) c = tiny;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return (ONE_OVER_SQRT_PI * Math.exp(-x * x)) / f;
}

/** Φ(x), the standard normal cumulative distribution function. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/**
 * Φ⁻¹(p): Acklam's rational approximation (relative error 1e-9) refined by one Halley step
 * against `normalCdf`, which brings it to machine precision.
 */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/**
 * cutechess's inverse error function: Winitzki's closed form
 * erfinv(x) ≈ sign(x)·√(√(t² − ln(1−x²)/a) − t), t = 2/(πa) + ln(1−x²)/2, a = 8(π−3)/(3π(4−π)).
 * Its z for 95 % is 1.957162, not 1.959964.
 */
export function erfInvCutechess(x: number): number {
  const a = (8 * (Math.PI - 3)) / (3 * Math.PI * (4 - Math.PI));
  const y = Math.log(1 - x * x);
  const t = 2 / (Math.PI * a) + y / 2;
  const r = Math.sqrt(Math.sqrt(t * t - y / a) - t);
  return x < 0 ? -r : r;
}

/** Φ⁻¹(p) through cutechess's approximation. */
export function normalQuantileCutechess(p: number): number {
  return Math.SQRT2 * erfInvCutechess(2 * p - 1);
}
