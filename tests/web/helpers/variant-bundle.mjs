// A web/dist built by web/build.mjs itself, with web/src/ui/strings.js replaced by another module (a
// pseudo-locale), for the translation tests.  The build runs on a copy of web/ in a temp folder (the wasm
// build and node_modules linked in), so the shipped web/dist and web/src are not touched and the variant is
// bundled exactly as the shipped one is.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './browser.mjs';

/**
 * @param {string} source the replacement strings.js; it may import the real one as './strings-real.js'
 * @returns {{dir: string, close: () => void}} dir: the variant's web/dist
 */
export function variantDist(source) {
  const root = mkdtempSync(join(tmpdir(), 'sqrtdk-variant-'));
  const web = join(root, 'web');
  cpSync(join(REPO, 'web'), web, { recursive: true, filter: (path) => !path.startsWith(join(REPO, 'web/dist')) });
  for (const name of ['wasm_build', 'node_modules', 'package.json']) symlinkSync(join(REPO, name), join(root, name));
  renameSync(join(web, 'src/ui/strings.js'), join(web, 'src/ui/strings-real.js'));
  writeFileSync(join(web, 'src/ui/strings.js'), source);
  execFileSync(process.execPath, [join(web, 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  return { dir: join(web, 'dist'), close: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * The pseudo-locale: the real STRINGS with every text s as "⟦s⟧" (functions' results, arrays and sections
 * likewise).
 */
export const PSEUDO_STRINGS = `
import { STRINGS as REAL } from './strings-real.js';
export * from './strings-real.js';
const wrap = (value) => {
  if (typeof value === 'string') return value === '' ? value : '⟦' + value + '⟧';
  if (typeof value === 'function') return (...args) => wrap(value(...args));
  if (Array.isArray(value)) return value.map(wrap);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrap(v)]));
  return value;
};
export const STRINGS = wrap(REAL);
`;
