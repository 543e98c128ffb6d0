// Every file a document or a comment points at exists: a path such as src/core/nn/model.hpp or
// web/src/worker/protocol.js, named in any tracked text file, is found from the repository's root, from the web/
// folder (web/README.md and the page's sources say src/... for web/src/...) or from the naming file's own folder.
// A file that moves without its pointers fails here.
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

test('every path named in a document or a comment exists', () => {
  const all = pointers();
  assert.ok(all.length > 200, `found only ${all.length} pointers: the pattern is broken`);
  const missing = all.filter(({ file, path }) => !WRITTEN_AT_RUN_TIME.has(path)
    && ![REPO, join(REPO, 'web'), join(REPO, dirname(file))].some((base) => existsSync(join(base, path))));
  assert.deepEqual(missing.map(({ file, line, path }) => `${file}:${line}: ${path}`), []);
});
