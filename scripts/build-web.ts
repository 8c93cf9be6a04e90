/**
 * Builds the page of `tabiya serve` into dist/web: the app and the engine worker bundled by
 * esbuild (browser ES modules, minified, source maps), the HTML and CSS, and the board's assets
 * from cm-chessboard (MIT). Run by `npm run build:web`; the server reads dist/web at start-up.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = join(ROOT, 'dist/web');
const BOARD = join(ROOT, 'node_modules/cm-chessboard/assets');

// The page's code and stylesheet hold cm-chessboard's (MIT), whose licence asks that its notice
// go with every copy; minifying drops the header that points to it, so it is put back whole.
// The worker holds tabiya's code only.
const notice = `/*! cm-chessboard (https://github.com/shaack/cm-chessboard), bundled here:\n${readFileSync(join(BOARD, '../LICENSE'), 'utf8').replaceAll('*/', '* /').trim()}\n*/`;

mkdirSync(OUT, { recursive: true });
const common: BuildOptions = { outdir: OUT, bundle: true, format: 'esm', platform: 'browser', target: ['es2022'], minify: true, sourcemap: true, legalComments: 'eof', logLevel: 'warning' };
await build({ ...common, entryPoints: { app: join(ROOT, 'src/web/main.ts') }, banner: { js: notice } });
await build({ ...common, entryPoints: { worker: join(ROOT, 'src/web/engineWorker.ts') } });
copyFileSync(join(ROOT, 'src/web/index.html'), join(OUT, 'index.html'));
// One stylesheet: the board's own, its extensions', then the page's (which overrides them).
const css = [join(BOARD, 'chessboard.css'), join(BOARD, 'extensions/markers/markers.css'), join(BOARD, 'extensions/arrows/arrows.css'), join(BOARD, 'extensions/promotion-dialog/promotion-dialog.css'), join(ROOT, 'src/web/app.css')]
  .map((f) => readFileSync(f, 'utf8').replace(/\/\*# sourceMappingURL=.*\*\//g, ''))
  .join('\n');
writeFileSync(join(OUT, 'app.css'), `${notice}\n${css}`);
copyFileSync(join(BOARD, 'pieces/standard.svg'), join(OUT, 'pieces.svg'));
copyFileSync(join(BOARD, 'extensions/markers/markers.svg'), join(OUT, 'markers.svg'));
copyFileSync(join(BOARD, 'extensions/arrows/arrows.svg'), join(OUT, 'arrows.svg'));
