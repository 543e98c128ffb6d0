// The npm package: `npm pack` gives a tarball with the element, its types, the pages and the author's guide;
// installed into a scratch project it resolves through `exports` (script and types) and the element loads
// from node_modules in chromium.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, ensureDist, newPage, openLab, waitForDemo } from './helpers/browser.mjs';
import { startServer } from './helpers/server.mjs';
import { tscPath } from './helpers/declarations.mjs';
import { recordEvents, waitForEvents } from './helpers/api-events.mjs';

const EXPECTED_FILES = ['README.md', 'package.json', 'web/README.md', 'web/dist/embed.html', 'web/dist/embed.js', 'web/dist/favicon.svg',
  'web/dist/index.html', 'web/dist/lab.html', 'web/dist/page.css', 'web/dist/sqrtdk-lab.d.ts', 'web/dist/sqrtdk-lab.js'];
const MAX_TARBALL_BYTES = 400 * 1024;

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let scratch;
test.before(() => { scratch = mkdtempSync(join(tmpdir(), 'sqrtdk-package-')); });
test.after(() => rmSync(scratch, { recursive: true, force: true }));

test('npm pack, install into a scratch project, resolve, type-check and load the element from node_modules', async () => {
  ensureDist();
  // prepack rebuilds web/dist and prints a line before npm's JSON.
  const out = npm(['pack', '--pack-destination', scratch, '--json', '--loglevel=error'], REPO);
  const [packed] = JSON.parse(out.slice(out.indexOf('[\n')));
  assert.deepEqual(packed.files.map((f) => f.path).sort(), EXPECTED_FILES);
  assert.ok(packed.size < MAX_TARBALL_BYTES, `tarball ${packed.size} bytes`);
  console.log(`${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.files.length} files`);

  const project = join(scratch, 'lesson-site');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'lesson-site', private: true, type: 'module' })}\n`);
  npm(['install', join(scratch, packed.filename), '--offline', '--no-audit', '--no-fund', '--loglevel=error'], project);
  const installed = JSON.parse(readFileSync(join(project, 'node_modules/sqrtdk-lab/package.json'), 'utf8'));
  assert.equal(installed.version, packed.version);

  // exports: the script, the types, the pages and the guide.
  const resolve = (specifier) => execFileSync(process.execPath, ['--input-type=module', '-e', `console.log(import.meta.resolve(${JSON.stringify(specifier)}))`],
    { cwd: project, encoding: 'utf8' }).trim();
  assert.match(resolve('sqrtdk-lab'), /\/node_modules\/sqrtdk-lab\/web\/dist\/sqrtdk-lab\.js$/);
  assert.match(resolve('sqrtdk-lab/dist/lab.html'), /\/node_modules\/sqrtdk-lab\/web\/dist\/lab\.html$/);
  assert.match(resolve('sqrtdk-lab/README.md'), /\/node_modules\/sqrtdk-lab\/web\/README\.md$/);

  // A TypeScript lesson page finds the declarations through the package's exports.
  writeFileSync(join(project, 'lesson.ts'), [
    "import 'sqrtdk-lab';",
    "import type { SqrtdkAnswerDetail } from 'sqrtdk-lab';",
    "const lab = document.querySelector('sqrtdk-lab');",
    "lab?.addEventListener('sqrtdk-answer', (event) => { const answer: SqrtdkAnswerDetail = event.detail; console.log(answer.ratio); });",
    'lab?.start();',
    '',
  ].join('\n'));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'],
    module: 'esnext', moduleResolution: 'bundler', types: [] }, files: ['lesson.ts'] }));
  try {
    execFileSync(process.execPath, [tscPath(), '-p', project], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    assert.fail(`tsc in the scratch project failed:\n${error.stdout}${error.stderr}`);
  }

  // The element, straight from node_modules, in chromium.
  writeFileSync(join(project, 'index.html'), ['<!doctype html>', '<html lang="en"><head><meta charset="utf-8"><title>lesson</title>',
    '<link rel="icon" href="node_modules/sqrtdk-lab/web/dist/favicon.svg">', '<script src="node_modules/sqrtdk-lab/web/dist/sqrtdk-lab.js"></script></head>',
    '<body><sqrtdk-lab panels="softmax" dk="64"></sqrtdk-lab></body></html>', ''].join('\n'));
  const env = await openLab();
  const server = await startServer({ '/': project });
  try {
    const { page, context, errors } = await newPage(env.browser);
    await recordEvents(page);
    await page.goto(`${server.origin}/index.html`);
    await waitForEvents(page, 'sqrtdk-ready');
    await waitForDemo(page);
    assert.ok(server.requests.includes('/node_modules/sqrtdk-lab/web/dist/sqrtdk-lab.js'));
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await server.close();
    await env.close();
  }
});
