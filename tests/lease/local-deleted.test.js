// A lock file that a temp-file cleaner deletes under its holder (the file, or
// the whole lease directory) must never let two live processes mint on one
// worker ID: the holder checks its file on every claimed run, stops (one
// LeaseError ERR_LEASE_LOST) and claims again; a newcomer starts after the
// moment of its claim.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Snowflake, decode } from '../../npm/entries/node.js';
import { localLease } from '../../npm/src/lease/index.js';
import { assertUnique, forkMinter, storedBound } from './harness.js';
import { tempDir } from './servers.js';

const MINTER = new URL('./zero-config-minter.js', import.meta.url).pathname;
const dirs = [];
test.after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Forks a zero-config minter on `leaseDir`; resolves once it minted its first ID. */
async function start(leaseDir, out) {
  const child = forkMinter(MINTER, [out], { env: { ...process.env, SNOWMINT_LEASE_DIR: leaseDir, SNOWMINT_WORKER_ID: '' } });
  const msgs = [];
  child.on('message', (m) => msgs.push(m));
  const exited = once(child, 'exit');
  const deadline = Date.now() + 20_000;
  while (!msgs.some((m) => m.type === 'ready')) {
    assert.ok(Date.now() < deadline, 'a minter did not mint its first ID within 20 s');
    assert.equal(child.exitCode, null, 'a minter exited before minting');
    await sleep(5);
  }
  return {
    workerId: msgs[0].workerId,
    async stop() {
      child.send('stop');
      const [code] = await exited;
      assert.equal(code, 0);
      const buf = readFileSync(out);
      return { ...msgs.find((m) => m.type === 'done'), ids: new BigUint64Array(buf.buffer, buf.byteOffset, buf.byteLength / 8) };
    },
  };
}

for (const what of ['the lock file', 'the lease directory']) {
  test(`${what} deleted under a minting holder at random moments, then a second process starts: 0 duplicates (5 rounds)`, async () => {
    for (let round = 0; round < 5; round++) {
      const work = tempDir('deleted');
      dirs.push(work);
      const leaseDir = join(work, 'leases');
      const a = await start(leaseDir, join(work, 'a.bin'));
      await sleep(50 + Math.random() * 400);
      // The holder may write a new lock file while the directory is being
      // removed (ENOTEMPTY): rmSync tries again, as an operator's rm -rf would.
      rmSync(what === 'the lock file' ? join(leaseDir, `worker-${a.workerId}.lock`) : leaseDir, { recursive: true, maxRetries: 20, retryDelay: 5 });
      const b = await start(leaseDir, join(work, 'b.bin'));
      await sleep(300 + Math.random() * 300);
      const [ra, rb] = [await a.stop(), await b.stop()];
      assert.ok(ra.lost >= 1, `round ${round}: the holder never noticed its lock file was gone`);
      assertUnique([ra.ids, rb.ids]);
    }
  });
}

test('a lease in this process whose lock file is deleted: one ERR_LEASE_LOST, the same worker ID re-claimed, later IDs above the earlier ones', () => {
  const dir = tempDir('deleted-own');
  dirs.push(dir);
  const lease = localLease({ dir, workerIds: { min: 2, max: 2 } });
  const lost = [];
  lease.on('lost', (e) => lost.push(e.code));
  const sf = new Snowflake({ lease });
  const before = Array.from({ length: 10_000 }, () => sf.next());
  rmSync(join(dir, 'worker-2.lock'));
  // What is left of a run checked before the deletion may still be handed out; the next claim throws.
  assert.throws(
    () => {
      for (let i = 0; i < 5000; i++) before.push(sf.next());
    },
    (e) => e.name === 'LeaseError' && e.code === 'ERR_LEASE_LOST' && /re-acquired worker ID 2/.test(e.message),
  );
  assert.deepEqual(lost, ['ERR_LEASE_LOST']);
  assert.equal(lease.state, 'held');
  const after = Array.from({ length: 10_000 }, () => sf.next());
  assert.ok(after[0] > before.at(-1), 'the re-claimed worker ID repeated the range it minted before');
  assertUnique([BigUint64Array.from(before), BigUint64Array.from(after)]);
  // The re-created file holds a bound above everything minted.
  assert.ok(storedBound(dir, 2) > decode(after.at(-1)).timestamp);
  lease.release();
});
