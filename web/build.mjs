// Builds web/dist: one classic script (sqrtdk-lab.js, an IIFE defining <sqrtdk-lab>) with the worker source
// and the Emscripten glue (wasm embedded) inlined as text, plus the HTML pages from web/pages/.
// usage: node web/build.mjs   (npm run build:web)
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { coreTablesSource } from './core-tables.mjs';

const WEB = dirname(fileURLToPath(import.meta.url));
const REPO = join(WEB, '..');
const GLUE = join(REPO, 'wasm_build/build/sqrtdk.js');
const DIST = join(WEB, 'dist');
const CORE_TABLES = join(WEB, 'src/core-tables.js');

if (!existsSync(GLUE)) {
  console.error(`${GLUE} is missing; build it first:\n  cmake --preset wasm && cmake --build --preset wasm --target sqrtdk_module`);
  process.exit(1);
}

/** Rewrites web/src/core-tables.js when the module's tables changed (commit the result). */
async function updateCoreTables() {
  const text = await coreTablesSource(GLUE);
  if (existsSync(CORE_TABLES) && readFileSync(CORE_TABLES, 'utf8') === text) return;
  writeFileSync(CORE_TABLES, text);
  console.log('web/src/core-tables.js updated from the wasm module: commit it');
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

/** `import x from 'sqrtdk:glue'` and `'sqrtdk:worker'` resolve to text; 'sqrtdk:core-tables' is an alias of
 * web/src/core-tables.js (page modules import that file by its path, so that Node can import them too). */
function inlineSources(workerText) {
  return {
    name: 'sqrtdk-inline-sources',
    setup(b) {
      b.onResolve({ filter: /^sqrtdk:core-tables$/ }, () => ({ path: CORE_TABLES }));
      b.onResolve({ filter: /^sqrtdk:(glue|worker)$/ }, (args) => ({ path: args.path, namespace: 'sqrtdk-inline' }));
      b.onLoad({ filter: /.*/, namespace: 'sqrtdk-inline' }, (args) => (args.path === 'sqrtdk:glue'
        ? { contents: readFileSync(GLUE, 'utf8'), loader: 'text', watchFiles: [GLUE] }
        : { contents: workerText, loader: 'text' }));
    },
  };
}

const started = performance.now();
rmSync(DIST, { recursive: true, force: true });
mkdirSync(DIST, { recursive: true });
await updateCoreTables();
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
  loader: { '.css': 'text' },
  plugins: [inlineSources(workerText)],
  banner: { js: '/* sqrtdk lab: <sqrtdk-lab> custom element. Built by web/build.mjs; sources in web/src. */' },
  logLevel: 'warning',
});
cpSync(join(WEB, 'pages'), DIST, { recursive: true });
const kib = (file) => (statSync(join(DIST, file)).size / 1024).toFixed(0);
console.log(`web/dist built in ${(performance.now() - started).toFixed(0)} ms: sqrtdk-lab.js ${kib('sqrtdk-lab.js')} KiB`);
