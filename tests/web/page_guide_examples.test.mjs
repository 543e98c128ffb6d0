// Every code example of the lesson author's guide (web/README.md: its ```js blocks and the inline <script>s of
// its ```html blocks) compiles as strict TypeScript against sqrtdk-lab.d.ts and runs as JavaScript in a page.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, newPage, openLab } from './helpers/browser.mjs';
import { tscPath } from './helpers/declarations.mjs';

/** The guide's examples: [{line, code}], code de-indented. */
function guideExamples() {
  const readme = readFileSync(join(REPO, 'web/README.md'), 'utf8');
  const examples = [];
  for (const match of readme.matchAll(/^( *)```(js|html)\n([\s\S]*?)^\1```$/gm)) {
    const [, indent, language, body] = match;
    const code = body.split('\n').map((l) => l.slice(indent.length)).join('\n');
    const line = readme.slice(0, match.index).split('\n').length + 1;
    if (language === 'js') examples.push({ line, code });
    for (const script of code.matchAll(/<script>([\s\S]*?)<\/script>/g)) examples.push({ line, code: script[1] });
  }
  return examples;
}

test('the guide has examples to check', () => {
  assert.ok(guideExamples().length >= 4, `${guideExamples().length} examples`);
});

test('every example of the guide compiles as strict TypeScript with the declarations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqrtdk-guide-'));
  try {
    const files = guideExamples().map(({ line, code }) => {
      const name = `readme-line-${line}.ts`;
      writeFileSync(join(dir, name), `${code}\nexport {};\n`);  // a module each: their names do not clash
      return name;
    });
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], module: 'esnext', moduleResolution: 'bundler', types: [] },
      files: [join(REPO, 'web/types/sqrtdk-lab.d.ts'), ...files],
    }));
    try {
      execFileSync(process.execPath, [tscPath(), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      assert.fail(`tsc rejects an example of web/README.md:\n${error.stdout}${error.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('http: every example of the guide runs as JavaScript on a page with what it looks up', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('http', 'fixtures/guide-examples.html'));
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot);
    for (const { line, code } of guideExamples()) {
      const thrown = await page.evaluate((source) => {
        try {
          new Function(source)();
          return null;
        } catch (error) {
          return `${error.name}: ${error.message}`;
        }
      }, code);
      assert.equal(thrown, null, `the example at web/README.md line ${line} throws`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
