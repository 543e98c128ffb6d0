// The pages the engine suite opens: web/dist, the browser tests' fixture pages (tests/web/pages, under
// fixtures/) and the suite's own (tests/engines/pages, under engines/), copied into a temp folder, each page with
// engine-probe.js put before its first script.  Served over http by two servers (two origins, for the iframe)
// and opened from file://.
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DIST, PAGES, ensureDist } from '../web/helpers/browser.mjs';
import { startServer } from '../web/helpers/server.mjs';

const PROBE = fileURLToPath(new URL('./engine-probe.js', import.meta.url));
const OWN_PAGES = fileURLToPath(new URL('./pages', import.meta.url));

function withProbe(dir, root) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) withProbe(path, root);
    else if (entry.name.endsWith('.html')) {
      const html = readFileSync(path, 'utf8');
      const tag = `<script src="${relative(dir, join(root, 'engine-probe.js')) }"></script>\n`;
      const at = html.includes('<script') ? html.indexOf('<script') : html.indexOf('</head>');
      writeFileSync(path, html.slice(0, at) + tag + html.slice(at));
    }
  }
}

/** {url(mode, path), labOrigin, close()}: mode 'http' or 'file'; labOrigin serves the same files on another port. */
export async function openSite() {
  ensureDist();
  const root = mkdtempSync(join(tmpdir(), 'sqrtdk-engines-'));
  cpSync(DIST, root, { recursive: true });
  cpSync(PAGES, join(root, 'fixtures'), { recursive: true });
  cpSync(OWN_PAGES, join(root, 'engines'), { recursive: true });
  copyFileSync(PROBE, join(root, 'engine-probe.js'));
  withProbe(root, root);
  const host = await startServer({ '/': root });
  const lab = await startServer({ '/': root });
  return {
    labOrigin: lab.origin,
    url: (mode, path) => (mode === 'http' ? `${host.origin}/${path}` : pathToFileURL(join(root, path)).href),
    async close() {
      await host.close();
      await lab.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
