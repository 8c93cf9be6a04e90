/**
 * Which addresses are this machine's loopback: 127.0.0.0/8 (RFC 1122 §3.2.1.3), ::1 (RFC 4291
 * §2.5.3), the IPv4-mapped form of 127.0.0.0/8 (::ffff:127.0.0.1, RFC 4291 §2.5.5.2, which a
 * dual-stack socket reports for IPv4 clients), and `localhost` (RFC 6761 §6.3). The listen
 * address decides whether requests must also name loopback in Host (app.ts).
 */
import { isIP } from 'node:net';

/** `host` with the WHATWG URL parser's normal form: lower case, IPv6 compressed and bracketed, IPv4 dotted; undefined if it is not a host. */
function normalHost(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}

function loopbackName(name: string | undefined): boolean {
  if (name === undefined) return false;
  if (name === 'localhost' || name === '[::1]') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  // The URL parser writes ::ffff:127.0.0.1 as [::ffff:7f00:1]: 127.x.y.z is 7fxx:yyzz.
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(name);
}

/** A listen address (as given to `--host`: no brackets needed, no port) that is loopback. */
export function isLoopback(host: string): boolean {
  return loopbackName(normalHost(isIP(host) === 6 ? `[${host}]` : host));
}

/** A Host header (name or address, port optional) that names a loopback address. */
export function hostIsLoopback(header: string): boolean {
  if (!/^(?:\[[0-9a-f:.]+\]|[^:[\]/?#@\\\s]+)(?::\d{1,5})?$/i.test(header)) return false;
  return loopbackName(normalHost(header));
}
