/**
 * The Node.js versions tabiya claims (package.json "engines") must be the versions every
 * installed package supports, or a newcomer's `npm ci` opens with EBADENGINE warnings (and
 * the package may not run). Checked against the lockfile, so it holds for the exact tree
 * `npm ci` installs; `.npmrc` sets engine-strict, so `npm ci` itself refuses a mismatch.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import semver from 'semver';

const ROOT = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }>;
};

test('every locked package supports the oldest Node.js version tabiya claims', () => {
  const oldest = semver.minVersion(pkg.engines.node);
  assert.ok(oldest !== null, `package.json engines.node "${pkg.engines.node}" has no lowest version`);
  const bad: string[] = [];
  let checked = 0;
  for (const [path, p] of Object.entries(lock.packages)) {
    const range = p.engines !== undefined && !Array.isArray(p.engines) ? p.engines.node : undefined;
    if (path === '' || range === undefined) continue;
    checked++;
    if (!semver.satisfies(oldest, range)) bad.push(`${path}@${p.version}: node ${range}`);
  }
  assert.ok(checked > 10, `only ${checked} packages declare engines: is this the lockfile?`);
  assert.deepEqual(bad, [], `packages that do not support Node ${oldest.version}`);
});

test('the Node.js running the tests is one tabiya claims', () => {
  assert.ok(semver.satisfies(process.versions.node, pkg.engines.node), `Node ${process.versions.node} is outside ${pkg.engines.node}`);
});
