// A copy of web/dist in a temp folder whose sqrtdk-lab.js is rebuilt with web/src/ui/strings.js replaced by
// another module (a pseudo-locale), for the translation tests.  The shipped bundle is not touched.  The
// bundle's inlined parts (worker, glue, compressed wasm, core tables) are made as web/build.mjs makes them.
import { build } from 'esbuild';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST, REPO, ensureDist } from './browser.mjs';

const WEB = join(REPO, 'web');
export const REAL_STRINGS = join(WEB, 'src/ui/strings.js');

/** esbuild plugin: every import of strings.js but the replacement's own gets `replacement`; sqrtdk:* inlined. */
function variantPlugin(replacement, workerText) {
  const texts = {
    'sqrtdk:glue': () => readFileSync(join(REPO, 'wasm_build/build/sqrtdk_web.js'), 'utf8'),
    'sqrtdk:worker': () => workerText,
    'sqrtdk:wasm': () => gzipSync(readFileSync(join(REPO, 'wasm_build/build/sqrtdk_web.wasm')), { level: 9 }).toString('base64'),
  };
  return {
    name: 'strings-variant',
    setup(b) {
      b.onResolve({ filter: /strings\.js$/ }, (args) => {
        if (args.importer === replacement) return undefined;
        return resolve(args.resolveDir, args.path) === REAL_STRINGS ? { path: replacement } : undefined;
      });
      b.onResolve({ filter: /^sqrtdk:core-tables$/ }, () => ({ path: join(WEB, 'src/core-tables.js') }));
      b.onResolve({ filter: /^sqrtdk:(glue|worker|wasm)$/ }, (args) => ({ path: args.path, namespace: 'sqrtdk-inline' }));
      b.onLoad({ filter: /.*/, namespace: 'sqrtdk-inline' }, (args) => ({ contents: texts[args.path](), loader: 'text' }));
    },
  };
}

/**
 * @param {string} source the replacement module (it may import the real one by REAL_STRINGS)
 * @returns {Promise<{dir: string, close: () => void}>} dir: web/dist with the variant sqrtdk-lab.js
 */
export async function variantDist(source) {
  ensureDist();
  const dir = mkdtempSync(join(tmpdir(), 'sqrtdk-variant-'));
  cpSync(DIST, join(dir, 'dist'), { recursive: true });
  const replacement = join(dir, 'strings-variant.js');
  writeFileSync(replacement, source);
  const common = { bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: true, logLevel: 'warning' };
  const worker = await build({ ...common, entryPoints: [join(WEB, 'src/worker/worker-main.js')], write: false });
  await build({
    ...common,
    entryPoints: [join(WEB, 'src/index.js')],
    outfile: join(dir, 'dist/sqrtdk-lab.js'),
    loader: { '.css': 'text' },
    plugins: [variantPlugin(replacement, worker.outputFiles[0].text)],
  });
  return { dir: join(dir, 'dist'), close: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The pseudo-locale: the real STRINGS with every text s as "⟦s⟧" (functions' results, arrays and sections
 * likewise); everything else of strings.js (langOf, formatNumber, plural) as it is.
 */
export const PSEUDO_STRINGS = `
import { STRINGS as REAL } from ${JSON.stringify(REAL_STRINGS)};
export * from ${JSON.stringify(REAL_STRINGS)};
const wrap = (value) => {
  if (typeof value === 'string') return value === '' ? value : '⟦' + value + '⟧';
  if (typeof value === 'function') return (...args) => wrap(value(...args));
  if (Array.isArray(value)) return value.map(wrap);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrap(v)]));
  return value;
};
export const STRINGS = wrap(REAL);
`;
