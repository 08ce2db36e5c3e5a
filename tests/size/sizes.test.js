// What a page pays for snowmint, measured on real bundler output
// (pages.js): every page within its gzip budget, and every page, built by
// esbuild and by Vite, minting and decoding in headless Chromium and in
// Firefox ESR, its IDs checked against the shared bounds vectors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from '../browser/harness.js';
import { BUNDLERS, PAGES, PEERS, buildAll, table } from './pages.js';

const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
const BOUNDS = JSON.parse(readFileSync(new URL('../vectors/bounds.json', import.meta.url), 'utf8'));
/** RFC 9562's namespaces (its Table 3), by the names the vectors give them. */
const NAMESPACES = {
  DNS: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  URL: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  OID: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  X500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
};
/** The name-based UUIDs of the shared vectors. */
const NAME_BASED = JSON.parse(readFileSync(new URL('../vectors/uuid.json', import.meta.url), 'utf8'))
  .filter((v) => v.name_based)
  .map((v) => ({ name: v.name, version: v.version, namespace: NAMESPACES[v.name_based.namespace], text: v.name_based.name, uuid: v.text }));

let builds;
let cleanup;
before(() => {
  ({ builds, cleanup } = buildAll());
  console.log(table(builds));
});
after(() => cleanup?.());

for (const page of PAGES) {
  const limit = page.budget ?? page.ceiling;
  const what = page.budget ? 'budget' : page.goal ? `ceiling: the goal, ${page.goal} B, is not met yet` : 'ceiling';
  test(`page importing ${page.name}: at most ${limit} B gzipped with each bundler (${what})`, () => {
    for (const bundler of BUNDLERS) {
      const b = builds.find((x) => x.page === page.name && x.bundler === bundler);
      assert.ok(b.gzip <= limit, `${bundler}: ${b.gzip} B gzipped, over ${limit} B`);
    }
  });
}

/**
 * Runs in the page: mints and decodes with what the page put on
 * `globalThis.sm`, and returns what failed and how many checks ran.
 */
function checkPage({ bounds, nameBased }) {
  const sm = globalThis.sm;
  const failed = [];
  let checks = 0;
  const expect = (ok, what) => {
    checks++;
    if (!ok) failed.push(what);
  };
  const FORMS = {
    ulid: /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/,
    uuidv7: /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    uuidv4: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    uuidv1: /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    uuidv6: /^[0-9a-f]{8}-[0-9a-f]{4}-6[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    ksuid: /^[0-9A-Za-z]{27}$/,
    objectId: /^[0-9a-f]{24}$/,
  };
  // Kinds whose IDs increase from one call to the next on one page.
  const ORDERED = ['ulid', 'uuidv7', 'uuidv1', 'uuidv6', 'objectId'];
  for (const [name, form] of Object.entries(FORMS)) {
    if (!sm[name]) continue;
    const ids = Array.from({ length: 3000 }, () => sm[name]());
    expect(
      ids.every((id) => form.test(id)),
      `${name}: ${ids.find((id) => !form.test(id))}`,
    );
    expect(new Set(ids).size === ids.length, `${name}: a duplicate`);
    if (ORDERED.includes(name))
      expect(
        ids.every((id, i) => i === 0 || ids[i - 1] < id),
        `${name}: out of order`,
      );
  }
  if (sm.typeid) expect(/^user_[0-9a-hjkmnp-tv-z]{26}$/.test(sm.typeid('user')), 'typeid');
  // IDs for a time: within the vectors' bounds of that time.
  const FUNCTION_OF = { ulid: 'ulid', uuidv7: 'uuidv7', uuidv6: 'uuidv6', ksuid: 'ksuid', objectid: 'objectId', typeid: 'typeid' };
  for (const v of bounds) {
    const f = sm[FUNCTION_OF[v.kind]];
    if (!f) continue;
    const id = v.kind === 'typeid' ? f(v.prefix, { time: v.timestamp_ms }) : f({ time: v.timestamp_ms });
    expect(v.min <= id && id <= v.max, `${v.name}: ${id} not within ${v.min}..${v.max}`);
  }
  if (sm.configure && sm.nextId) {
    let refused = '';
    try {
      sm.nextId();
    } catch (e) {
      refused = e.code;
    }
    expect(refused === 'ERR_NO_WORKER_ID', `nextId() before configure(): ${refused || 'no error'}`);
    sm.configure({ workerId: 5 });
    const ids = Array.from({ length: 3000 }, () => sm.nextId());
    expect(
      ids.every((id, i) => typeof id === 'bigint' && ((id >> 12n) & 1023n) === 5n && (i === 0 || ids[i - 1] < id)),
      'nextId(): increasing Twitter-layout IDs of worker 5',
    );
  }
  if (sm.Snowflake) {
    for (const v of bounds.filter((b) => b.kind === 'snowflake')) {
      const g = new sm.Snowflake({ preset: v.preset, workerId: 0 });
      const id = g.at(v.timestamp_ms);
      expect(BigInt(v.min) <= id && id <= BigInt(v.max), `${v.name}: Snowflake#at ${id}`);
    }
  }
  if (sm.decode) {
    for (const v of bounds) {
      const options = v.preset ? { preset: v.preset } : undefined;
      const [lo, hi] = [v.min, v.max].map((id) => sm.decode(v.kind === 'snowflake' ? BigInt(id) : id, options).timestamp);
      expect(lo === hi && Math.abs(lo - v.timestamp_ms) < 1000, `${v.name}: decode gives ${lo}, ${hi}`);
    }
  }
  for (const v of nameBased) {
    const f = sm[`uuidv${v.version}`];
    if (f) expect(f(v.text, v.namespace) === v.uuid, `${v.name}: ${f(v.text, v.namespace)}`);
  }
  return { failed, checks };
}

/** Each built page in `browser` ('chromium' or 'firefox'): its checks, run on the page. */
async function runPages(browser) {
  const srv = await startServer();
  let b;
  try {
    if (browser === 'chromium') {
      const { chromium } = await import('playwright-core');
      b = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    } else {
      const puppeteer = (await import('puppeteer-core')).default;
      b = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
    }
    for (const build of builds) {
      const page = await b.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${srv.baseUrl}/${build.url}`);
      await page.waitForFunction(() => globalThis.sm !== undefined);
      const isPeer = PEERS.some((p) => p.name === build.page);
      const r = await page.evaluate(checkPage, isPeer ? { bounds: [], nameBased: [] } : { bounds: BOUNDS, nameBased: NAME_BASED });
      assert.deepEqual([...errors, ...r.failed], [], `${build.page} (${build.bundler}) in ${browser}`);
      assert.ok(r.checks >= 1, `${build.page} (${build.bundler}) in ${browser}: nothing checked`);
      await page.close();
    }
  } finally {
    await b?.close().catch(() => {});
    await srv.close();
  }
}

test('every page, from both bundlers, mints and decodes in headless Chromium', { timeout: 300_000 }, () => runPages('chromium'));
test('every page, from both bundlers, mints and decodes in Firefox ESR', { timeout: 300_000 }, () => runPages('firefox'));
