// Shared by the lease tests: child minters, duplicate checks, and the fault
// cases every store with a TTL (Redis, etcd, ZooKeeper) must pass.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { Snowflake, TestClock, decode } from '../../npm/entries/node.js';
import { localLease } from '../../npm/src/lease/index.js';
import { open } from './clients.js';
import { tempDir } from './servers.js';

const MINTER = new URL('./minter.js', import.meta.url).pathname;

// Every minter still running when a file's tests end (a test failed before
// stopping it) is killed, so none mints on into memory and none keeps the
// test process waiting on its IPC channel.
const minters = new Set();
test.after(() => {
  for (const child of minters) child.kill('SIGKILL');
});

/** Forks the minter script `path` with `args` and an IPC channel, killed after the file's tests if still running. */
export function forkMinter(path, args, options = {}) {
  const child = fork(path, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...options });
  minters.add(child);
  child.once('exit', () => minters.delete(child));
  return child;
}

/** Forks tests/lease/minter.js with `cfg`; the child's messages arrive as 'message' events. */
export function spawnMinter(cfg) {
  return forkMinter(MINTER, [JSON.stringify(cfg)]);
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

/** The high-water bound a lock file records (its first line; the second is its holder's clock report). */
export function storedBound(dir, workerId) {
  return Number(readFileSync(join(dir, `worker-${workerId}.lock`), 'latin1').split('\n')[0]);
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

/** The largest of BigInt IDs. */
// biome-ignore lint/complexity/useMathMinMax: BigInts, which Math.max refuses
export const max = (a) => a.reduce((m, v) => (v > m ? v : m), 0n);

/** Resolves with `promise`, or fails the test after `ms`. */
export async function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until `ok()` holds, polling; fails the test after `ms` (and at once if `ok` throws). */
export async function until(ok, ms, what) {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

/**
 * The fault cases of a lease with a TTL, against a real server:
 * `start()` starts it (with stop/start/close/url), `stores` are the client
 * kinds to use (alternating between processes), `total` IDs for the
 * concurrency case, `dataLoss` the ways this store can lose its data
 * (name -> async (server) => void), the first of which is also used
 * in-process; `serverClock` matches how a skew against the server's own
 * clock is named (null: the store has none, only peers are compared).
 * Returns what a store's own tests need: `server()` and
 * `withClient(store, fn)`, and the suite's `timing`.
 */
export function ttlLeaseSuite({ name, start, stores, total, dataLoss, serverClock }) {
  let server;
  // A fresh store makes the first claims on a prefix wait one TTL (tested on
  // its own below); the other cases start on an established store: one claim
  // per prefix, all at once, one TTL before them.
  const established = ['concurrent', 'kill', 'outage', 'clock', 'full', 'lost', 'skew', 'drift', 'layout'];
  test.before(async () => {
    server = await start();
    await withClient(stores[0], (c) => Promise.all(established.map(async (prefix) => (await c.lease({ ...timing, prefix })).release())));
  });
  test.after(async () => {
    await server?.close();
  });
  const timing = { ttlMs: 3000, renewMs: 1000, marginMs: 600 };
  async function withClient(store, fn) {
    const c = await open(store, server.url);
    try {
      return await fn(c);
    } finally {
      c.close();
    }
  }

  test(`${name}: a fresh store: the first claims wait one TTL (it may have lost its data), later ones only for recorded bounds`, async (t) => {
    await withClient(stores[0], async (c) => {
      const opts = { ...timing, prefix: 'fresh' };
      const claim = async (o = opts) => {
        const at = performance.now();
        const lease = await c.lease(o);
        return { lease, at, waited: performance.now() - at };
      };
      // A second claim half way through the first TTL waits for what is left of it.
      const pending = claim();
      await sleep(timing.ttlMs / 2);
      const second = await claim();
      const first = await pending;
      t.diagnostic(`first claim on a fresh store waited ${Math.round(first.waited)} ms (ttlMs ${timing.ttlMs}); one ${timing.ttlMs / 2} ms later waited ${Math.round(second.waited)} ms`);
      assert.ok(first.waited >= timing.ttlMs - 50, `the first claim on a fresh store waited only ${first.waited} ms`);
      assert.ok(first.waited < timing.ttlMs + 2000, `the first claim waited ${first.waited} ms`);
      assert.ok(second.waited >= timing.ttlMs / 2 - 300, `a claim in the first TTL waited only ${second.waited} ms`);
      assert.ok(second.waited < timing.ttlMs / 2 + 1500, `a claim in the first TTL waited ${second.waited} ms`);
      // After that TTL: a worker ID never used, and one released with its bound, are handed out at once.
      const third = await claim();
      assert.ok(third.waited < 1000, `a claim after the first TTL waited ${third.waited} ms`);
      assert.notEqual(third.lease.workerId, first.lease.workerId);
      const id = first.lease.workerId;
      await first.lease.release();
      const again = await claim({ ...opts, workerIds: { min: id, max: id } });
      t.diagnostic(`later claims waited ${Math.round(third.waited)} ms (new worker ID) and ${Math.round(again.waited)} ms (released one)`);
      assert.ok(again.waited < 1000, `re-claiming a released worker ID waited ${again.waited} ms`);
      for (const l of [second.lease, third.lease, again.lease]) await l.release();
    });
  });

  const [firstLoss, loseFirst] = Object.entries(dataLoss)[0];
  test(`${name}: a lease whose key is gone (${firstLoss}) stops minting when its renewal finds out, not at its bound; its re-acquisition waits one TTL`, async (t) => {
    await withClient(stores[0], async (c) => {
      const lease = await c.lease({ ...timing, prefix: 'lost' });
      const sf = new Snowflake({ lease });
      const before = [sf.next()];
      const lost = once(lease, 'lost');
      await loseFirst(server);
      await within(lost, timing.ttlMs * 3, 'the lease did not notice that its key is gone');
      const lostAt = performance.now();
      assert.throws(() => sf.next(), { code: 'ERR_LEASE_EXPIRED' }, 'a lease marked lost still minted');
      await within(once(lease, 'acquired'), timing.ttlMs + 10_000, 'the lease was not re-acquired');
      const waited = performance.now() - lostAt;
      t.diagnostic(`re-acquired ${Math.round(waited)} ms after the loss was noticed`);
      assert.ok(waited >= timing.ttlMs - 100, `re-acquired ${waited} ms after the loss, within the TTL`);
      const after = [sf.next(), sf.next()];
      assertUnique([BigUint64Array.from(before), BigUint64Array.from(after)]);
      assert.ok(decode(after[0]).timestamp > lease.resumeAfterMs);
      await lease.release();
    });
  });

  for (const [how, loseData] of Object.entries(dataLoss)) {
    test(`${name}: ${how} under a minting holder: the next holder of its worker ID waits one TTL, 0 duplicates`, async (t) => {
      const dir = tempDir('loss');
      const lease = { ...timing, renewMs: 1500, prefix: `loss-${how.replace(/\W+/g, '-')}`, workerIds: { min: 3, max: 3 } };
      const msgs = { a: [], b: [] };
      const spawnOne = (who, cfg) => {
        const child = spawnMinter({ url: server.url, lease, untilStop: true, out: join(dir, `${who}.bin`), ...cfg });
        child.on('message', (m) => msgs[who].push({ ...m, at: Date.now() }));
        return { child, exited: once(child, 'exit') };
      };
      const has = (who, type, since = 0) => msgs[who].find((m) => m.type === type && m.at >= since);
      const a = spawnOne('a', { store: stores[0] });
      const b = spawnOne('b', { store: stores[stores.length - 1], claimOnGo: true, claimForMs: timing.ttlMs + 5000 });
      try {
        await until(() => has('a', 'acquired') && has('b', 'ready'), 30_000, 'the minters did not start');
        await sleep(lease.renewMs * 1.5); // a has renewed at least once
        const lostAt = Date.now();
        await loseData(server);
        b.child.send('go');
        // The next holder: b, or a if it claimed its worker ID again first.
        const next = () => msgs.b.find((m) => m.type === 'acquired') ?? msgs.a.find((m) => m.type === 'acquired' && m.at > lostAt);
        await until(next, timing.ttlMs + 15_000, 'no one holds the worker ID again');
        await sleep(1500); // both mint (or try to)
        for (const { child } of [a, b]) if (child.exitCode === null) child.send('stop');
        const [[codeA], [codeB]] = await within(Promise.all([a.exited, b.exited]), 20_000, 'the minters did not stop');
        assert.equal(codeA, 0);
        assert.equal(codeB, 0);
        const ids = ['a', 'b'].map((who) => {
          const f = join(dir, `${who}.bin`);
          const buf = existsSync(f) ? readFileSync(f) : Buffer.alloc(0);
          return new BigUint64Array(buf.buffer, buf.byteOffset, buf.byteLength / 8);
        });
        const n = next();
        const who = msgs.b.includes(n) ? 'another process' : 'the old holder';
        const waited = n.heldAt - Math.max(lostAt, n.claimedAt ?? 0);
        t.diagnostic(
          `${how}: ${who} held worker ID ${n.workerId} ${n.heldAt - lostAt} ms after the loss (claimed ${n.claimedAt ? n.claimedAt - lostAt : '?'} ms after it, waited ${waited} ms); ids: old holder ${ids[0].length}, other ${ids[1].length}; lease errors: ${JSON.stringify(has('a', 'done')?.errors)}`,
        );
        assert.equal(n.workerId, 3);
        assert.ok(ids[0].length > 0, 'the old holder minted nothing');
        if (who === 'another process') assert.ok(ids[1].length > 0, 'the next holder minted nothing');
        assertUnique(ids);
        assert.ok(n.heldAt - lostAt >= timing.ttlMs - 100, `the next holder minted ${n.heldAt - lostAt} ms after the data loss, within the TTL`);
      } finally {
        for (const { child } of [a, b]) child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

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
    await until(
      () => {
        assert.equal(child.exitCode, null, 'the minter exited before minting');
        return acquired !== null && minted > 0n;
      },
      20_000,
      'the minter did not start minting',
    );
    await sleep(timing.renewMs * 1.5); // renewed at least once
    child.kill('SIGKILL');
    await once(child, 'exit');
    const killedAt = performance.now();
    const before = minted;
    await withClient(stores[0], async (c) => {
      let refused = 0;
      let next;
      for (const deadline = performance.now() + timing.ttlMs + 10_000; ; ) {
        assert.ok(performance.now() < deadline, 'the worker ID was not handed out again within the TTL + 10 s');
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
        // This clock runs ten times fast on purpose: not the skew this test is about.
        const opts = { ttlMs: 60_000, renewMs: 1000, marginMs: 10_000, prefix: 'clock', workerIds: { min: 5, max: 5 }, clock, maxSkewMs: 3_600_000 };
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

  test(`${name}: all 1024 worker IDs leased by claims racing 16 at a time: all distinct, and the next claim fails with ERR_LEASE_UNAVAILABLE`, async () => {
    await withClient(stores[0], async (c) => {
      // The data-loss tests above leave the store young again: one short
      // claim waits that out (3 s), where the first of these would wait their
      // TTL (60 s). The wait itself is the fresh-store test's.
      await (await c.lease({ ...timing, prefix: 'full' })).release();
      const leases = [];
      try {
        // 16 claims at a time: they race for the same free IDs, and still get distinct ones.
        for (let i = 0; i < 1024; i += 16) {
          const batch = await Promise.allSettled(Array.from({ length: 16 }, () => c.lease({ ttlMs: 60_000, prefix: 'full' })));
          for (const r of batch) if (r.status === 'fulfilled') leases.push(r.value);
          for (const r of batch) if (r.status === 'rejected') throw r.reason;
        }
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

  // What a skewed holder is compared with: the server's clock where there is one, else the live peers' mean.
  const against = serverClock ? new RegExp(`${serverClock.source}|live peer`) : /live peer/;
  const againstKinds = serverClock ? ['server', 'peers'] : ['peers'];

  test(`${name}: a new holder whose clock is 5 s ahead or behind is refused with onSkew 'refuse' (ClockError ERR_CLOCK_SKEW) and warned with 'warn'`, async (t) => {
    await withClient(stores[0], async (c) => {
      const opts = { ...timing, prefix: 'skew' };
      const peer = await c.lease(opts); // a live peer on the true clock, which has reported it
      try {
        for (const offset of [5000, -5000]) {
          // The generator and the lease read one clock, offset from the true one.
          const clock = new TestClock(Date.now() + offset);
          const ticker = setInterval(() => clock.set(Date.now() + offset), 5);
          t.after(() => clearInterval(ticker));
          await assert.rejects(c.lease({ ...opts, clock, onSkew: 'refuse' }), (e) => {
            t.diagnostic(`${offset > 0 ? '+' : ''}${offset} ms: ${e.message}`);
            assert.equal(e.name, 'ClockError');
            assert.equal(e.code, 'ERR_CLOCK_SKEW');
            assert.match(e.message, against);
            assert.ok(againstKinds.includes(e.against), e.against);
            assert.equal(e.workerId >= 0, true);
            // A report counts as made when sent; on a busy machine it may reach the server ~100 ms later.
            assert.ok(Math.abs(e.skewMs - offset) <= e.errMs + 400, `measured ${e.skewMs} ± ${e.errMs} ms for an offset of ${offset} ms`);
            assert.equal(e.maxSkewMs, 1000);
            return true;
          });
          const warned = once(process, 'warning');
          const lease = await c.lease({ ...opts, clock, onSkew: 'warn' });
          const [w] = await within(warned, 2000, 'no skew warning');
          assert.equal(w.name, 'ClockSkewWarning');
          assert.equal(w.code, 'ERR_CLOCK_SKEW');
          assert.match(w.message, offset > 0 ? /\d+ ms ahead of/ : /\d+ ms behind/);
          assert.equal(typeof new Snowflake({ lease, clock }).next(), 'bigint'); // it mints
          await lease.release();
          clearInterval(ticker);
        }
        // Within maxSkewMs: granted, and no warning.
        const quiet = await c.lease({ ...opts, clock: () => Date.now() + 300, onSkew: 'refuse' });
        await quiet.release();
      } finally {
        await peer.release();
      }
    });
  });

  test(`${name}: a held lease whose clock jumps 5 s ahead: 'refuse' fails every mint with ERR_CLOCK_SKEW until the clock is back, 'warn' emits 'skew' and mints on`, async () => {
    await withClient(stores[0], async (c) => {
      const peer = await c.lease({ ...timing, prefix: 'drift' });
      try {
        for (const onSkew of ['refuse', 'warn']) {
          let offset = 0;
          const lease = await c.lease({ ...timing, prefix: 'drift', clock: () => Date.now() + offset, onSkew });
          const sf = new Snowflake({ lease });
          sf.next();
          const skewed = once(lease, 'skew');
          offset = 5000;
          const [e] = await within(skewed, timing.renewMs * 3, 'no skew event');
          assert.equal(e.code, 'ERR_CLOCK_SKEW');
          assert.ok(Math.abs(e.skewMs - offset) <= e.errMs + 400, `measured ${e.skewMs} ± ${e.errMs} ms`);
          await sleep(50); // a new run: the next call claims from the generator again
          if (onSkew === 'refuse') {
            assert.throws(() => sf.nextBatch(5000), { name: 'ClockError', code: 'ERR_CLOCK_SKEW' });
            offset = 0;
            await until(
              () => {
                try {
                  sf.nextBatch(10);
                  return true;
                } catch (err) {
                  assert.equal(err.code, 'ERR_CLOCK_SKEW');
                  return false;
                }
              },
              timing.renewMs * 3,
              'minting did not resume once the clock was back',
            );
          } else {
            assert.equal(sf.nextBatch(5000).length, 5000);
          }
          await lease.release();
        }
      } finally {
        await peer.release();
      }
    });
  });

  return { server: () => server, withClient, timing };
}
