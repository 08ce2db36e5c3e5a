// IDs at a given time, range bounds, compare, NIL/MAX, and the layouts as
// their sources define them (Discord IDs >= 2^63, Mastodon, named worker
// parts). Runs against the native addon and the wasm build (scripts/test.d/30-wasm.sh).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sm, throwsCode } from './pkg.js';

const T = Date.UTC(2024, 0, 1, 12, 34, 56, 789);
const KINDS = [
  ['ulid', sm.ulid, 1],
  ['uuidv7', sm.uuidv7, 1],
  ['uuidv1', sm.uuidv1, 1],
  ['uuidv6', sm.uuidv6, 1],
  ['ksuid', sm.ksuid, 1000],
  ['objectid', sm.objectId, 1000],
];

test('an ID for a given time decodes to that time, random part fresh each call', () => {
  for (const [kind, mint, unit] of KINDS) {
    const ids = new Set();
    for (let i = 0; i < 500; i++) {
      const id = mint({ time: i % 2 ? T : new Date(T) });
      assert.equal(sm.decode(id).timestamp, Math.floor(T / unit) * unit, `${kind} ${id}`);
      ids.add(id);
    }
    assert.equal(ids.size, 500, `${kind}: every ID differs`);
    // Without a time (or with time undefined): the monotonic stream, now.
    assert.ok(Math.abs(sm.decode(mint({ time: undefined })).timestamp - Date.now()) < 5000, kind);
  }
  const t = sm.typeid('user', { time: T });
  assert.match(t, /^user_[0-9a-z]{26}$/);
  assert.deepEqual([sm.decode(t).prefix, sm.decode(t).timestamp], ['user', T]);
});

