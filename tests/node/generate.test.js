// Uniqueness and order over millions of IDs, and the freshness rule of the
// per-thread runs: a handed-out ID is at most one tick older than now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WASM_ENTRY, sm } from './pkg.js';

/** Asserts strictly increasing (so also unique). */
function assertIncreasing(ids, what) {
  for (let i = 1; i < ids.length; i++) {
    if (!(ids[i] > ids[i - 1])) assert.fail(`${what}: #${i} ${ids[i]} is not after ${ids[i - 1]}`);
  }
}

test('nextId: 2M strictly increasing IDs, mixed with nextIds and nextIdString', () => {
  if (WASM_ENTRY) sm.configure({ workerId: 1 }); // no zero-config worker ID there
  const ids = new BigUint64Array(2_000_000);
  let n = 0;
  while (n < ids.length) {
    if (n % 100_000 === 50_000) {
      const batch = sm.nextIds(5000);
      ids.set(batch, n);
      n += batch.length;
    } else if (n % 1000 === 999) {
      ids[n++] = BigInt(sm.nextIdString());
    } else {
      ids[n++] = sm.nextId();
    }
  }
  assertIncreasing(ids, 'nextId');
});

test('a handed-out ID is never more than one tick older than the clock', async () => {
  const g = new sm.Snowflake({ workerId: 3 });
  g.next();
  for (let round = 0; round < 20; round++) {
    await new Promise((r) => setTimeout(r, round % 3)); // idle: the run must expire
    for (let i = 0; i < 500; i++) {
      const before = Date.now();
      const { timestamp } = g.decode(g.next());
      // The core's clock is wall time anchored once, so allow its anchor's rounding (1 ms).
      assert.ok(before - timestamp <= 2, `ID from ${timestamp} handed out at ${before}`);
    }
  }
});

test('Snowflake instances: increasing, own worker ID, batches spanning ticks', () => {
  const g = new sm.Snowflake({ workerId: 1023, preset: 'discord' });
  const a = g.nextBatch(20_000);
  assertIncreasing(a, 'nextBatch');
  const b = g.next();
  assert.ok(b > a[a.length - 1]);
  assert.equal(g.decode(b).workerId, 1023);
  assert.equal(g.decode(String(b)).parts.process, 31);
  assert.equal(typeof g.nextString(), 'string');
  assert.equal(g.layout.epoch, 1420070400000);
});

test('sonyflake layout (sequence before machine, 10 ms ticks) stays increasing', () => {
  const g = new sm.Snowflake({ preset: 'sonyflake', workerId: 65535 });
  const ids = Array.from({ length: 3000 }, () => g.next());
  assertIncreasing(ids, 'sonyflake');
  assert.equal(g.decode(ids[2999]).workerId, 65535);
});

test('ulid and uuidv7: 1M strictly increasing each; uuidv4: 1M unique and well-formed', () => {
  for (const [name, mint] of [
    ['ulid', sm.ulid],
    ['uuidv7', sm.uuidv7],
  ]) {
    let prev = mint();
    for (let i = 0; i < 1_000_000; i++) {
      const next = mint();
      if (!(next > prev)) assert.fail(`${name}: ${next} is not after ${prev}`);
      prev = next;
    }
    assert.ok(Math.abs(sm.decode(prev).timestamp - Date.now()) < 1000);
  }
  const seen = new Set();
  for (let i = 0; i < 1_000_000; i++) seen.add(sm.uuidv4());
  assert.equal(seen.size, 1_000_000);
  const v4 = sm.uuidv4();
  assert.match(v4, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('other kinds mint canonical, decodable text', () => {
  assert.equal(sm.decode(sm.uuidv1()).version, 1);
  assert.equal(sm.decode(sm.uuidv6()).version, 6);
  const [v6a, v6b] = [sm.uuidv6(), sm.uuidv6()];
  assert.ok(v6b > v6a, 'v6 text sorts by time');
  assert.equal(sm.decode(sm.ksuid()).kind, 'ksuid');
  assert.equal(sm.decode(sm.objectId()).kind, 'objectid');
  const t = sm.typeid('user');
  assert.match(t, /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
  assert.equal(sm.decode(t).prefix, 'user');
  assert.equal(sm.ulidToUuid(sm.uuidToUlid(sm.uuidv7())).length, 36);
});

test('a layout without named worker parts has split null (as typed), one with them names both', () => {
  assert.equal(new sm.Snowflake({ preset: 'instagram', workerId: 1 }).layout.split, null);
  assert.equal(new sm.Snowflake({ layout: { timeBits: 41, workerBits: 10, sequenceBits: 12 }, workerId: 1 }).layout.split, null);
  assert.deepEqual(new sm.Snowflake({ preset: 'discord', workerId: 1 }).layout.split, { high: 'worker', low: 'process', lowBits: 5 });
});
