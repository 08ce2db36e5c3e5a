// Reusable helper for browser tests: a static HTTP server over the repository and
// a headless Chromium page (playwright-core driving Debian's /usr/bin/chromium).
//
//   import { withBrowser } from '../browser/harness.js';
//   await withBrowser(async ({ page, baseUrl }) => {
//     await page.goto(`${baseUrl}/tests/browser/blank.html`); // any path under the repo
//     const n = await page.evaluate(async (u) => (await import(u)).answer, `${baseUrl}/npm/src/x.js`);
//   });
//
// Served paths: `/<path>` is `<repo>/<path>`. `/` answers an empty
// HTML page (and /favicon.ico an empty 204), so `page.goto(baseUrl)` gives a same-origin page to import modules into.
// The server listens on a free port of 127.0.0.1 only and refuses paths that leave
// the repository. Everything is closed again, whatever the callback does.
import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Maps a URL path to a file, or null when it leaves the served roots. */
function resolvePath(urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const root = REPO_ROOT;
  const file = path.resolve(root, '.' + path.posix.normalize('/' + rel));
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

/**
 * Starts the static server on a free loopback port.
 * @returns {Promise<{ server: import('node:http').Server, baseUrl: string, close: () => Promise<void> }>}
 */
export async function startServer() {
  const server = http.createServer(async (req, res) => {
    const urlPath = new URL(req.url, 'http://x').pathname;
    if (urlPath === '/') {
      res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
      res.end('<!doctype html><meta charset="utf-8"><title>snowmint tests</title>');
      return;
    }
    if (urlPath === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    const file = resolvePath(urlPath);
    try {
      if (!file || !(await stat(file)).isFile()) throw new Error('not a file');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': TYPES['.txt'] });
      res.end('not found');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs `fn` with a fresh server, browser and page; closes all of them afterwards,
 * even when `fn` throws. Console errors, uncaught page errors and HTTP error responses
 * are collected in `pageErrors` (and printed when the DEBUG_BROWSER environment variable is set).
 *
 * @template T
 * @param {(ctx: { page: import('playwright-core').Page, browser: import('playwright-core').Browser, baseUrl: string, pageErrors: string[] }) => Promise<T>} fn
 * @param {{ timeoutMs?: number }} [options] default timeout of page operations (60 s)
 * @returns {Promise<T>}
 */
export async function withBrowser(fn, { timeoutMs = 60_000 } = {}) {
  const { chromium } = await import('playwright-core');
  const srv = await startServer();
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage();
    page.setDefaultTimeout(timeoutMs);
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('response', (r) => {
      if (r.status() >= 400) pageErrors.push(`HTTP ${r.status()} for ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
      if (process.env.DEBUG_BROWSER) console.log(`[browser ${m.type()}] ${m.text()}`);
    });
    await page.goto(srv.baseUrl + '/');
    return await fn({ page, browser, baseUrl: srv.baseUrl, pageErrors });
  } finally {
    if (browser) await browser.close().catch(() => {});
    await srv.close();
  }
}
