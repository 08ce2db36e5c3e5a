// Shared by the lease tests: child minters, duplicate checks, and the fault
// cases every store with a TTL (Redis, etcd) must pass.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { Snowflake, TestClock, decode } from '../../npm/src/node.js';
import { localLease } from '../../npm/src/lease/index.js';
import { open } from './clients.js';
import { tempDir } from './servers.js';

const MINTER = new URL('./minter.js', import.meta.url).pathname;

/** Forks tests/lease/minter.js with `cfg`; the child's messages arrive as 'message' events. */
export function spawnMinter(cfg) {
  return fork(MINTER, [JSON.stringify(cfg)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/**
 * Runs `n` minters at once, each minting `count` IDs (config `cfgOf(i)`) once
 * all of them hold a lease; returns their IDs and worker IDs.
 */
export async function mintInProcesses(n, count, cfgOf) {
  const dir = tempDir('ids');
  try {
    const children = [];
    let acquired = 0;
    const runs = Array.from({ length: n }, async (_, i) => {
      const out = join(dir, `${i}.bin`);
      const child = spawnMinter({ ...cfgOf(i), count, out });
      children.push(child);
      let workerId = null;
      child.on('message', (m) => {
        workerId = m.workerId;
        if (++acquired === n) for (const c of children) c.send('go');
      });
      const [code] = await once(child, 'exit');
      assert.equal(code, 0, `minter ${i} exited with ${code}`);
      const buf = readFileSync(out);
      return { ids: new BigUint64Array(buf.buffer, buf.byteOffset, buf.byteLength / 8), workerId };
    });
    return await Promise.all(runs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const THREAD_MINTER = new URL('./thread-minter.js', import.meta.url);

/** Runs tests/lease/thread-minter.js in a worker_thread with `job`; resolves with what it posts. */
export function mintInThread(job) {
  return new Promise((resolve, reject) => {
    const w = new Worker(THREAD_MINTER, { workerData: job });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

/** Asserts that `dir` holds one lock file, `workerId`'s, and that it is held. */
export function assertOneHeldLock(dir, workerId) {
  assert.deepEqual(readdirSync(dir), [`worker-${workerId}.lock`]);
  assert.throws(() => localLease({ dir, workerIds: { min: workerId, max: workerId } }), { code: 'ERR_LEASE_UNAVAILABLE' });
}

/** Asserts no ID occurs twice across `arrays`; returns how many there were. */
export function assertUnique(arrays) {
  const all = new BigUint64Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    all.set(a, at);
    at += a.length;
  }
  all.sort();
  let dups = 0;
  for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) dups++;
  assert.equal(dups, 0, `${dups} duplicate IDs among ${all.length}`);
  return all.length;
}

const max = (a) => a.reduce((m, v) => (v > m ? v : m), 0n);

/**
 * The fault cases of a lease with a TTL, against a real server:
 * `start()` starts it (with stop/start/close/url), `stores` are the client
 * kinds to use (alternating between processes), `total` IDs for the
 * concurrency case.
 */
export function ttlLeaseSuite({ name, start, stores, total }) {
  let server;
  test.before(async () => {
    server = await start();
  });
  test.after(async () => {
    await server?.close();
  });
  const timing = { ttlMs: 3000, renewMs: 1000, marginMs: 600 };
  const withClient = async (store, fn) => {
    const c = await open(store, server.url);
    try {
      return await fn(c);
    } finally {
      c.close();
    }
  };

  test(`${name}: 8 processes minting concurrently (${total / 1e6}M IDs): 0 duplicates, distinct worker IDs`, async () => {
    const runs = await mintInProcesses(8, total / 8, (i) => ({ store: stores[i % stores.length], url: server.url, lease: { prefix: 'concurrent' } }));
    assert.equal(new Set(runs.map((r) => r.workerId)).size, 8);
    assert.equal(assertUnique(runs.map((r) => r.ids)), total);
  });

  test(`${name}: a SIGKILLed holder's worker ID is not handed out before its TTL; the successor starts above its high-water mark`, async () => {
    const lease = { ...timing, prefix: 'kill', workerIds: { min: 7, max: 7 } };
    const child = spawnMinter({ store: stores[0], url: server.url, lease, forever: true });
    let minted = 0n;
    let acquired = null;
    child.on('message', (m) => {
      if (m.type === 'acquired') acquired = m;
      else minted = BigInt(m.max);
    });
    while (acquired === null || minted === 0n) await sleep(20);
    await sleep(timing.renewMs * 1.5); // renewed at least once
    child.kill('SIGKILL');
    await once(child, 'exit');
    const killedAt = performance.now();
    const before = minted;
    await withClient(stores[0], async (c) => {
      let refused = 0;
      let next;
      for (;;) {
        try {
          next = await c.lease(lease);
          break;
        } catch (e) {
          assert.equal(e.code, 'ERR_LEASE_UNAVAILABLE', e.message);
          refused++;
          await sleep(50);
        }
      }
      const waited = performance.now() - killedAt;
      assert.ok(refused > 0, 'the worker ID was handed out again at once');
      assert.ok(waited >= timing.ttlMs - timing.renewMs - 200, `handed out again ${waited} ms after the kill, before the TTL ran out`);
      assert.ok(waited < timing.ttlMs + 3000, `still not free ${waited} ms after the kill`);
      assert.equal(next.workerId, 7);
      assert.ok(next.resumeAfterMs >= decode(before).timestamp, 'the high-water bound is below what the holder minted');
      const first = new Snowflake({ lease: next }).next();
      assert.ok(first > before, `successor's first ID ${first} is not above the killed holder's ${before}`);
      assert.ok(decode(first).timestamp > next.resumeAfterMs);
      await next.release();
    });
  });

  test(`${name}: server stopped longer than the TTL: every generator stops within the TTL, resumes on a re-acquired lease, 0 duplicates`, async () => {
    await withClient(stores[0], async (c) => {
      const gens = [];
      for (let i = 0; i < 4; i++) {
        const lease = await c.lease({ ...timing, prefix: 'outage' });
        gens.push({ lease, sf: new Snowflake({ lease }), ids: [], lastOk: 0, errors: new Set() });
      }
      let running = true;
      const loop = (async () => {
        while (running) {
          for (const g of gens) {
            try {
              for (let i = 0; i < 200; i++) g.ids.push(g.sf.next());
              g.lastOk = performance.now();
            } catch (e) {
              g.errors.add(e.code);
            }
          }
          await sleep(10);
        }
      })();
      await sleep(1000);
      await server.stop();
      const stoppedAt = performance.now();
      await sleep(timing.ttlMs + 1500);
      for (const g of gens) {
        assert.ok(g.lastOk - stoppedAt < timing.ttlMs, `a generator still minted ${g.lastOk - stoppedAt} ms after the server stopped (TTL ${timing.ttlMs})`);
        assert.deepEqual([...g.errors], ['ERR_LEASE_EXPIRED']);
      }
      await server.start();
      const back = performance.now();
      while (gens.some((g) => g.lastOk < back)) {
        assert.ok(performance.now() - back < 20_000, 'generators did not resume within 20 s of the server coming back');
        await sleep(100);
      }
      running = false;
      await loop;
      assertUnique(gens.map((g) => BigUint64Array.from(g.ids)));
      for (const g of gens) await g.lease.release();
    });
  });

  test(`${name}: a clock stepped back 10 s across a restart: the same worker ID, 0 duplicates`, async () => {
    await withClient(stores[0], async (c) => {
      const clock = new TestClock(Date.now());
      // Time passes ten times faster than real time, so the test does not
      // wait 10 s; the TTL (on this clock) is long enough for real-time renewals.
      const ticker = setInterval(() => clock.advance(100), 10);
      try {
        const opts = { ttlMs: 60_000, renewMs: 1000, marginMs: 10_000, prefix: 'clock', workerIds: { min: 5, max: 5 }, clock };
        const a = await c.lease(opts);
        const sa = new Snowflake({ lease: a, clock });
        // A tick holds 4096 IDs and this clock moves only between chunks.
        const mint = async (sf, into) => {
          for (let i = 0; i < 20; i++) {
            for (let j = 0; j < 1000; j++) into.push(sf.next());
            await sleep(5);
          }
        };
        const before = [];
        await mint(sa, before);
        await a.release();
        clock.stepBack(10_000);
        const b = await c.lease(opts);
        assert.equal(b.workerId, 5);
        assert.ok(clock.now() > b.resumeAfterMs, 'the successor was handed its lease before its clock passed the bound');
        const sb = new Snowflake({ lease: b, clock });
        const after = [];
        await mint(sb, after);
        assert.ok(after[0] > max(before));
        assertUnique([BigUint64Array.from(before), BigUint64Array.from(after)]);
        await b.release();
      } finally {
        clearInterval(ticker);
      }
    });
  });

  test(`${name}: all 1024 worker IDs leased: the next claim fails with ERR_LEASE_UNAVAILABLE`, async () => {
    await withClient(stores[0], async (c) => {
      const leases = [];
      try {
        for (let i = 0; i < 1024; i++) leases.push(await c.lease({ ttlMs: 60_000, prefix: 'full' }));
        assert.equal(new Set(leases.map((l) => l.workerId)).size, 1024);
        await assert.rejects(c.lease({ ttlMs: 60_000, prefix: 'full' }), (e) => {
          assert.equal(e.code, 'ERR_LEASE_UNAVAILABLE');
          assert.equal(e.name, 'LeaseError');
          assert.match(e.message, /all 1024 worker IDs \(0\.\.1023\)/);
          return true;
        });
      } finally {
        for (const l of leases) await l.release();
      }
    });
  });
}
