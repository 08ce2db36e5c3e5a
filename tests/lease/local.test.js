// snowmint/lease on one host: lock files (no server), the zero-config
// default of nextId(), and the Kubernetes helpers.
import assert from 'node:assert/strict';
import cluster from 'node:cluster';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClockError, ConfigError, Snowflake, TestClock, configure, decode } from '../../npm/entries/node.js';
import { LeaseError, localLease, workerIdFromEnv, workerIdFromHostname } from '../../npm/src/lease/index.js';
import { assertUnique, spawnMinter, storedBound, until } from './harness.js';
import { tempDir } from './servers.js';

const dirs = [];
const leaseDir = () => {
  const d = tempDir('leases');
  dirs.push(d);
  return d;
};
test.after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test('node:cluster, 8 workers x 1M nextId() with no configuration: 0 duplicates, 8 distinct worker IDs', async () => {
  const out = tempDir('cluster');
  dirs.push(out);
  cluster.setupPrimary({ exec: new URL('./cluster-worker.js', import.meta.url).pathname, silent: false });
  const forked = [];
  let leased = 0;
  const workers = Array.from({ length: 8 }, async (_, i) => {
    const file = join(out, `${i}.bin`);
    const w = cluster.fork({ COUNT: String(1_000_000), OUT: file, SNOWMINT_WORKER_ID: '', SNOWMINT_LEASE_DIR: '' });
    forked.push(w);
    const [msg] = await once(w, 'message');
    // All 8 hold their worker IDs at once before any mints on.
    if (++leased === 8) for (const f of forked) f.send('go');
    const [code] = await once(w, 'exit');
    assert.equal(code, 0);
    const buf = readFileSync(file);
    return { workerId: msg.workerId, ids: new BigUint64Array(buf.buffer, buf.byteOffset, buf.byteLength / 8) };
  });
  const runs = await Promise.all(workers);
  assert.equal(new Set(runs.map((r) => r.workerId)).size, 8, `worker IDs: ${runs.map((r) => r.workerId)}`);
  assert.equal(assertUnique(runs.map((r) => r.ids)), 8_000_000);
});

test('local: a SIGKILLed holder frees its worker ID at once; the successor starts above its high-water mark', async () => {
  const dir = leaseDir();
  const child = spawnMinter({ store: 'local', url: dir, lease: { workerIds: { min: 3, max: 3 } }, forever: true });
  let minted = 0n;
  child.on('message', (m) => m.type === 'minted' && (minted = BigInt(m.max)));
  await until(
    () => {
      assert.equal(child.exitCode, null, 'the minter exited before minting');
      return minted > 0n;
    },
    20_000,
    'the minter did not start minting',
  );
  await sleep(1500); // past at least one extension of the reserved bound
  child.kill('SIGKILL');
  await once(child, 'exit');
  const before = minted;
  const lease = localLease({ dir, workerIds: { min: 3, max: 3 } });
  assert.equal(lease.workerId, 3);
  assert.ok(lease.resumeAfterMs >= decode(before).timestamp, 'the recorded bound is below what the holder minted');
  const first = new Snowflake({ lease }).next();
  assert.ok(first > before, `successor's first ID ${first} is not above the killed holder's ${before}`);
  lease.release();
});

test('local: a clock stepped back 10 s across a restart: the generator refuses until its clock passes the bound, then 0 duplicates', () => {
  const dir = leaseDir();
  const clock = new TestClock(Date.now());
  // A simulated clock step, not on the host's clock: no skew check (tests/lease/local-skew.test.js).
  const opts = { dir, workerIds: { min: 0, max: 0 }, clock, maxSkewMs: Number.POSITIVE_INFINITY };
  const a = localLease(opts);
  const sa = new Snowflake({ lease: a, clock });
  const before = [];
  for (let t = 0; t < 2000; t++) {
    for (let i = 0; i < 50; i++) before.push(sa.next());
    clock.advance(1);
  }
  a.release();
  clock.stepBack(10_000);
  const b = localLease(opts);
  assert.equal(b.workerId, 0);
  const sb = new Snowflake({ lease: b, clock });
  assert.throws(
    () => sb.next(),
    (e) => e instanceof ClockError && e.code === 'ERR_CLOCK_BACKWARDS',
  );
  clock.advance(10_000);
  const after = [];
  for (let t = 0; t < 2000; t++) {
    for (let i = 0; i < 50; i++) after.push(sb.next());
    clock.advance(1);
  }
  assert.ok(after[0] > before.at(-1));
  assertUnique([BigUint64Array.from(before), BigUint64Array.from(after)]);
  b.release();
});

