/** A growable byte buffer, reused from game to game (comments being read, a game's raw text). */
export class ByteBuffer {
  private bytes = new Uint8Array(256);
  length = 0;

  append(buf: Uint8Array, start: number, end: number): void {
    const n = this.length + end - start;
    if (n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(n, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(buf.subarray(start, end), this.length);
    this.length = n;
  }

  clear(): void {
    this.length = 0;
  }

  /** Replaces the content with `src`, which may be a part of this buffer's own content. */
  replace(src: Uint8Array): void {
    if (src.buffer === this.bytes.buffer) {
      this.bytes.copyWithin(0, src.byteOffset, src.byteOffset + src.length);
      this.length = src.length;
    } else {
      this.length = 0;
      this.append(src, 0, src.length);
    }
  }

  /** The content (valid until the next append). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}
