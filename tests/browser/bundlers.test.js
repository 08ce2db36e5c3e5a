// snowmint loads with no bundler configuration: the fixture app
// (fixtures/app/, which imports 'snowmint' by name and mints in a Web Worker)
// from a static server with an import map, built by Vite, and bundled by
// esbuild, each run in headless Chromium. The package is "installed" into a
// temporary app folder as a symlink, the way `npm install ../npm` does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, withBrowser } from './harness.js';

const BIN = path.join(REPO_ROOT, 'node_modules/.bin');
const DISCORD_DATE = '2016-04-30T11:18:25.796Z';

/** The fixture app in a temp folder under the repository (served by the harness), with snowmint linked in. */
function appCopy(t) {
  const parent = path.join(REPO_ROOT, 'tmp');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(path.join(parent, 'bundlers-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(path.join(REPO_ROOT, 'tests/browser/fixtures/app'), path.join(dir, 'app'), { recursive: true });
  mkdirSync(path.join(dir, 'app/node_modules'));
  symlinkSync(path.join(REPO_ROOT, 'npm'), path.join(dir, 'app/node_modules/snowmint'));
  return dir;
}

async function runPage(urlPath) {
  return withBrowser(async ({ page, baseUrl, pageErrors }) => {
    await page.goto(`${baseUrl}/${urlPath}`);
    const result = await page.evaluate(() => window.snowmintResult);
    return { ...result, pageErrors };
  });
}

function checkResult(r) {
  assert.deepEqual(r.pageErrors, []);
  assert.equal(r.page.unconfigured, 'ERR_NO_WORKER_ID', 'nextId() on the page before configure({ workerId })');
  assert.equal(r.worker.unconfigured, 'ERR_NO_WORKER_ID', 'nextId() in the worker before configure({ workerId })');
  assert.equal(r.page.backend, 'wasm');
  assert.match(r.page.ulid, /^[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.match(r.page.uuidv7, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(r.page.nextId, /^\d{18,19}$/);
  assert.equal(r.page.discord, DISCORD_DATE);
  assert.equal(r.worker.backend, 'wasm');
  assert.match(r.worker.ulid, /^[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.ok(r.worker.increasing, 'the worker minted increasing ULIDs and UUIDv7s');
}

test('a plain <script type="module"> with an import map, from a static server', { timeout: 120_000 }, async () => {
  checkResult(await runPage('tests/browser/fixtures/plain.html'));
});

test('a Vite build with no config file', { timeout: 300_000 }, async (t) => {
  const dir = appCopy(t);
  execFileSync(path.join(BIN, 'vite'), ['build', '--logLevel', 'warn', '--emptyOutDir', '--outDir', '../dist', '--base', './', 'app'], {
    cwd: dir,
    stdio: 'inherit',
  });
  checkResult(await runPage(`${path.relative(REPO_ROOT, dir)}/dist/index.html`));
});

test('an esbuild bundle with no options but --bundle and the entry points', { timeout: 120_000 }, async (t) => {
  const dir = appCopy(t);
  execFileSync(path.join(BIN, 'esbuild'), ['app/main.js', 'app/worker.js', '--bundle', '--format=esm', '--outdir=app', '--allow-overwrite', '--log-level=warning'], { cwd: dir, stdio: 'inherit' });
  checkResult(await runPage(`${path.relative(REPO_ROOT, dir)}/app/index.html`));
});

test('the browser build imports no Node built-in', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'snowmint-meta-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const meta = path.join(dir, 'meta.json');
  // --platform=neutral: a node: import would not even resolve.
  execFileSync(path.join(BIN, 'esbuild'), ['npm/entries/browser.js', '--bundle', '--format=esm', '--platform=neutral', `--metafile=${meta}`, `--outfile=${dir}/out.js`, '--log-level=error'], {
    cwd: REPO_ROOT,
  });
  const inputs = Object.keys(JSON.parse(readFileSync(meta, 'utf8')).inputs);
  assert.deepEqual(
    inputs.filter((f) => !f.startsWith('npm/')),
    [],
    `inputs: ${inputs.join(', ')}`,
  );
});
