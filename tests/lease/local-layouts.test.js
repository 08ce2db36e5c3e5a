// The local lease covers the whole worker field of the layout in use (8,192
// worker IDs for Instagram, 65,536 for Sonyflake) or an explicit workerIds
// range, for localLease() and for the zero-config default generator.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { Snowflake, decode } from '../../npm/entries/node.js';
import { localLease } from '../../npm/src/lease/index.js';
import { tempDir } from './servers.js';

const dirs = [];
const leaseDir = () => {
  const d = tempDir('layouts');
  dirs.push(d);
  return d;
};
/** Holds worker IDs 0..n-1 (one ID per lease: each claim reads only its own file). */
const holdAll = (dir, n) => Array.from({ length: n }, (_, i) => localLease({ dir, workerIds: { min: i, max: i } }));
test.after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test('layout: the lease spans the whole worker field (Instagram 8,192, Sonyflake 65,536); the default stays 1,024', () => {
  const dir = leaseDir();
  for (const [layout, size] of [
    ['instagram', 8192],
    ['sonyflake', 65536],
    [{ timeBits: 41, workerBits: 12, sequenceBits: 10 }, 4096],
  ]) {
    const lease = localLease({ dir, layout });
    assert.equal(lease.size, size);
    lease.release();
  }
  const plain = localLease({ dir });
  assert.equal(plain.size, 1024);
  plain.release();
  assert.throws(() => localLease({ dir, layout: 'nope' }), { code: 'ERR_INVALID_OPTION' });
  assert.throws(() => localLease({ dir, layout: { workerBits: 20 } }), { code: 'ERR_INVALID_OPTION' });
  assert.throws(() => localLease({ dir, workerIds: { min: 0, max: 65536 } }), { code: 'ERR_INVALID_OPTION' });
});

test('Sonyflake: worker IDs above 1,023 from an explicit range, and after 1,024 taken', () => {
  const dir = leaseDir();
  const high = localLease({ dir, workerIds: { min: 40_000, max: 40_001 } });
  assert.equal(high.workerId, 40_000);
  const sf = new Snowflake({ preset: 'sonyflake', lease: high });
  const ids = Array.from({ length: 1000 }, () => sf.next());
  for (const id of ids) assert.equal(decode(id, { preset: 'sonyflake' }).workerId, 40_000);
  assert.throws(() => new Snowflake({ lease: localLease({ dir, workerIds: { min: 2000, max: 2000 } }) }), { code: 'ERR_WORKER_ID_RANGE' });
  high.release();

  const held = holdAll(dir, 1024);
  try {
    const next = localLease({ dir, layout: 'instagram' });
    assert.equal(next.workerId, 1024);
    const ig = new Snowflake({ preset: 'instagram', lease: next });
    assert.equal(decode(ig.next(), { preset: 'instagram' }).workerId, 1024);
    next.release();
  } finally {
    for (const l of held) l.release();
  }
});

test('zero config on the Sonyflake layout with worker IDs 0..1023 taken: the default generator leases 1024', () => {
  const dir = leaseDir();
  const held = holdAll(dir, 1024);
  try {
    const script = `
      import { configure, nextId, decode } from ${JSON.stringify(new URL('../../npm/entries/node.js', import.meta.url).href)};
      configure({ preset: 'sonyflake' });
      const ids = Array.from({ length: 100 }, () => nextId());
      console.log(JSON.stringify([...new Set(ids.map((id) => decode(id, { preset: 'sonyflake' }).workerId))]));`;
    const env = { ...process.env, SNOWMINT_LEASE_DIR: dir };
    delete env.SNOWMINT_WORKER_ID;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), [1024]);
  } finally {
    for (const l of held) l.release();
  }
});
