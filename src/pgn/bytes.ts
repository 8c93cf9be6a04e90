/**
 * Byte-level helpers of the PGN reader: character classes, and text decoding done only when a
 * consumer asks for a tag value or a comment. Real files mix UTF-8 with Latin-1/Windows-1252
 * (ChessBase exports, old databases), so text that is not valid UTF-8 is read as Windows-1252.
 */

/** Bytes that continue a symbol (move, result, move number): A-Z a-z 0-9 _ + # = : / - . */
export const SYMBOL: Uint8Array = new Uint8Array(256);
/** Bytes of a tag name. */
export const TAG_NAME: Uint8Array = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (alnum || '_+#=:/-.'.includes(String.fromCharCode(c))) SYMBOL[c] = 1;
  if (alnum || '_+#=:-'.includes(String.fromCharCode(c))) TAG_NAME[c] = 1;
}

/** Windows-1252 code points of bytes 0x80..0x9F (undefined bytes map to themselves). */
const CP1252 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

const utf8 = new TextDecoder('utf-8');

/** A string of ASCII bytes (or bytes read as Latin-1). */
export function latin1(buf: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let s = start; s < end; s += 4096) {
    const sub = buf.subarray(s, Math.min(end, s + 4096));
    out += String.fromCharCode.apply(null, sub as unknown as number[]);
  }
  return out;
}

/** Is buf[start..end) well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF)? */
export function isUtf8(buf: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const c = buf[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    let cp: number;
    if (c >= 0xc2 && c <= 0xdf) {
      n = 1;
      min = 0x80;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      min = 0x800;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      min = 0x10000;
      cp = c & 0x07;
    } else return false;
    if (i + n >= end) return false;
    for (let k = 1; k <= n; k++) {
      const d = buf[i + k]!;
      if ((d & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

/** Decodes text: ASCII fast, then UTF-8, else Windows-1252. */
export function decodeText(buf: Uint8Array, start: number, end: number): string {
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (buf[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return latin1(buf, start, end);
  if (isUtf8(buf, start, end)) return utf8.decode(buf.subarray(start, end));
  // Code units first, then strings of 4096 at a time: a string grown by one character per byte
  // is several times slower on long comments.
  const units = new Uint16Array(end - start);
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    units[i - start] = c >= 0x80 && c < 0xa0 ? CP1252[c - 0x80]! : c;
  }
  let out = '';
  for (let s = 0; s < units.length; s += 4096) out += String.fromCharCode.apply(null, units.subarray(s, s + 4096) as unknown as number[]);
  return out;
}

/** Decodes a tag value, resolving the `\"` and `\\` escapes. */
export function decodeTagValue(buf: Uint8Array, start: number, end: number): string {
  const text = decodeText(buf, start, end);
  return text.includes('\\') ? text.replace(/\\(["\\])/g, '$1') : text;
}

/** Does buf hold the ASCII text `word` at position i? */
export function bytesEqual(buf: Uint8Array, i: number, end: number, word: string): boolean {
  if (end - i < word.length) return false;
  for (let k = 0; k < word.length; k++) if (buf[i + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** NAG of a suffix glyph or evaluation symbol (`!`, `?!`, `+-`, `=` …), or -1. */
export function glyphNag(text: string): number {
  return GLYPHS.get(text) ?? -1;
}

const GLYPHS = new Map<string, number>([
  ['!', 1], ['?', 2], ['!!', 3], ['??', 4], ['!?', 5], ['?!', 6],
  ['=', 10], ['∞', 13], ['+=', 14], ['+/=', 14], ['⩲', 14], ['=+', 15], ['=/+', 15], ['⩱', 15],
  ['+/-', 16], ['±', 16], ['-/+', 17], ['∓', 17], ['+-', 18], ['-+', 19], ['□', 7], ['N', 146],
]);
