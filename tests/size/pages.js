// What a page downloads for snowmint: small pages, each importing a part of
// the package by name, built as users build them (esbuild with --bundle
// --minify, and a Vite build with no config file), with the `ulid` and
// `uuid` packages built the same way beside them. Every byte a page
// downloads counts: each JavaScript and .wasm file of the build, gzipped
// (level 9) and brotli-compressed (quality 11) one by one.
//
// `node tests/size/pages.js` prints the table of the README (docs/browser.md).
// tests/size/sizes.test.js holds the budgets and runs every page in
// Chromium and Firefox.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const MINTING = 'ulid, uuidv7, uuidv4, uuidv1, uuidv6, ksuid, objectId, typeid, configure, nextId, nextIds, Snowflake';

/**
 * The pages: what each imports (`code`, whose names it puts on
 * `globalThis.sm` for the checks), and its gzip budget in bytes where the
 * issue that set it is met (`budget`), else the ceiling that keeps it from
 * growing while it is not (`ceiling`, with the `goal`).
 */
export const PAGES = [
  { name: 'ulid', code: "import { ulid } from 'snowmint';\nglobalThis.sm = { ulid };\n", budget: 6 * 1024 },
  { name: 'uuidv7', code: "import { uuidv7 } from 'snowmint';\nglobalThis.sm = { uuidv7 };\n", budget: 6 * 1024 },
  { name: 'configure + nextId', code: "import { configure, nextId } from 'snowmint';\nglobalThis.sm = { configure, nextId };\n", ceiling: 20 * 1024 },
  { name: 'every minting function', code: `import { ${MINTING} } from 'snowmint';\nglobalThis.sm = { ${MINTING} };\n`, ceiling: 29 * 1024, goal: 9 * 1024 },
  // 40 -> 37 KB when the browser entry's decode() stopped carrying the
  // Snowflake generators' JavaScript (api/read.js): 39.0 -> 36.2 KB; 37 ->
  // 34 KB when MD5 and SHA-1 left the full module (33.2 KB); 34 -> 33 KB
  // when its errors crossed as numbers, worded in JavaScript (32.8 -> 32.5 KB);
  // 33 -> 28 KB when it dropped wasm-bindgen for raw exports over buffers
  // (31.4 -> 27.5 KB: no glue, and no shims in the module).
  { name: 'decode', code: "import { decode } from 'snowmint';\nglobalThis.sm = { decode };\n", ceiling: 28 * 1024 },
  // Over the name-based module alone (web/names.js): 8.7 KB, down from 36.5 KB over the full module.
  { name: 'uuidv5', code: "import { uuidv5 } from 'snowmint';\nglobalThis.sm = { uuidv5 };\n", ceiling: 10 * 1024 },
  // Raised from 53 KB when Snowflakes and TypeIDs moved to modules of their
  // own (configure + nextId 45 -> 20 KB, every minting function 52 -> 28 KB,
  // decode 45 -> 39 KB): a page of everything carries them beside the full
  // module. Raised from 61 to 63 KB when uuidv3() and uuidv5() moved to a
  // module of their own (decode 36.2 -> 33.2 KB, uuidv5 36.5 -> 8.7 KB): it
  // carries that module, its own UUID reader included (59.3 -> 62.5 KB).
  // 63 -> 62 KB when the full module's errors crossed as numbers, worded in
  // JavaScript (62.4 -> 61.1 KB). 62 -> 58 KB when the full module dropped
  // wasm-bindgen for raw exports over buffers (61.2 -> 57.4 KB).
  { name: 'everything', code: "import * as sm from 'snowmint';\nglobalThis.sm = sm;\n", ceiling: 58 * 1024, goal: 30 * 1024 },
];

/** The peers, built the same way. */
export const PEERS = [
  { name: 'peer: ulid (monotonicFactory)', code: "import { monotonicFactory } from 'ulid';\nglobalThis.sm = { ulid: monotonicFactory() };\n" },
  { name: 'peer: uuid (v7)', code: "import { v7 } from 'uuid';\nglobalThis.sm = { uuidv7: v7 };\n" },
];

export const BUNDLERS = ['esbuild', 'vite'];

const BIN = path.join(REPO_ROOT, 'node_modules/.bin');

/** Raw, gzip and brotli bytes of the files, each compressed on its own, summed. */
function measure(files) {
  const sum = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const bytes = readFileSync(f);
    sum.raw += bytes.length;
    sum.gzip += gzipSync(bytes, { level: 9 }).length;
    sum.brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return sum;
}

/** Every .js and .wasm file under `dir`. */
function assets(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => /\.(m?js|wasm)$/.test(f))
    .map((f) => path.join(dir, f));
}

/**
 * Builds `page` with `bundler` in a folder of its own under `dir`, with
 * snowmint linked in as `npm install ../npm` would; returns the page to
 * open (relative to the repository) and its sizes.
 */
function build(dir, page, bundler) {
  const app = mkdtempSync(path.join(dir, `${bundler}-`));
  writeFileSync(path.join(app, 'main.js'), page.code);
  writeFileSync(path.join(app, 'index.html'), '<!doctype html>\n<meta charset="utf-8" />\n<script type="module" src="./main.js"></script>\n');
  mkdirSync(path.join(app, 'node_modules'));
  symlinkSync(path.join(REPO_ROOT, 'npm'), path.join(app, 'node_modules/snowmint'));
  let out;
  if (bundler === 'esbuild') {
    out = path.join(app, 'out');
    execFileSync(path.join(BIN, 'esbuild'), ['main.js', '--bundle', '--minify', '--format=esm', '--outdir=out', '--log-level=warning'], { cwd: app, stdio: 'inherit' });
    writeFileSync(path.join(out, 'index.html'), '<!doctype html>\n<meta charset="utf-8" />\n<script type="module" src="./main.js"></script>\n');
  } else {
    out = path.join(app, 'dist');
    execFileSync(path.join(BIN, 'vite'), ['build', '--logLevel', 'warn', '--base', './', '--outDir', 'dist'], { cwd: app, stdio: 'inherit' });
  }
  return { page: page.name, bundler, url: path.relative(REPO_ROOT, path.join(out, 'index.html')), ...measure(assets(out)) };
}

/** Builds every page and peer with both bundlers under a fresh folder of `tmp/`; `cleanup()` removes it. */
export function buildAll() {
  mkdirSync(path.join(REPO_ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(REPO_ROOT, 'tmp', 'size-'));
  const builds = [];
  for (const page of [...PAGES, ...PEERS]) for (const bundler of BUNDLERS) builds.push(build(dir, page, bundler));
  return { builds, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The builds as a Markdown table: a row per page, gzip and brotli per bundler. */
export function table(builds) {
  const rows = ['| page imports | esbuild gzip | esbuild brotli | Vite gzip | Vite brotli | budget (gzip) |', '|---|---|---|---|---|---|'];
  for (const page of [...PAGES, ...PEERS]) {
    const [e, v] = BUNDLERS.map((b) => builds.find((x) => x.page === page.name && x.bundler === b));
    const budget = page.budget ? kb(page.budget) : page.goal ? `${kb(page.goal)} (not met yet)` : '';
    rows.push(`| ${page.name} | ${kb(e.gzip)} | ${kb(e.brotli)} | ${kb(v.gzip)} | ${kb(v.brotli)} | ${budget} |`);
  }
  return rows.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { builds, cleanup } = buildAll();
  try {
    console.log(table(builds));
  } finally {
    cleanup();
  }
}
