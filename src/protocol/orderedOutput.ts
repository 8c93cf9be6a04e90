/**
 * An engine's output in the order of the commands it answers. `readyok` and `pong` wait for the
 * host (a hash table being resized, a book being opened), while other replies (`Illegal move`,
 * `info string`, a result claim) are made at once; without this a reply to a later command could
 * come before them. CECP (xboard's engine protocol, "ping") makes `pong N` the mark that
 * everything before `ping N` has been handled, and UCI's `isready` is used the same way.
 */
export class OrderedOutput {
  /** Lines waiting behind a held place; a place is undefined until its line is known. */
  private readonly queue: { line: string | undefined }[] = [];

  constructor(private readonly out: (line: string) => void) {}

  /** Sends a line, or queues it behind a held place. */
  send(line: string): void {
    if (this.queue.length === 0) this.out(line);
    else this.queue.push({ line });
  }

  /** Holds a place in the output; the returned function fills it, and what waited behind it goes out. */
  hold(): (line: string) => void {
    const slot: { line: string | undefined } = { line: undefined };
    this.queue.push(slot);
    return (line) => {
      slot.line = line;
      while (this.queue.length > 0 && this.queue[0]!.line !== undefined) this.out(this.queue.shift()!.line!);
    };
  }
}
