// `npm pack` from a clone: without the build, prepack stops with one line naming the set-up command (and writes no
// tarball); with the build's products in place (the wasm modules, node_modules), the tarball holds the whole
// package.  The clone is the repository's files under web/ and at the top (tracked, or new and not ignored),
// copied to a scratch directory, so the test sees this working tree's package.json and scripts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { BUILD_COMMAND, WASM_INPUTS } from '../../web/build-inputs.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');
// What page_api_package.test.mjs installs and loads: the full package.
const FULL = ['README.md', 'package.json', 'web/README.md', 'web/dist/embed.html', 'web/dist/embed.js', 'web/dist/favicon.svg',
  'web/dist/index.html', 'web/dist/lab.html', 'web/dist/page.css', 'web/dist/sqrtdk-lab.d.ts', 'web/dist/sqrtdk-lab.js'];

function cloneInto(dir) {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'web', 'package.json',
    'package-lock.json', 'README.md'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(REPO, file))) continue;  // deleted in the working tree
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(REPO, file), join(dir, file));
  }
}

const pack = (cwd) => spawnSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd, encoding: 'utf8' });

let clone;
test.before(() => {
  clone = mkdtempSync(join(tmpdir(), 'sqrtdk-clone-'));
  cloneInto(clone);
});
test.after(() => rmSync(clone, { recursive: true, force: true }));

test('without the build, npm pack stops with one line naming the set-up command', () => {
  assert.ok(!existsSync(join(clone, 'web/dist')), 'the clone has no web/dist');
  const result = pack(clone);
  assert.notEqual(result.status, 0);
  const ours = result.stderr.split('\n').filter((line) => line.startsWith('sqrtdk-lab:'));
  assert.equal(ours.length, 1, result.stderr);
  assert.ok(ours[0].includes(`\`${BUILD_COMMAND}\``), ours[0]);
  assert.match(ours[0], /esbuild/);  // what is missing is named
  assert.ok(!result.stderr.includes('    at '), `a stack trace:\n${result.stderr}`);
  assert.ok(!existsSync(join(clone, 'web/dist')));
  assert.deepEqual(readdirSync(clone).filter((f) => f.endsWith('.tgz')), []);
});

test('after the build, npm pack gives the full tarball', { skip: !WASM_INPUTS.every(([file]) => existsSync(file)) && 'the wasm modules are not built' }, () => {
  // The build's products: the modules, and the build directory's package.json (Emscripten's glue is CommonJS).
  for (const file of [...WASM_INPUTS.map(([built]) => built), join(REPO, 'wasm_build/build/package.json')]) {
    const target = join(clone, 'wasm_build/build', file.split('/').pop());
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
  const result = pack(clone);
  assert.equal(result.status, 0, result.stderr);
  const [packed] = JSON.parse(result.stdout.slice(result.stdout.indexOf('[\n')));
  assert.deepEqual(packed.files.map((f) => f.path).sort(), FULL);
  console.log(`${packed.filename}: ${packed.size} bytes packed, ${packed.files.length} files`);
});
