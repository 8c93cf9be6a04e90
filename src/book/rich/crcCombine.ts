/**
 * The CRC-32 of two byte strings one after the other, from their own CRC-32s and the second's
 * length, without reading them again: zlib's crc32_combine (Mark Adler's method: appending n
 * zero bits to a CRC is a linear map over GF(2), applied by repeated squaring of its 32×32
 * matrix). A book section written in pieces on several threads gets its checksum this way.
 * Browser-safe.
 */

/** The CRC-32 (IEEE, as format.ts crc32) of A followed by B: `crcA`, `crcB`, and B's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  // The operator for one zero bit.
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  square(even, odd); // two zero bits
  square(odd, even); // four
  let crc = crcA >>> 0;
  let len = lengthB;
  // Each step squares the operator (one zero byte, then two, four…) and applies it where the length has a 1 bit.
  for (;;) {
    square(even, odd);
    if (len % 2 === 1) crc = times(even, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
    square(odd, even);
    if (len % 2 === 1) crc = times(odd, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
  }
  return (crc ^ crcB) >>> 0;
}

function times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

function square(out: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) out[n] = times(mat, mat[n]!);
}
