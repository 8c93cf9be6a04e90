/**
 * Number formats of the match reports. cutechess prints with Qt's `QString::number` ('f' and 'g'
 * forms, as printf defines them; exact ties such as 0.5625 round up, as Qt's double-conversion
 * and JavaScript's toFixed both do); existing scripts parse those lines, so the shapes are
 * reproduced here, `inf`, `-inf` and `nan` included.
 */

/** "%.Nf", with inf/-inf/nan. */
export function fixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  // toFixed drops the sign of a value that rounds to zero; printf keeps it ("-0.0").
  const s = x.toFixed(digits);
  return x < 0 && !s.startsWith('-') ? '-' + s : s;
}

/** printf("%.Ng"): N significant digits, trailing zeros removed, exponent form outside 1e-4..1e+N. */
export function general(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return '0';
  const p = Math.max(1, precision);
  const exp = Number(x.toExponential(p - 1).split('e')[1]);
  if (exp < -4 || exp >= p) {
    const [mant, e] = x.toExponential(p - 1).split('e') as [string, string];
    const m = mant.includes('.') ? mant.replace(/0+$/, '').replace(/\.$/, '') : mant;
    const n = Number(e);
    return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  const s = x.toFixed(Math.max(0, p - 1 - exp));
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}
