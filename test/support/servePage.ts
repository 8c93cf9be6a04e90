/**
 * The address of a served page as the user opens it: the one `tabiya serve` prints, whose
 * `?token=` lets the page write (src/serve/app.ts), with the page's own query (`?play=…`).
 */
import type { RunningServer } from '../../src/serve/server.js';

export function pageAddress(server: RunningServer, path = ''): string {
  const url = new URL(path.replace(/^\//, ''), server.url);
  if (server.pageUrl !== server.url) url.searchParams.set('token', server.token);
  return url.toString();
}
