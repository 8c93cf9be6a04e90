/**
 * Which compression a PGN input uses, told by its first bytes (never by its name, so a
 * `games.pgn` that is really zstd, or a dump piped on stdin, is still read), and what
 * decompresses it.
 *
 * gzip is decompressed in the process by zlib. zstd and bzip2 go through their reference
 * programs (`zstd -dc`, `bzip2 -dc`) as child processes: Node 20's zlib has no zstd, and the
 * program decompresses on the second core while this one parses, 4 to 13 times faster than the
 * npm decoders measured (docs/pgn.md, "Compressed input"). Magic numbers: RFC 1952 (gzip),
 * RFC 8878 §3.1.1 and §3.1.2 (zstd frames and skippable frames), and bzip2's "BZh" + block size.
 */

export type Compression = 'gzip' | 'zstd' | 'bzip2';

/** An external decompressor: the program, its arguments to write the plain bytes of stdin to stdout. */
export interface Decompressor {
  program: string;
  args: readonly string[];
  /** The Debian/Ubuntu package that installs it, for the error message when it is missing. */
  debianPackage: string;
}

/**
 * The programs behind each compression. `--long=31` lifts zstd's default 128 MiB window limit
 * to the format's 2 GiB maximum, so frames written with `zstd --long=31` (as large dumps are)
 * decode; it costs nothing for frames with smaller windows.
 */
export const DECOMPRESSORS: Readonly<Record<Exclude<Compression, 'gzip'>, Decompressor>> = {
  zstd: { program: 'zstd', args: ['-d', '-c', '-q', '--long=31'], debianPackage: 'zstd' },
  bzip2: { program: 'bzip2', args: ['-d', '-c'], debianPackage: 'bzip2' },
};

/** How many first bytes `detectCompression` needs to decide. */
export const MAGIC_BYTES = 4;

/** The compression whose magic number starts `head`, or undefined for anything else (plain PGN). */
export function detectCompression(head: Uint8Array): Compression | undefined {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4) {
    // Little-endian 0xFD2FB528, or a skippable frame 0x184D2A50..0x184D2A5F.
    if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return 'zstd';
    if ((head[0]! & 0xf0) === 0x50 && head[1] === 0x2a && head[2] === 0x4d && head[3] === 0x18) return 'zstd';
    // "BZh" then the block size '1'..'9'.
    if (head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68 && head[3]! >= 0x31 && head[3]! <= 0x39) return 'bzip2';
  }
  return undefined;
}

/** The decompressor program of an input is not installed: the input cannot be read at all. */
export class DecompressorMissingError extends Error {
  readonly code = 'ERR_PGN_DECOMPRESSOR';

  constructor(name: string, compression: Compression, d: Decompressor) {
    super(`${name} is ${compression}-compressed; reading it needs the ${d.program} program, which is not on PATH (Debian, Ubuntu: apt-get install ${d.debianPackage})`);
    this.name = 'DecompressorMissingError';
  }
}
