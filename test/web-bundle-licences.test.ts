/**
 * What the package's web page (dist/web, `npm run build:web`) holds of other people's code: the
 * bundles' source maps name every file bundled, and the only package among them is cm-chessboard
 * (MIT), whose licence asks that its notice go with every copy: the minified app and its
 * stylesheet carry it whole. Nothing GPL (chessground, chessops) and no test tool (chess.js) is
 * bundled: they are dev dependencies for the tests and benchmarks only (docs/serve.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const WEB = join(REPO, 'dist/web');
const BUNDLED: Record<string, string> = { 'cm-chessboard': 'MIT' };

test('the web bundles hold cm-chessboard (MIT) alone of other packages, with its licence notice', () => {
  for (const file of ['app.js', 'worker.js']) {
    const map = JSON.parse(readFileSync(join(WEB, `${file}.map`), 'utf8')) as { sources: string[] };
    const packages = new Set(map.sources.flatMap((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(s)?.[1] ?? []));
    for (const name of packages) {
      assert.ok(name in BUNDLED, `${file} bundles ${name}, which is not among the packages known to be fit to ship`);
      const pkg = JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { license: string };
      assert.equal(pkg.license, BUNDLED[name], `${name}'s licence`);
    }
    if (file === 'worker.js') assert.equal(packages.size, 0, 'the engine worker is tabiya alone');
  }
  const license = readFileSync(join(REPO, 'node_modules/cm-chessboard/LICENSE'), 'utf8');
  const copyright = license.split('\n').find((l) => l.startsWith('Copyright'))!;
  for (const file of ['app.js', 'app.css']) {
    const text = readFileSync(join(WEB, file), 'utf8');
    assert.ok(text.includes(copyright), `${file} carries cm-chessboard's "${copyright}"`);
    assert.ok(text.includes('Permission is hereby granted, free of charge'), `${file} carries the MIT permission notice`);
  }
});
