/**
 * The time written into `.tbk` headers and build records, in seconds since 1970 UTC. When
 * SOURCE_DATE_EPOCH is set it replaces the clock, as the reproducible-builds convention asks
 * (https://reproducible-builds.org/specs/source-date-epoch/): the same command on the same
 * input then writes the same bytes, which is what the crash tests compare against.
 */
export function bookTime(): number {
  const epoch = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && /^\d+$/.test(epoch.trim())) return Number(epoch.trim());
  return Math.floor(Date.now() / 1000);
}
