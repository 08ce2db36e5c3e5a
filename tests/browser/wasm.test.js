// snowmint's browser build (npm/entries/browser.js over the wasm backend) in real
// headless Chromium: the shared vectors, millions of IDs, a wall clock changed
// under the page (followed forward, never back), and a browser context with the network switched off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser } from './harness.js';

/** Runs `fn(sm, baseUrl)` in a page that imported the browser entry. */
function inPage(fn, arg) {
  return withBrowser(async ({ page, baseUrl, pageErrors }) => {
    const result = await page.evaluate(
      async ({ baseUrl, source, arg }) => {
        const sm = await import(`${baseUrl}/npm/entries/browser.js`);
        // biome-ignore lint/complexity/noCommaOperator: indirect eval runs the test's function in the page's global scope
        // biome-ignore lint/security/noGlobalEval: the source is this test file's own function, sent to the page
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
    sm.configure({ workerId: 1 });
    for (const [name, mint] of [
      ['ulid', sm.ulid],
      ['uuidv7', sm.uuidv7],
      ['nextId', sm.nextId],
    ]) {
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

test('the clock follows a wall clock moved forward under the page, holds when it moves back, and catches up after a sleep', { timeout: 120_000 }, async () => {
  const r = await inPage((sm) => {
    // The page's two clocks, moved by the test: `wall` shifts Date.now(),
    // `mono` shifts performance.now() (the monotonic clock the core advances by).
    const realNow = Date.now.bind(Date);
    const realPerf = performance.now.bind(performance);
    const shift = { wall: 0, mono: 0 };
    Date.now = () => realNow() + shift.wall;
    performance.now = () => realPerf() + shift.mono;
    const { clockCheckMs } = sm.constants;
    const HOUR = 3_600_000;
    sm.configure({ workerId: 1 });
    const ulids = [];
    const snowflakes = [];
    /** Time passes: both clocks jump `ms` ahead (one check interval is due once `ms` >= clockCheckMs). */
    const pass = (ms) => {
      shift.wall += ms;
      shift.mono += ms;
    };
    /** Mints 1,000 of each; the ms of the last ULID and Snowflake, less Date.now(). */
    const mint = () => {
      for (let i = 0; i < 1000; i++) {
        ulids.push(sm.ulid());
        snowflakes.push(sm.nextId());
      }
      const now = Date.now();
      return [sm.decode(ulids.at(-1)).timestamp - now, sm.decode(snowflakes.at(-1)).timestamp - now];
    };
    const lag = {};
    try {
      lag.start = mint();
      // The user sets the clock back an hour: IDs hold on the monotonic pace.
      shift.wall -= HOUR;
      pass(2 * clockCheckMs);
      lag.back = mint();
      // ... then forward again, to 5 minutes ahead of where IDs are.
      shift.wall += HOUR + 5 * 60_000;
      pass(clockCheckMs);
      lag.forward = mint();
      // The machine sleeps 30 minutes: the wall clock moves on, performance.now() does not.
      shift.wall += 30 * 60_000;
      pass(clockCheckMs);
      lag.asleep = mint();
    } finally {
      Date.now = realNow;
      performance.now = realPerf;
    }
    const increasing = (ids) => ids.every((id, i) => i === 0 || ids[i - 1] < id);
    return { lag, increasing: increasing(ulids) && increasing(snowflakes), clockCheckMs };
  });
  assert.ok(r.increasing, 'IDs went back');
  const near = (lags, ms, what) => {
    for (const lag of lags) assert.ok(Math.abs(lag - ms) < 1000, `${what}: an ID is ${lag} ms off the page's wall clock (expected ${ms})`);
  };
  near(r.lag.start, 0, 'at the start');
  near(r.lag.back, 3_600_000, 'after the wall clock moved back an hour (IDs hold)');
  near(r.lag.forward, 0, `one check interval (${r.clockCheckMs} ms) after it moved forward`);
  near(r.lag.asleep, 0, 'one check interval after a 30-minute sleep');
});

test('nextIdAsync() in a page waits on a timer for a used-up tick while the page keeps running', { timeout: 120_000 }, async () => {
  const r = await inPage(async (sm) => {
    const clock = new sm.TestClock(Date.now());
    sm.configure({ workerId: 3, clock });
    const used = sm.nextIds(4096); // the whole tick
    let beats = 0;
    const beat = setInterval(() => beats++, 1);
    const pending = sm.nextIdAsync();
    await new Promise((resolve) => setTimeout(resolve, 50));
    clock.advance(1);
    const id = await pending;
    clearInterval(beat);
    return { later: id > used[4095], tick: sm.decode(id).timestamp - sm.decode(used[4095]).timestamp, beats };
  });
  assert.deepEqual([r.later, r.tick], [true, 1]);
  assert.ok(r.beats >= 3, `a 1 ms interval fired ${r.beats} times in 50 ms`);
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
      }, `${baseUrl}/npm/entries/browser.js`);
      await context.setOffline(true);
      const r = await page.evaluate(async (baseUrl) => {
        const sm = window.sm;
        const online = navigator.onLine;
        const fetchFails = await fetch(`${baseUrl}/tests/vectors/ulid.json`).then(
          () => false,
          () => true,
        );
        const kinds = [sm.ulid, sm.uuidv7, sm.uuidv4, sm.uuidv1, sm.uuidv6, sm.ksuid, sm.objectId, () => sm.typeid('user')];
        const minted = kinds.flatMap((mint) => Array.from({ length: 10_000 }, mint));
        const decoded = minted.filter((_, i) => i % 997 === 0).map((id) => sm.decode(id).kind);
        sm.configure({ workerId: 1 });
        return { online, fetchFails, minted: minted.length, unique: new Set(minted).size, decoded, nextId: String(sm.nextId()) };
      }, baseUrl);
      assert.equal(r.online, false);
      assert.ok(r.fetchFails, 'the network is really off');
      assert.equal(r.unique, r.minted);
      assert.deepEqual([...new Set(r.decoded)].sort(), ['ksuid', 'objectid', 'typeid', 'ulid', 'uuid']);
      assert.match(r.nextId, /^\d+$/);
      assert.deepEqual(
        requests.filter((u) => u.endsWith('.wasm')),
        [],
        'no .wasm file is fetched',
      );
    } finally {
      await context.close();
    }
  });
});

test('nextId() with no worker ID configured throws ConfigError on a page and in workers; with one each, no duplicates', { timeout: 120_000 }, async () => {
  const r = await inPage(async (sm, baseUrl) => {
    const refusal = (f) => {
      try {
        f();
        return null;
      } catch (e) {
        return { config: e instanceof sm.ConfigError, code: e.code, message: e.message };
      }
    };
    const N = 200_000;
    // Two Web Workers, each its own wasm instance (the case: 2 x 200k on worker ID 0 gave 154,101 duplicates).
    const source = `import * as sm from '${baseUrl}/npm/entries/browser.js';
      onmessage = ({ data: workerId }) => {
        let refused = null;
        try { sm.nextId(); } catch (e) { refused = { config: e instanceof sm.ConfigError, code: e.code }; }
        sm.configure({ workerId });
        const ids = new BigUint64Array(${N});
        for (let i = 0; i < ids.length; i++) ids[i] = sm.nextId();
        postMessage({ refused, ids }, [ids.buffer]);
      };`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const run = (workerId) =>
      new Promise((resolve, reject) => {
        const w = new Worker(url, { type: 'module' });
        w.onmessage = (e) => {
          w.terminate();
          resolve(e.data);
        };
        w.onerror = (e) => reject(new Error(`worker: ${e.message}`));
        w.postMessage(workerId);
      });
    const page = {
      nextId: refusal(() => sm.nextId()),
      nextIdString: refusal(() => sm.nextIdString()),
      nextIds: refusal(() => sm.nextIds(10)),
      configureWithoutWorkerId: refusal(() => sm.configure({ preset: 'discord' })),
    };
    const workers = await Promise.all([run(1), run(2)]);
    const all = new Set();
    for (const { ids } of workers) for (const id of ids) all.add(id);
    return {
      page,
      refused: workers.map((w) => w.refused),
      unique: all.size,
      workerIds: workers.map(({ ids }) => sm.decode(ids[0]).workerId),
      ulid: sm.ulid().length,
    };
  });
  for (const [what, e] of Object.entries(r.page)) {
    assert.ok(e, `${what} must throw before a worker ID is configured`);
    assert.equal(e.config, true, what);
    assert.equal(e.code, 'ERR_NO_WORKER_ID', what);
    assert.match(e.message, /every page, tab and worker .* would use worker ID 0/);
    assert.match(e.message, /configure\(\{ workerId \}\)/);
    assert.match(e.message, /ulid\(\) or uuidv7\(\)/);
  }
  assert.deepEqual(r.refused, [
    { config: true, code: 'ERR_NO_WORKER_ID' },
    { config: true, code: 'ERR_NO_WORKER_ID' },
  ]);
  assert.equal(r.unique, 400_000, 'two workers with their own worker IDs mint no duplicate');
  assert.deepEqual(r.workerIds, [1, 2]);
  assert.equal(r.ulid, 26);
});
