// snowmint's browser build (npm/src/browser.js over the wasm backend) in real
// headless Chromium: the shared vectors, millions of IDs, a wall clock changed
// under the page, and a browser context with the network switched off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser } from './harness.js';

/** Runs `fn(sm, baseUrl)` in a page that imported the browser entry. */
function inPage(fn, arg) {
  return withBrowser(async ({ page, baseUrl, pageErrors }) => {
    const result = await page.evaluate(
      async ({ baseUrl, source, arg }) => {
        const sm = await import(`${baseUrl}/npm/src/browser.js`);
        return (0, eval)(`(${source})`)(sm, baseUrl, arg);
      },
      { baseUrl, source: fn.toString(), arg },
    );
    assert.deepEqual(pageErrors, []);
    return result;
  });
}

test('the shared vectors (tests/vectors/) agree in Chromium', { timeout: 120_000 }, async (t) => {
  const r = await inPage(async (sm, baseUrl) => {
    const { checkVectors } = await import(`${baseUrl}/tests/browser/vectors.js`);
    return { backend: sm.backendName, ...(await checkVectors(sm, baseUrl)) };
  });
  t.diagnostic(`${r.checks} checks`);
  assert.equal(r.backend, 'wasm');
  assert.deepEqual(r.failures, []);
  assert.ok(r.checks > 250, `only ${r.checks} checks`);
});

test('1M ULIDs and 1M UUIDv7s: strictly increasing (so unique); 1M Snowflakes too', { timeout: 300_000 }, async (t) => {
  const r = await inPage((sm) => {
    const N = 1_000_000;
    const out = {};
    for (const [name, mint] of [['ulid', sm.ulid], ['uuidv7', sm.uuidv7], ['nextId', sm.nextId]]) {
      const t0 = performance.now();
      let prev = mint();
      let bad = 0;
      for (let i = 1; i < N; i++) {
        const id = mint();
        if (!(prev < id)) bad++;
        prev = id;
      }
      out[name] = { bad, ms: Math.round(performance.now() - t0) };
    }
    return out;
  });
  for (const [name, { bad, ms }] of Object.entries(r)) {
    t.diagnostic(`${name}: 1M in ${ms} ms`);
    assert.equal(bad, 0, `${name}: ${bad} IDs not above the previous one`);
  }
});

test('IDs follow the monotonic clock, not a wall clock changed under the page', { timeout: 120_000 }, async () => {
  const r = await inPage((sm) => {
    const realNow = Date.now.bind(Date);
    const ids = [sm.ulid()];
    const times = [];
    // The user sets the clock back an hour, then forward a day.
    for (const shift of [-3_600_000, 86_400_000]) {
      Date.now = () => realNow() + shift;
      for (let i = 0; i < 20_000; i++) ids.push(sm.ulid());
      ids.push(sm.uuidv7());
      times.push(sm.decode(ids.at(-2)).timestamp - realNow());
    }
    Date.now = realNow;
    const ulids = ids.filter((id) => id.length === 26);
    return { increasing: ulids.every((id, i) => i === 0 || ulids[i - 1] < id), times };
  });
  assert.ok(r.increasing);
  for (const skew of r.times) assert.ok(Math.abs(skew) < 1000, `an ID is ${skew} ms off the real time`);
});

test('minting works with the network switched off', { timeout: 120_000 }, async () => {
  await withBrowser(async ({ browser, baseUrl }) => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const requests = [];
      page.on('request', (req) => requests.push(req.url()));
      await page.goto(`${baseUrl}/`);
      await page.evaluate(async (u) => {
        window.sm = await import(u);
      }, `${baseUrl}/npm/src/browser.js`);
      await context.setOffline(true);
      const r = await page.evaluate(async (baseUrl) => {
        const sm = window.sm;
        const online = navigator.onLine;
        const fetchFails = await fetch(`${baseUrl}/tests/vectors/ulid.json`).then(() => false, () => true);
        const kinds = [sm.ulid, sm.uuidv7, sm.uuidv4, sm.uuidv1, sm.uuidv6, sm.ksuid, sm.objectId, () => sm.typeid('user')];
        const minted = kinds.flatMap((mint) => Array.from({ length: 10_000 }, mint));
        const decoded = minted.filter((_, i) => i % 997 === 0).map((id) => sm.decode(id).kind);
        return { online, fetchFails, minted: minted.length, unique: new Set(minted).size, decoded, nextId: String(sm.nextId()) };
      }, baseUrl);
      assert.equal(r.online, false);
      assert.ok(r.fetchFails, 'the network is really off');
      assert.equal(r.unique, r.minted);
      assert.deepEqual([...new Set(r.decoded)].sort(), ['ksuid', 'objectid', 'typeid', 'ulid', 'uuid']);
      assert.match(r.nextId, /^\d+$/);
      assert.deepEqual(requests.filter((u) => u.endsWith('.wasm')), [], 'no .wasm file is fetched');
    } finally {
      await context.close();
    }
  });
});