test('local: a long synchronous mint keeps extending the recorded bound (no timer needed)', () => {
  const dir = leaseDir();
  const clock = new TestClock(Date.now());
  const lease = localLease({ dir, workerIds: { min: 1, max: 1 }, clock, maxSkewMs: Number.POSITIVE_INFINITY });
  const sf = new Snowflake({ lease, clock });
  let last = 0n;
  for (let t = 0; t < 5000; t++) {
    last = sf.next();
    clock.advance(1);
  }
  const stored = storedBound(dir, 1);
  assert.ok(stored > decode(last).timestamp, `stored bound ${stored} is not above the last ID's time ${decode(last).timestamp}`);
  lease.release();
  assert.equal(storedBound(dir, 1), decode(last).timestamp, 'release records the exact high-water mark');
});

test('local: all 1024 worker IDs leased: the next claim fails with ERR_LEASE_UNAVAILABLE', () => {
  const dir = leaseDir();
  const leases = Array.from({ length: 1024 }, () => localLease({ dir }));
  try {
    assert.equal(new Set(leases.map((l) => l.workerId)).size, 1024);
    assert.throws(
      () => localLease({ dir }),
      (e) => e instanceof LeaseError && e.code === 'ERR_LEASE_UNAVAILABLE' && /all 1024 worker IDs/.test(e.message),
    );
  } finally {
    for (const l of leases) l.release();
  }
});

test('a lease drives one generator; a released lease stops minting; lease and workerId exclude each other', () => {
  const lease = localLease({ dir: leaseDir() });
  const sf = new Snowflake({ lease });
  assert.equal(sf.workerId, lease.workerId);
  assert.throws(() => new Snowflake({ lease }), { code: 'ERR_LEASE_IN_USE' });
  assert.throws(
    () => configure({ lease, workerId: 1 }),
    (e) => e instanceof ConfigError && e.code === 'ERR_INVALID_OPTION',
  );
  assert.throws(() => new Snowflake({ lease: {} }), { code: 'ERR_INVALID_ARG_TYPE' });
  sf.next();
  lease.release();
  assert.throws(
    () => {
      for (let i = 0; i < 10_000; i++) sf.next();
    },
    (e) => e instanceof LeaseError && e.code === 'ERR_LEASE_RELEASED',
  );
  assert.throws(() => new Snowflake({ layout: { timeBits: 43, workerBits: 8, sequenceBits: 12 }, lease: localLease({ dir: leaseDir() }) }), { code: 'ERR_WORKER_ID_RANGE' });
});

test('Kubernetes: worker ID from a StatefulSet ordinal or an env var', () => {
  assert.equal(workerIdFromHostname({ hostname: 'web-7' }), 7);
  assert.equal(workerIdFromHostname({ hostname: 'ids-api-12', offset: 100 }), 112);
  assert.throws(() => workerIdFromHostname({ hostname: 'web' }), { code: 'ERR_WORKER_ID_RANGE' });
  assert.throws(() => workerIdFromHostname({ hostname: 'web-1024' }), { code: 'ERR_WORKER_ID_RANGE' });
  process.env.SNOWMINT_TEST_ORDINAL = '42';
  assert.equal(workerIdFromEnv('SNOWMINT_TEST_ORDINAL'), 42);
  process.env.SNOWMINT_TEST_ORDINAL = 'x';
  assert.throws(() => workerIdFromEnv('SNOWMINT_TEST_ORDINAL'), { code: 'ERR_WORKER_ID_RANGE' });
  delete process.env.SNOWMINT_TEST_ORDINAL;
  assert.throws(() => workerIdFromEnv('SNOWMINT_TEST_ORDINAL'), { code: 'ERR_WORKER_ID_RANGE' });
});
