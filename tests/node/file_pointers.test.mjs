// Every file a document or a comment points at exists: a path such as src/core/nn/model.hpp or
// web/src/worker/protocol.js, named in any tracked text file, is found from the repository's root, from the web/
// folder (web/README.md and the page's sources say src/... for web/src/...) or from the naming file's own folder.
// A file that moves without its pointers fails here. A path the build writes (one .gitignore ignores, such as
// web/dist/... or wasm_build/build/...) is a product, not a file of the repository: a clean clone has none yet.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');
const TEXT = /\.(cpp|hpp|js|mjs|py|sh|cmake|md|txt|ts|css|html|json)$|(^|\/)(CMakeLists\.txt|run)$/;
// Generated or pinned text that names no project files of its own.
const SKIP = new Set(['package-lock.json', 'web/src/core-tables.js']);
const POINTER = /(?<![\w./-])(?:\.ci|src|web|tests|scripts|wasm_build)\/[\w./-]*\w\.(?:cpp|hpp|js|mjs|py|sh|cmake|json|md|txt|ts|css|html)\b/g;
// Names a file that a test or the build writes at run time, not a file of the repository.
const WRITTEN_AT_RUN_TIME = new Set(['src/ui/strings-real.js']);

function pointers() {
  const files = execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n')
    .filter((f) => f && TEXT.test(f) && !SKIP.has(f) && existsSync(join(REPO, f)));
  const found = [];
  for (const file of files) {
    const lines = readFileSync(join(REPO, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [path] of line.matchAll(POINTER)) found.push({ file, line: i + 1, path });
    });
  }
  return found;
}

// The repository-relative places a pointer may mean: from the root, from web/, from the naming file's folder.
const candidates = ({ file, path }) => [path, join('web', path), join(dirname(file), path)];

// The candidates git ignores: build products.
function ignored(paths) {
  try {
    return new Set(execFileSync('git', ['check-ignore', '--no-index', '--stdin'],
      { cwd: REPO, encoding: 'utf8', input: paths.join('\n') }).split('\n').filter(Boolean));
  } catch (err) {
    if (err.status === 1) return new Set(); // none ignored
    throw err;
  }
}

test('every path named in a document or a comment exists', () => {
  const all = pointers();
  assert.ok(all.length > 200, `found only ${all.length} pointers: the pattern is broken`);
  const absent = all.filter((p) => !WRITTEN_AT_RUN_TIME.has(p.path)
    && !candidates(p).some((c) => existsSync(join(REPO, c))));
  const products = ignored(absent.flatMap(candidates));
  assert.ok(ignored(['web/dist/sqrtdk-lab.js']).size === 1, 'git check-ignore no longer sees web/dist/ as a build product');
  const missing = absent.filter((p) => !candidates(p).some((c) => products.has(c)));
  assert.deepEqual(missing.map(({ file, line, path }) => `${file}:${line}: ${path}`), []);
});
