// snowmint/lease on a real Redis (started here on a free loopback port).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Snowflake, decode } from '../../npm/entries/node.js';
import { assertUnique, ttlLeaseSuite } from './harness.js';
import { startRedis } from './servers.js';

const { withClient, timing } = ttlLeaseSuite({
  name: 'redis',
  start: startRedis,
  stores: ['ioredis', 'node-redis'],
  total: 10_000_000,
  dataLoss: { FLUSHALL: (s) => s.flushAll(), 'a restart without its data': (s) => s.restartEmpty() },
  serverClock: /Redis server's clock \(TIME\)/,
});

test('redis: a Sonyflake-layout lease hands out worker IDs above 1023 (workerIds 1020..1030), every one distinct, then ERR_LEASE_UNAVAILABLE', async () => {
  await withClient('ioredis', async (c) => {
    const opts = { ...timing, prefix: 'layout', preset: 'sonyflake', workerIds: { min: 1020, max: 1030 } };
    const leases = [];
    try {
      for (let i = 0; i < 11; i++) leases.push(await c.lease(opts));
      assert.deepEqual(
        leases.map((l) => l.workerId).sort((a, b) => a - b),
        Array.from({ length: 11 }, (_, i) => 1020 + i),
      );
      await assert.rejects(c.lease(opts), { code: 'ERR_LEASE_UNAVAILABLE', message: /all 11 worker IDs \(1020\.\.1030\)/ });
      const ids = leases.map((lease) => {
        const sf = new Snowflake({ lease, preset: 'sonyflake' });
        const batch = sf.nextBatch(100);
        assert.equal(decode(batch[0], { preset: 'sonyflake' }).workerId, lease.workerId);
        return batch;
      });
      assertUnique(ids);
      // A generator whose layout has fewer worker IDs than the lease may hand out refuses it.
      assert.throws(() => new Snowflake({ lease: leases[0] }), { code: 'ERR_WORKER_ID_RANGE' });
    } finally {
      for (const l of leases) await l.release();
    }
  });
});

test('redis: a lease covers the whole worker field of its layout; a range outside it is a ConfigError', async () => {
  await withClient('ioredis', async (c) => {
    for (const [preset, size] of [
      ['twitter', 1024],
      ['instagram', 8192],
      ['sonyflake', 65536],
    ]) {
      // The top worker ID of the field is handed out.
      const top = await c.lease({ ...timing, prefix: 'layout', preset, workerIds: { min: size - 1 } });
      assert.equal(top.workerId, size - 1);
      assert.equal(top.size, size);
      await top.release();
      assert.throws(() => c.lease({ ...timing, prefix: 'layout', preset, workerIds: { min: 0, max: size } }), {
        name: 'ConfigError',
        code: 'ERR_INVALID_OPTION',
        message: new RegExp(`0 <= min <= max < ${size} \\(the ${size} worker IDs of the '${preset}' preset\\)`),
      });
    }
    const custom = { timeBits: 41, workerBits: 12, sequenceBits: 10 };
    const lease = await c.lease({ ...timing, prefix: 'layout', layout: custom, workerIds: { min: 4000 } });
    assert.equal(lease.workerId >= 4000 && lease.workerId <= 4095, true);
    await lease.release();
    for (const workerIds of [{ min: -1 }, { min: 5, max: 4 }, { min: 1.5 }, { max: 1024 }]) {
      assert.throws(() => c.lease({ ...timing, prefix: 'layout', workerIds }), { name: 'ConfigError', code: 'ERR_INVALID_OPTION' });
    }
    assert.throws(() => c.lease({ ...timing, prefix: 'layout', preset: 'nope' }), { code: 'ERR_INVALID_OPTION' });
  });
});
