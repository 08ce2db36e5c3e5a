// snowmint, installed from its packed tarballs, on every JavaScript runtime
// besides Node that the test command runs (scripts/test.d/47-runtimes.sh
// prepares the app and the runtimes): Deno (no permissions; leases with the
// permissions they need), Bun on glibc and on musl, Cloudflare's workerd
// through miniflare (a 2024 compatibility date, snowmint imported lazily
// inside fetch()), Vercel's edge-runtime (the edge-light condition),
// Chromium and Firefox (pages under a strict Content-Security-Policy). Each
// runs probe.js: every kind of ID, a Discord Snowflake decoded, 100k ULIDs
// strictly increasing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';

const APP = process.env.SNOWMINT_RUNTIMES_APP;
const BIN = new URL('node_modules/.bin/', import.meta.url).pathname;
const BUN_MUSL = process.env.SNOWMINT_BUN_MUSL;
const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];
assert.ok(APP, 'SNOWMINT_RUNTIMES_APP names the app with snowmint installed (scripts/test.d/47-runtimes.sh)');
writeFileSync(path.join(APP, 'probe.js'), readFileSync(new URL('probe.js', import.meta.url)));
writeFileSync(path.join(APP, 'main.mjs'), "import * as sm from 'snowmint';\nimport { probe } from './probe.js';\nconsole.log(JSON.stringify(probe(sm)));\n");

