// Builds web/dist: one classic script (sqrtdk-lab.js, an IIFE defining <sqrtdk-lab>) with the worker source
// and the Emscripten glue (wasm embedded) inlined as text, plus the HTML pages from web/pages/.
// usage: node web/build.mjs   (npm run build:web)
import { build, transform } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { coreTablesSource } from './core-tables.mjs';
import { GLUE, NODE_MODULE, WASM, WASM_INPUTS } from './build-inputs.mjs';

const WEB = dirname(fileURLToPath(import.meta.url));
const DIST = join(WEB, 'dist');
const CORE_TABLES = join(WEB, 'src/core-tables.js');

for (const [file, target] of WASM_INPUTS) {
  if (!existsSync(file)) {
    console.error(`${file} is missing; build it first:\n  cmake --preset wasm && cmake --build --preset wasm --target ${target}`);
    process.exit(1);
  }
}

/** Stops the build when web/src/core-tables.js is not the module's tables: the build writes no tracked file. */
async function checkCoreTables() {
  const text = await coreTablesSource(NODE_MODULE);
  if (existsSync(CORE_TABLES) && readFileSync(CORE_TABLES, 'utf8') === text) return;
  console.error('web/src/core-tables.js is not the wasm module\'s tables: run `npm run tables` and commit the file');
  process.exit(1);
}

/** The worker bundle (web/src/worker/worker-main.js), as text. */
async function bundleWorker() {
  const result = await build({
    entryPoints: [join(WEB, 'src/worker/worker-main.js')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/**
 * The .wasm, LZMA-compressed (xz --format=lzma -9e, with its size written into the header) and base64-encoded:
 * unpacked by the page (src/worker/wasm-binary.js, src/worker/lzma-decode.js).
 */
function compressedWasm() {
  const wasm = readFileSync(WASM);
  let packed;
  try {
    packed = execFileSync('xz', ['--format=lzma', '-9e', '--stdout'], { input: wasm, maxBuffer: 64 << 20 });
  } catch (error) {
    console.error(`xz --format=lzma failed (${error.message}); it comes with the Debian package xz-utils`);
    process.exit(1);
  }
  // xz writes the size as "unknown" (all ones, the stream ends with a marker): the decoder wants it known.
  packed.writeUInt32LE(wasm.length, 5);
  packed.writeUInt32LE(0, 9);
  return packed.toString('base64');
}

/** `import x from 'sqrtdk:glue'`, `'sqrtdk:worker'` and `'sqrtdk:wasm'` resolve to text; 'sqrtdk:core-tables' is an
 * alias of web/src/core-tables.js (page modules import that file by its path, so that Node can import them too). */
function inlineSources(workerText, glueText) {
  const texts = {
    'sqrtdk:glue': () => glueText,
    'sqrtdk:worker': () => workerText,
    'sqrtdk:wasm': compressedWasm,
  };
  return {
    name: 'sqrtdk-inline-sources',
    setup(b) {
      b.onResolve({ filter: /^sqrtdk:core-tables$/ }, () => ({ path: CORE_TABLES }));
      b.onResolve({ filter: /^sqrtdk:(glue|worker|wasm)$/ }, (args) => ({ path: args.path, namespace: 'sqrtdk-inline' }));
      b.onLoad({ filter: /.*/, namespace: 'sqrtdk-inline' }, (args) => ({ contents: texts[args.path](), loader: 'text' }));
      b.onLoad({ filter: /[\\/]uplot[\\/]dist[\\/]uPlot\.(esm|cjs)\.js$/ }, (args) => ({ contents: uplotWithoutBrowserLocale(args.path), loader: 'js' }));
      // Style sheets are adopted as text: minified like the code.
      b.onLoad({ filter: /\.css$/ }, async (args) => ({
        contents: (await transform(readFileSync(args.path, 'utf8'), { loader: 'css', minify: true })).code, loader: 'text' }));
    },
  };
}

// uPlot builds a number formatter for navigator.language when it loads, and Intl throws on an invalid tag: "C"
// is what WebKit reports under a POSIX locale (LANG=C.UTF-8), and the element would never be defined.  The lab
// writes every number on its charts itself (axes' `values`, uPlot's legend off), so that formatter only has to
// exist: it gets a fixed tag.  The build stops if uPlot's line changed, so that the fix is not lost silently.
const UPLOT_BROWSER_LOCALE = "new Intl.NumberFormat(domEnv ? nav.language : 'en-US')";
let uplotPatched = false;
function uplotWithoutBrowserLocale(path) {
  const source = readFileSync(path, 'utf8');
  if (!source.includes(UPLOT_BROWSER_LOCALE)) {
    console.error(`${path} no longer has ${UPLOT_BROWSER_LOCALE}: check how it picks its locale (web/build.mjs)`);
    process.exit(1);
  }
  uplotPatched = true;
  return source.replace(UPLOT_BROWSER_LOCALE, "new Intl.NumberFormat('en-US')");
}

/** The Emscripten glue, minified (emcc -O3 leaves it readable; its names are its own, so renaming is safe). */
async function minifiedGlue() {
  return (await transform(readFileSync(GLUE, 'utf8'), { minify: true, target: 'es2022' })).code;
}

const started = performance.now();
rmSync(DIST, { recursive: true, force: true });
mkdirSync(DIST, { recursive: true });
await checkCoreTables();
const workerText = await bundleWorker();
await build({
  entryPoints: [join(WEB, 'src/index.js')],
  outfile: join(DIST, 'sqrtdk-lab.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'eof',
  plugins: [inlineSources(workerText, await minifiedGlue())],
  banner: { js: '/* sqrtdk lab: <sqrtdk-lab> custom element. Built by web/build.mjs; sources in web/src. */' },
  logLevel: 'warning',
});
if (!uplotPatched) {
  console.error('the bundle took uPlot from another file than dist/uPlot.esm.js: its locale line was not replaced (web/build.mjs)');
  process.exit(1);
}
cpSync(join(WEB, 'pages'), DIST, { recursive: true });
cpSync(join(WEB, 'types/sqrtdk-lab.d.ts'), join(DIST, 'sqrtdk-lab.d.ts'));
const kib = (file) => (statSync(join(DIST, file)).size / 1024).toFixed(0);
console.log(`web/dist built in ${(performance.now() - started).toFixed(0)} ms: sqrtdk-lab.js ${kib('sqrtdk-lab.js')} KiB`);
