/**
 * One tag pair `[Name "value"]` within a line. Real files leave quotes inside values unescaped
 * (`[Event "The "Big" Open"]`) and sometimes drop the closing bracket, so the value ends at the
 * quote that is followed by `]` or by the end of the line.
 */
import { TAG_NAME } from './bytes.js';

/** Where the parts are, after a successful `scanTagLine`: name start/end, value start/end, end of the tag. */
export const TAG: Int32Array = new Int32Array(5);

export const TAG_OK = 0;
export const TAG_NO_NAME = 1;
export const TAG_NO_VALUE = 2;
export const TAG_UNTERMINATED = 3;

/** Reads the tag starting with `[` at buf[i], within the line ending at `eol`. */
export function scanTagLine(buf: Uint8Array, i: number, eol: number): number {
  let j = i + 1;
  while (j < eol && (buf[j] === 32 || buf[j] === 9)) j++;
  const n0 = j;
  while (j < eol && TAG_NAME[buf[j]!] === 1) j++;
  const n1 = j;
  TAG[0] = n0;
  TAG[1] = n1;
  if (n1 === n0) return TAG_NO_NAME;
  while (j < eol && (buf[j] === 32 || buf[j] === 9)) j++;
  if (buf[j] !== 34 || j >= eol) return TAG_NO_VALUE;
  const v0 = j + 1;
  let v1 = -1;
  let after = -1;
  for (let k = v0; k < eol; k++) {
    const c = buf[k];
    if (c === 92) k++;
    else if (c === 34) {
      let m = k + 1;
      while (m < eol && (buf[m] === 32 || buf[m] === 9)) m++;
      if (m === eol || buf[m] === 93) {
        v1 = k;
        after = m === eol ? m : m + 1;
        if (m < eol) break;
      }
    }
  }
  if (v1 < 0) return TAG_UNTERMINATED;
  TAG[2] = v0;
  TAG[3] = v1;
  TAG[4] = after;
  return TAG_OK;
}