/** Asserts what probe.js reports, and that it ran on `backend`. */
function assertProbe(r, backend) {
  assert.ok(!r.error, r.error);
  assert.equal(r.backend, backend);
  assert.deepEqual(r.decoded, {
    snowflake: 'snowflake',
    snowflakeString: 'snowflake',
    ulid: 'ulid',
    uuidv7: 'uuidv7',
    uuidv4: 'uuidv4',
    uuidv1: 'uuidv1',
    uuidv6: 'uuidv6',
    ksuid: 'ksuid',
    objectId: 'objectid',
    typeid: 'typeid',
  });
  assert.match(r.ids.snowflake, /^\d{1,19}$/);
  assert.ok(BigInt(r.ids.snowflakeString) > BigInt(r.ids.snowflake), 'nextIdString() after nextId() is greater');
  assert.match(r.ids.ulid, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  assert.match(r.ids.uuidv7, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(r.ids.typeid, /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
  assert.ok(r.batchIncreasing, 'nextIds(1000) strictly increasing');
  assert.equal(r.discord, '2016-04-30T11:18:25.796Z');
  assert.equal(r.ulids, 100_000);
  assert.ok(r.ulidsIncreasing, '100k ULIDs strictly increasing');
}

/** Runs a command in the app; returns the last line it prints, parsed. */
function runJson(cmd, args, env = {}) {
  const out = execFileSync(cmd, args, { cwd: APP, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  return JSON.parse(out.trim().split('\n').at(-1));
}

test('Deno: the root entry with no permission at all (the deno condition: the wasm build)', () => {
  assertProbe(runJson(`${BIN}deno`, ['run', '--no-prompt', 'main.mjs']), 'wasm');
});

test('Deno: snowmint/lease loads the native addon with --allow-ffi --allow-sys --allow-env --allow-write', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'snowmint-deno-lease-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    path.join(APP, 'lease.mjs'),
    `import { Snowflake } from 'snowmint';
import { localLease } from 'snowmint/lease';
const lease = localLease({ dir: Deno.args[0], workerIds: { min: 3, max: 3 } });
const g = new Snowflake({ lease });
const ids = [g.next(), g.next()];
lease.release();
console.log(JSON.stringify({ workerId: g.decode(ids[0]).workerId, increasing: ids[1] > ids[0] }));
`,
  );
  const perms = ['--allow-ffi', '--allow-sys', '--allow-env', '--allow-write'];
  assert.deepEqual(runJson(`${BIN}deno`, ['run', '--no-prompt', ...perms, 'lease.mjs', dir]), { workerId: 3, increasing: true });
  // Without --allow-ffi the addon cannot load, and the lease says so.
  assert.throws(
    () => execFileSync(`${BIN}deno`, ['run', '--no-prompt', ...perms.slice(1), 'lease.mjs', dir], { cwd: APP, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, NO_COLOR: '1' } }),
    /snowmint loaded no native binary for linux-x64-gnu, so it runs on its wasm build \(tried [\s\S]*Requires ffi access/,
  );
});

const loadedWith = (bun) =>
  execFileSync(bun, ['-e', "import('./node_modules/snowmint/src/addon.js').then((a) => console.log(a.platform, a.addonPath !== null))"], { cwd: APP, encoding: 'utf8' }).trim();

test('Bun (glibc): the native addon of snowmint-linux-x64-gnu', () => {
  assertProbe(runJson(`${BIN}bun`, ['main.mjs']), 'native');
  assert.equal(loadedWith(`${BIN}bun`), 'linux-x64-gnu true');
});

test('Bun (musl): the native addon of snowmint-linux-x64-musl', { skip: !BUN_MUSL && 'SNOWMINT_BUN_MUSL is not set' }, () => {
  assertProbe(runJson(BUN_MUSL, ['main.mjs']), 'native');
  assert.equal(loadedWith(BUN_MUSL), 'linux-x64-musl true');
});

/**
 * Bundles `contents` (code in the app) into `outdir` the way a platform's tooling does, for
 * `conditions`. A `.wasm` import stays a module of its own, copied beside
 * the bundle, as wrangler does with its CompiledWasm rule.
 */
async function bundle(contents, outdir, options) {
  const wasmModules = {
    name: 'wasm-modules',
    setup(b) {
      b.onResolve({ filter: /\.wasm$/ }, (a) => {
        const src = path.resolve(a.resolveDir, a.path);
        writeFileSync(path.join(outdir, path.basename(src)), readFileSync(src));
        return { path: `./${path.basename(src)}`, external: true };
      });
    },
  };
  await build({ stdin: { contents, resolveDir: APP, loader: 'js' }, bundle: true, outdir, write: true, plugins: [wasmModules], logLevel: 'warning', ...options });
}

const WORKER = `export default {
  async fetch() {
    try {
      const [sm, { probe }] = await Promise.all([import('snowmint'), import('./probe.js')]);
      return Response.json(probe(sm));
    } catch (e) {
      return Response.json({ error: e.name + ': ' + e.message });
    }
  },
};`;

/** The probe in workerd (miniflare), snowmint imported lazily in fetch(), bundled for `conditions`. */
async function inWorkerd(t, conditions) {
  const { Miniflare } = await import('miniflare');
  const out = mkdtempSync(path.join(tmpdir(), 'snowmint-workerd-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  await bundle(WORKER, out, { format: 'esm', splitting: true, platform: 'neutral', conditions, mainFields: ['module', 'main'], entryNames: 'worker' });
  const mf = new Miniflare({
    modules: true,
    scriptPath: path.join(out, 'worker.js'),
    modulesRoot: out,
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2024-03-01',
  });
  try {
    return await (await mf.dispatchFetch('http://localhost/')).json();
  } finally {
    await mf.dispose();
  }
}

test('workerd (miniflare), compatibility date 2024-03-01, lazy import(): the workerd condition', async (t) => {
  assertProbe(await inWorkerd(t, ['workerd', 'worker', 'browser']), 'wasm');
  // Why the condition exists: the browser build compiles its inlined bytes, which workerd refuses here.
  const r = await inWorkerd(t, ['browser']);
  assert.match(r.error ?? '', /CompileError: .*Wasm code generation disallowed by embedder/);
});

test("Vercel's edge-runtime: the edge-light condition", async (t) => {
  const { EdgeRuntime } = await import('edge-runtime');
  const out = mkdtempSync(path.join(tmpdir(), 'snowmint-edge-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  await bundle("import * as sm from 'snowmint'; import { probe } from './probe.js'; self.result = JSON.stringify(probe(sm));", out, {
    format: 'iife',
    platform: 'browser',
    conditions: ['edge-light'],
    entryNames: 'edge',
  });
  const runtime = new EdgeRuntime({ initialCode: readFileSync(path.join(out, 'edge.js'), 'utf8') });
  assertProbe(JSON.parse(runtime.evaluate('self.result')), 'wasm');
});

/**
 * Serves the probe as a page bundled for browsers, twice: under a strict
 * Content-Security-Policy with 'wasm-unsafe-eval', and without it. Returns the base URL.
 */
async function servePages(t) {
  const out = mkdtempSync(path.join(tmpdir(), 'snowmint-page-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  // The wasm modules compile at first use, not at import: an error of either is the page's result.
  await bundle("import { probe } from './probe.js'; import('snowmint').then(probe).then((r) => { window.result = r; }, (e) => { window.result = { error: e.name + ': ' + e.message }; });", out, {
    format: 'esm',
    splitting: true,
    platform: 'browser',
    entryNames: 'page',
  });
  const STRICT = "default-src 'none'; script-src 'self'";
  const pages = {
    '/strict.html': `${STRICT} 'wasm-unsafe-eval'`,
    '/strict-no-wasm.html': STRICT,
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    if (pages[url] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': pages[url] });
      res.end('<!doctype html><meta charset="utf-8"><title>snowmint</title><script type="module" src="page.js"></script>');
      return;
    }
    const file = path.join(out, path.basename(url));
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return `http://127.0.0.1:${server.address().port}`;
}

/** Opens `url` in `page` (playwright or puppeteer) and waits for the probe's result. */
async function pageResult(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.result !== undefined, { timeout: 60_000 });
  return page.evaluate(() => window.result);
}

/** The strict page mints; the same page without 'wasm-unsafe-eval' cannot compile the module. */
async function checkPages(page, base) {
  assertProbe(await pageResult(page, `${base}/strict.html`), 'wasm');
  const blocked = await pageResult(page, `${base}/strict-no-wasm.html`);
  assert.match(blocked.error ?? '', /CompileError/, JSON.stringify(blocked));
}

test('Chromium (playwright-core): a page under a strict CSP with wasm-unsafe-eval', async (t) => {
  const base = await servePages(t);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  t.after(() => browser.close());
  await checkPages(await browser.newPage(), base);
});

test('Firefox ESR (puppeteer-core over WebDriver BiDi): a page under a strict CSP with wasm-unsafe-eval', async (t) => {
  const base = await servePages(t);
  const puppeteer = (await import('puppeteer-core')).default;
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, protocol: 'webDriverBiDi' });
  t.after(() => browser.close());
  assert.match(await browser.version(), /firefox/i);
  await checkPages(await browser.newPage(), base);
});