test('times outside a kind are typed errors; bad time arguments are argument errors', () => {
  throwsCode(assert, () => sm.ulid({ time: 2 ** 48 }), sm.ClockError, 'ERR_TIME_OVERFLOW');
  throwsCode(assert, () => sm.objectId({ time: 2 ** 32 * 1000 }), sm.ClockError, 'ERR_TIME_OVERFLOW');
  throwsCode(assert, () => sm.ksuid({ time: 0 }), sm.ClockError, 'ERR_TIME_BEFORE_EPOCH');
  throwsCode(assert, () => sm.uuidv7({ time: -1 }), sm.ClockError, 'ERR_TIME_BEFORE_EPOCH');
  throwsCode(assert, () => sm.ulid({ time: 1.5 }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE');
  throwsCode(assert, () => sm.ulid({ time: new Date('nope') }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE');
  throwsCode(assert, () => sm.ulid({ time: '2024' }), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(assert, () => sm.ulid({ when: T }), sm.ConfigError, 'ERR_INVALID_OPTION');
  throwsCode(assert, () => sm.typeid('Bad', { time: T }), sm.InvalidIdError, 'ERR_PARSE');
  const s = new sm.Snowflake({ preset: 'twitter' });
  throwsCode(assert, () => s.at(1_000_000_000_000), sm.ClockError, 'ERR_TIME_BEFORE_EPOCH');
  throwsCode(assert, () => s.at(T, { sequence: 4096 }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /sequence 4096 .* 0 to 4095/);
  // Below or beside any range: the same words, the layout's range.
  for (const bad of [-1, 1.5, 2 ** 53]) {
    throwsCode(assert, () => s.at(T, { sequence: bad }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', new RegExp(`sequence ${bad} is out of range: this layout allows 0 to 4095`));
  }
  throwsCode(assert, () => new sm.Snowflake({ preset: 'sonyflake', workerId: 1 }).at(T, { sequence: -1 }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /0 to 255$/);
});

test('Snowflake#at: the worker and sequence given, at the time given', () => {
  const s = new sm.Snowflake({ preset: 'discord', workerId: 99 });
  const id = s.at(T, { sequence: 17 });
  const r = s.decode(id);
  assert.deepEqual([r.timestamp, r.workerId, r.sequence], [T, 99, 17]);
  assert.equal(s.at(new Date(T)), id - 17n);
  // Sonyflake: the 10 ms tick the time falls in.
  const sony = new sm.Snowflake({ preset: 'sonyflake', workerId: 5 });
  const epoch = 1_409_529_600_000;
  const tickStart = epoch + Math.floor((T + 7 - epoch) / 10) * 10;
  assert.deepEqual([sony.decode(sony.at(T + 7)).timestamp, sony.decode(sony.at(T + 7)).workerId], [tickStart, 5]);
});

test('minId/maxId hold exactly the IDs of their time', () => {
  for (const [kind, mint, unit] of KINDS.filter(([k]) => k !== 'uuidv1')) {
    const [lo, hi] = [sm.minId(kind, T), sm.maxId(kind, T)];
    for (let i = 0; i < 200; i++) {
      const id = mint({ time: T });
      assert.ok(sm.compare(lo, id) <= 0 && sm.compare(id, hi) <= 0, `${kind}: ${lo} <= ${id} <= ${hi}`);
      // Plain text order agrees: a database's byte-wise (C collation) comparison.
      assert.ok(lo <= id && id <= hi, kind);
    }
    assert.ok(hi < sm.minId(kind, T + unit), `${kind}: the next unit starts after`);
    assert.ok(sm.maxId(kind, T - unit) < lo, `${kind}: the previous unit ends before`);
  }
  const ids = new sm.Snowflake({ preset: 'discord', workerId: 1023 });
  const [lo, hi] = [sm.minId('snowflake', T, { preset: 'discord' }), sm.maxId('snowflake', T, { preset: 'discord' })];
  assert.ok(lo <= ids.at(T) && ids.at(T, { sequence: 4095 }) <= hi);
  assert.equal(hi + 1n, sm.minId('snowflake', T + 1, { preset: 'discord' }));
  const layout = { timeBits: 41, workerBits: 10, sequenceBits: 12, epoch: 0 };
  assert.equal(sm.minId('snowflake', 5, { layout }), 5n << 22n);
  // Without options: Twitter's layout.
  assert.equal(sm.minId('snowflake', T), sm.minId('snowflake', T, { preset: 'twitter' }));
  throwsCode(assert, () => sm.minId('uuidv1', T), sm.ConfigError, 'ERR_INVALID_OPTION', /ordered by time/);
  throwsCode(assert, () => sm.minId('uuidv4', T), sm.ConfigError, 'ERR_INVALID_OPTION');
  throwsCode(assert, () => sm.minId('ulid', T, { prefix: 'x' }), sm.ConfigError, 'ERR_INVALID_OPTION');
  throwsCode(assert, () => sm.maxId('snowflake', 0, { preset: 'discord' }), sm.ClockError, 'ERR_TIME_BEFORE_EPOCH');
});

test('compare: bigints and decimal texts of any length, UUID spellings, NIL and MAX', () => {
  const values = [0n, 9n, 10n, 99n, 100n, (1n << 63n) - 1n, 1n << 63n, (1n << 64n) - 1n];
  for (const a of values) {
    for (const b of values) {
      const want = a < b ? -1 : a > b ? 1 : 0;
      assert.equal(sm.compare(a, b), want);
      assert.equal(sm.compare(String(a), String(b)), want, `${a} ${b}`);
      assert.equal(sm.compare(a, String(b)), want);
    }
  }
  const texts = ['10', '9', '100000000000000000', '18446744073709551615', '0', '99'];
  assert.deepEqual(texts.toSorted(sm.compare), ['0', '9', '10', '99', '100000000000000000', '18446744073709551615']);
  assert.equal(sm.compare(sm.NIL, sm.MAX), -1);
  assert.equal(sm.compare(sm.MAX.toUpperCase(), `{${sm.MAX}}`), 0);
  assert.equal(sm.NIL, '00000000-0000-0000-0000-000000000000');
  assert.equal(sm.MAX, 'ffffffff-ffff-ffff-ffff-ffffffffffff');
  throwsCode(assert, () => sm.compare(-1n, 1n), sm.InvalidIdError, 'ERR_PARSE');
  throwsCode(assert, () => sm.compare(1n << 64n, 1n), sm.InvalidIdError, 'ERR_PARSE');
  throwsCode(assert, () => sm.compare(1, 2), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
});

test('Discord IDs past 2^63: a generator mints them, decode reads them', () => {
  const clock = new sm.TestClock(1_420_070_400_000 + 2 ** 41);
  const s = new sm.Snowflake({ preset: 'discord', workerId: 1023, clock });
  const id = s.next();
  assert.equal(id, (1n << 63n) | (1023n << 12n));
  assert.equal(s.decode(id).timestamp, 1_420_070_400_000 + 2 ** 41);
  assert.equal(sm.decode(String(id), { preset: 'discord' }).workerId, 1023);
  // The last tick ends at 2^64 - 1.
  clock.set(1_420_070_400_000 + 2 ** 42 - 1);
  const last = new sm.Snowflake({ preset: 'discord', workerId: 1023, clock });
  assert.equal(last.nextBatch(4096)[4095], (1n << 64n) - 1n);
  // A 63-bit layout refuses them.
  throwsCode(assert, () => sm.decode(id, { preset: 'twitter' }), sm.InvalidIdError, 'ERR_PARSE', /63-bit/);
  throwsCode(assert, () => sm.decode(1n << 64n, { preset: 'discord' }), sm.InvalidIdError, 'ERR_PARSE');
});

test('Mastodon: 48-bit ms and 16 low bits, as lib/mastodon/snowflake.rb', () => {
  const clock = new sm.TestClock(T);
  const s = new sm.Snowflake({ preset: 'mastodon', clock });
  const ids = s.nextBatch(3);
  assert.deepEqual([...ids], [BigInt(T) << 16n, (BigInt(T) << 16n) + 1n, (BigInt(T) << 16n) + 2n]);
  assert.equal(s.layout.workerBits, 0);
  assert.equal(sm.decode(ids[2], { preset: 'mastodon' }).sequence, 2);
  assert.ok(sm.presets.includes('mastodon'));
});

test('the worker field by its named parts', () => {
  const tw = new sm.Snowflake({ datacenter: 17, worker: 5 });
  assert.equal(tw.workerId, (17 << 5) | 5);
  assert.deepEqual(tw.decode(tw.next()).parts, { datacenter: 17, worker: 5 });
  const dc = new sm.Snowflake({ preset: 'discord', worker: 1, process: 30 });
  assert.deepEqual(dc.decode(dc.next()).parts, { worker: 1, process: 30 });
  assert.equal(new sm.Snowflake({ preset: 'discord', process: 2 }).workerId, 2);
  throwsCode(assert, () => new sm.Snowflake({ datacenter: 32 }), sm.ConfigError, 'ERR_WORKER_ID_RANGE', /datacenter 32 .* 0 to 31/);
  throwsCode(assert, () => new sm.Snowflake({ preset: 'discord', process: 32 }), sm.ConfigError, 'ERR_WORKER_ID_RANGE', /process/);
  throwsCode(assert, () => new sm.Snowflake({ process: 1 }), sm.ConfigError, 'ERR_INVALID_OPTION', /'datacenter' and 'worker'/);
  throwsCode(assert, () => new sm.Snowflake({ preset: 'sonyflake', worker: 1 }), sm.ConfigError, 'ERR_INVALID_OPTION', /does not split/);
  throwsCode(assert, () => new sm.Snowflake({ workerId: 1, worker: 1 }), sm.ConfigError, 'ERR_INVALID_OPTION');
  throwsCode(assert, () => new sm.Snowflake({ datacenter: -1 }), sm.ConfigError, 'ERR_WORKER_ID_RANGE');
});
