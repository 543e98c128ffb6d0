// Builds web/dist: one classic script (sqrtdk-lab.js, an IIFE defining <sqrtdk-lab>) with the worker source
// and the Emscripten glue (wasm embedded) inlined as text, plus the HTML pages from web/pages/.
// usage: node web/build.mjs   (npm run build:web)
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

import { coreTablesSource } from './core-tables.mjs';

const WEB = dirname(fileURLToPath(import.meta.url));
const REPO = join(WEB, '..');
// The page's module: glue and .wasm apart (wasm_build/wasm.cmake, target sqrtdk_web_module).
const GLUE = join(REPO, 'wasm_build/build/sqrtdk_web.js');
const WASM = join(REPO, 'wasm_build/build/sqrtdk_web.wasm');
const DIST = join(WEB, 'dist');
const CORE_TABLES = join(WEB, 'src/core-tables.js');
// The single-file module Node loads (the page's runs in workers only): the source of core-tables.js.
const NODE_MODULE = join(REPO, 'wasm_build/build/sqrtdk.js');

for (const [file, target] of [[WASM, 'sqrtdk_web_module'], [NODE_MODULE, 'sqrtdk_module']]) {
  if (!existsSync(file)) {
    console.error(`${file} is missing; build it first:\n  cmake --preset wasm && cmake --build --preset wasm --target ${target}`);
    process.exit(1);
  }
}

/** Rewrites web/src/core-tables.js when the module's tables changed (commit the result). */
async function updateCoreTables() {
  const text = await coreTablesSource(NODE_MODULE);
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

/** The .wasm, gzip-compressed (level 9) and base64-encoded: inflated by the page (src/worker/wasm-binary.js). */
function compressedWasm() {
  return gzipSync(readFileSync(WASM), { level: 9 }).toString('base64');
}

/** `import x from 'sqrtdk:glue'`, `'sqrtdk:worker'` and `'sqrtdk:wasm'` resolve to text; 'sqrtdk:core-tables' is an
 * alias of web/src/core-tables.js (page modules import that file by its path, so that Node can import them too). */
function inlineSources(workerText) {
  const texts = {
    'sqrtdk:glue': () => readFileSync(GLUE, 'utf8'),
    'sqrtdk:worker': () => workerText,
    'sqrtdk:wasm': compressedWasm,
  };
  return {
    name: 'sqrtdk-inline-sources',
    setup(b) {
      b.onResolve({ filter: /^sqrtdk:core-tables$/ }, () => ({ path: CORE_TABLES }));
      b.onResolve({ filter: /^sqrtdk:(glue|worker|wasm)$/ }, (args) => ({ path: args.path, namespace: 'sqrtdk-inline' }));
      b.onLoad({ filter: /.*/, namespace: 'sqrtdk-inline' }, (args) => ({ contents: texts[args.path](), loader: 'text' }));
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
cpSync(join(WEB, 'types/sqrtdk-lab.d.ts'), join(DIST, 'sqrtdk-lab.d.ts'));
const kib = (file) => (statSync(join(DIST, file)).size / 1024).toFixed(0);
console.log(`web/dist built in ${(performance.now() - started).toFixed(0)} ms: sqrtdk-lab.js ${kib('sqrtdk-lab.js')} KiB`);
