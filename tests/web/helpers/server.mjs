// A tiny static server on 127.0.0.1 (random port) for the browser tests: '/' serves web/dist and
// '/fixtures/' the test pages in tests/web/pages.  Stop it with close().
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

/**
 * @param {Object<string, string>} mounts URL prefix -> directory, longest prefix wins
 * @returns {Promise<{origin: string, requests: string[], close: () => Promise<void>}>}
 */
export async function startServer(mounts) {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const requests = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    requests.push(path);
    const prefix = prefixes.find((p) => path.startsWith(p));
    const root = mounts[prefix];
    const file = normalize(join(root, path.slice(prefix.length) || 'index.html'));
    if (!file.startsWith(normalize(root) + sep) && file !== normalize(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
