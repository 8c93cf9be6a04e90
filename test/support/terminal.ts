/**
 * What a terminal shows for the bytes a command wrote to it, for the tests of progress bars: the
 * lines on the screen after carriage returns, line feeds and "erase to end of line" (and
 * cli-progress's "cursor to column 1") have done their work.
 */
export function screen(out: string): string[] {
  const lines: string[] = [];
  let line = '';
  let col = 0;
  for (let i = 0; i < out.length; i++) {
    const c = out[i]!;
    if (c === '\r') col = 0;
    else if (c === '\n') {
      lines.push(line);
      line = '';
      col = 0;
    } else if (c === '\x1b') {
      // eslint-disable-next-line no-control-regex
      const m = /^\x1b(\[[?\d;]*[A-Za-z]|[78])/.exec(out.slice(i));
      const seq = m?.[1] ?? '';
      if (seq === '[K' || seq === '[0K') line = line.slice(0, col);
      else if (seq === '[1G') col = 0;
      i += seq.length;
    } else {
      line = line.padEnd(col).slice(0, col) + c + line.slice(col + 1);
      col++;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
